/** `linkctl team remove <member>` (id, e-mail or name): remove a member and revoke all their keys (asks first). */
import type { Command } from 'commander'
import { idAction } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { note } from '../../output.js'
import { confirmOrStop, shout } from '../../confirm.js'
import { keySourceName } from '../../key-source.js'
import { MEMBER_ARG_HELP, memberIdOf, roster } from './shared.js'

export interface RemoveOpts {
  id: string
  yes?: boolean
}

export async function runTeamRemove(opts: RemoveOpts, ctx: Ctx): Promise<void> {
  if (!opts.yes && !ctx.canPrompt)
    await confirmOrStop(ctx, { action: `remove member ${opts.id}`, question: '' })
  await requireKey(ctx)
  const client = await ctx.client()
  const members = roster(client)
  const id = await memberIdOf(members, opts.id)
  let name = id
  if (!opts.yes) {
    // The name makes the question clearer; who linkctl is warns before removing oneself.
    const [all, me] = await Promise.all([members().catch(() => null), client.team.me().catch(() => null)])
    const member = all?.find((m) => m.id === id)
    if (member) name = `${member.name} (${member.id}, ${member.role})`
    if (me?.member.id === id)
      shout(
        ctx,
        `${id} is the member linkctl is acting as (key from ${keySourceName(await ctx.target())}); ` +
          'after this, its keys fail with 401',
      )
  }
  await confirmOrStop(ctx, {
    yes: opts.yes,
    action: `remove member ${id}`,
    question: `Remove member ${name}? All of their API keys are revoked at once; this cannot be undone.`,
  })
  await client.team.removeMember(id)
  note(ctx, `Removed member ${name}; their API keys are revoked`)
}

export function register(team: Command): void {
  team
    .command('remove')
    .alias('rm')
    .description('remove a member and revoke all their keys (asks for confirmation on a terminal)')
    .argument('<member>', MEMBER_ARG_HELP)
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(idAction<{ yes?: boolean }>(runTeamRemove))
}
