/**
 * `linkctl team invite <email> [--role member]`: a one-time invitation token (no e-mail is sent),
 * printed once with the command the teammate runs to join.
 */
import type { Command } from 'commander'
import type { Role } from '../../../contract/scopes.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printLine, warn, when } from '../../output.js'
import { roleOption } from './shared.js'

export interface InviteOpts {
  email: string
  role?: Role
}

/** The command a teammate runs to accept `token` on the linkd at `url`. */
export function joinCommand(token: string, url: string): string {
  return `linkctl team join ${token} --url ${url} --name <Name>`
}

export async function runTeamInvite(opts: InviteOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const { url } = await ctx.target()
  const invitation = await (
    await ctx.client()
  ).team.invite({
    email: opts.email,
    ...(opts.role ? { role: opts.role } : {}),
  })
  await emit(ctx, invitation, () => {
    // The token alone on the first line (`| head -1`), then what to send the teammate.
    ctx.stdout.write(ctx.color ? `\x1b[1;32m${invitation.token}\x1b[0m\n` : `${invitation.token}\n`)
    printLine(
      ctx,
      `Invited ${invitation.email} as ${invitation.role} (${invitation.id}); ` +
        `the token expires ${when(invitation.expiresAt, ctx.isTTY)}. They run:`,
    )
    printLine(ctx, `  ${joinCommand(invitation.token, url)}`)
  })
  warn(ctx, 'this is the only time the token is shown: send it to the teammate over a private channel')
}

export function register(team: Command): void {
  jsonOption(
    team
      .command('invite')
      .description('invite a teammate: prints a one-time token and the command they run to join')
      .argument('<email>', "the teammate's e-mail address (recorded, no mail is sent)")
      .addOption(roleOption('their role', 'member')),
  ).action(
    action<{ role?: Role }>(([email], opts, ctx) => runTeamInvite({ ...opts, email: email ?? '' }, ctx)),
  )
}
