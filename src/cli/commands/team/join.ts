/**
 * `linkctl team join <token> --url <linkd> --name <Name> [--profile <name>]`: accepts an
 * invitation (no API key: the token is the credential) and saves the first personal key it gives
 * as a profile, like `linkctl login` does. The key is printed only by --json.
 */
import type { Command } from 'commander'
import type { AcceptedInvitation } from '../../../contract/team.js'
import { action, jsonOption } from '../../action.js'
import type { Ctx } from '../../../session/context.js'
import { CliError, exitCodeForStatus, UsageError } from '../../../session/exit-codes.js'
import { emit, helpText, note } from '../../output.js'

export interface JoinOpts {
  token: string
  name: string
}

/**
 * 404 and 410 of accept, said with what to do about them. A 410 keeps the daemon's reason (used,
 * revoked, expired, or revoked because the member who sent it was removed).
 */
function explainAccept(err: unknown): unknown {
  const e = err as { name?: string; status?: number; message?: string }
  if (e.name !== 'ApiError' || (e.status !== 404 && e.status !== 410)) return err
  const why =
    e.status === 404
      ? 'no invitation has this token: check that it was copied whole'
      : `this invitation can no longer be used: ${e.message ?? 'it was used, revoked or has expired'}`
  // The daemon's reason may already say whom to ask: the advice is given once.
  const advice = /\bask\b/i.test(why)
    ? ''
    : '; ask the teammate who invited you for a new one (linkctl team invite)'
  return new CliError(`${why} (HTTP ${e.status})${advice}`, exitCodeForStatus(e.status), { cause: err })
}

export async function runTeamJoin(opts: JoinOpts, ctx: Ctx): Promise<void> {
  const target = await ctx.target()
  const store = await ctx.store()
  // Checked before the token is spent: a saved key is never overwritten (it may be the only copy).
  const existing = store.get(target.profile)
  if (existing?.apiKey)
    throw new UsageError(
      `profile "${target.profile}" already holds a key (for ${existing.url}); ` +
        'pass --profile <name> to save the new one under another name',
    )
  const client = await ctx.clientWithKey(undefined)
  let joined: AcceptedInvitation
  try {
    joined = await client.team.accept(opts.token, opts.name)
  } catch (err) {
    throw explainAccept(err)
  }
  store.save(target.profile, { url: target.url, apiKey: joined.apiKey.key })
  store.setCurrent(target.profile)
  await emit(ctx, joined, () => undefined)
  const { member, apiKey } = joined
  note(
    ctx,
    `Joined ${target.url} as ${member.name} (${member.role}, ${member.id}). Saved ${member.name}'s key ` +
      `(${apiKey.preview}) as profile "${target.profile}" (${store.path}), now current.`,
  )
  if (!ctx.json) note(ctx, 'Check with: linkctl whoami')
}

export function register(team: Command): void {
  jsonOption(
    team
      .command('join')
      .description('accept an invitation and save your new key as a profile (needs no API key)')
      .argument('<token>', 'the invitation token (lkinv_…)')
      .requiredOption('--name <name>', 'your name as the team sees it')
      .addHelpText(
        'after',
        helpText(
          'The daemon is --url (or LINKCTL_URL); the key is saved in --profile (default: "default"), which becomes current. A profile that already holds a key is never overwritten. With --json the whole answer is printed, the full key included.',
        ),
      ),
  ).action(
    action<{ name: string }>(
      ([token], opts, ctx) => runTeamJoin({ token: token ?? '', name: opts.name }, ctx),
      {
        allowNewProfile: true,
      },
    ),
  )
}
