/** `linkctl gdpr delete|status`: GDPR deletion of one player's data. */
import type { Command } from 'commander'
import type { GdprDeletion } from '../../contract/gaming.js'
import { GDPR_CONFIRMATION } from '../../contract/limits.js'
import { action, jsonOption } from '../action.js'
import { requireKey, type Ctx } from '../../session/context.js'
import { CliError, EXIT, UsageError } from '../../session/exit-codes.js'
import { emit, note, printRecord, when } from '../output.js'

export interface DeleteOpts {
  game: string
  player: string
  reason: string
  confirm?: string
}

function fields(d: GdprDeletion, tty: boolean) {
  return [
    ['ID', d.id],
    ['GAME', d.gameId],
    ['PLAYER', d.playerId],
    ['REASON', d.reason],
    ['STATUS', d.status],
    ['REQUESTED', when(d.createdAt, tty)],
    ['COMPLETED', when(d.completedAt, tty)],
    ['RECORD KEPT UNTIL', when(d.expiresAt, tty)],
  ] as const
}

/** Irreversible: asks to type DELETE on a terminal; requires --confirm DELETE otherwise. */
export async function runGdprDelete(o: DeleteOpts, ctx: Ctx): Promise<void> {
  let confirmation = o.confirm
  if (confirmation === undefined) {
    if (!ctx.canPrompt || !ctx.prompt.text)
      throw new UsageError(`refusing without confirmation: pass --confirm ${GDPR_CONFIRMATION}`)
    confirmation = await ctx.prompt.text(
      `This deletes all data of player ${o.player} in game ${o.game}, irreversibly.\nType ${GDPR_CONFIRMATION} to confirm: `,
    )
    if (confirmation !== GDPR_CONFIRMATION) throw new CliError('aborted', EXIT.error)
  } else if (confirmation !== GDPR_CONFIRMATION)
    throw new UsageError(`--confirm must be ${GDPR_CONFIRMATION} (in capitals)`)
  await requireKey(ctx)
  const d = await (
    await ctx.client()
  ).gaming.requestDeletion({ gameId: o.game, playerId: o.player, reason: o.reason, confirmation })
  await emit(ctx, d, () => printRecord(ctx, fields(d, ctx.isTTY)))
  if (!ctx.json) note(ctx, `Queued; follow it with: linkctl gdpr status ${d.id}`)
}

export async function runGdprStatus(o: { id: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).gaming.deletion(o.id)
  await emit(ctx, d, () => printRecord(ctx, fields(d, ctx.isTTY)))
}

export function register(program: Command): void {
  const gdpr = program.command('gdpr').description('GDPR deletion of player data')
  jsonOption(
    gdpr
      .command('delete')
      .description('delete all data of one player, irreversibly (asks to type DELETE on a terminal)')
      .requiredOption('--game <id>', 'game id')
      .requiredOption('--player <id>', 'player id')
      .requiredOption('--reason <text>', 'reason, e.g. gdpr_request, user_request, age_restriction')
      .option('--confirm <text>', `confirmation without a prompt: must be ${GDPR_CONFIRMATION}`),
  ).action(action<DeleteOpts>((_a, o, ctx) => runGdprDelete(o, ctx)))
  jsonOption(
    gdpr.command('status').description('status of a GDPR deletion').argument('<id>', 'request id (gdpr_...)'),
  ).action(action<object>(([id], _o, ctx) => runGdprStatus({ id: id ?? '' }, ctx)))
}
