/** `linkctl gdpr delete|status|list`: GDPR deletion of one player's data, and the records kept. */
import { Option, type Command } from 'commander'
import type { GdprDeletion } from '../../contract/gaming.js'
import { GDPR_CONFIRMATION, GDPR_STATUSES } from '../../contract/limits.js'
import { action, jsonOption } from '../action.js'
import { requireKey, type Ctx } from '../../session/context.js'
import { CliError, EXIT, UsageError } from '../../session/exit-codes.js'
import { columnsOption, emit, note, printRecord, printRows, when, type Column } from '../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../paging.js'

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
    if (confirmation !== GDPR_CONFIRMATION)
      throw new CliError(
        `aborted, nothing deleted: type ${GDPR_CONFIRMATION} in capitals to confirm`,
        EXIT.error,
      )
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

const listColumns = (tty: boolean): Column<GdprDeletion>[] => [
  { header: 'ID', value: (d) => d.id },
  { header: 'GAME', value: (d) => d.gameId },
  { header: 'PLAYER', value: (d) => d.playerId, fit: 'flex' },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'REASON', value: (d) => d.reason, drop: 2 },
  { header: 'REQUESTED', value: (d) => when(d.createdAt, tty), drop: 3 },
  { header: 'COMPLETED', value: (d) => when(d.completedAt, tty), drop: 1 },
]

export interface ListOpts extends PageFlags {
  game?: string
  status?: GdprDeletion['status']
}

/** The organization's deletion records (kept 365 days after completion), newest first. */
export async function runGdprList(o: ListOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const filter = {
    ...(o.game !== undefined ? { gameId: o.game } : {}),
    ...(o.status !== undefined ? { status: o.status } : {}),
  }
  const page = await fetchList(ctx, o, (query) => client.gaming.deletions({ ...filter, ...query }))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No GDPR deletions.')
    await printRows(ctx, page.data, listColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(program: Command): void {
  const gdpr = program.command('gdpr').description('GDPR deletion of player data')
  jsonOption(
    gdpr
      .command('delete')
      .description(
        'delete all data of one player, irreversibly (asks to type DELETE on a terminal; without one, --confirm DELETE)',
      )
      .requiredOption('--game <id>', 'game id')
      .requiredOption('--player <id>', 'player id')
      .requiredOption('--reason <text>', 'reason, e.g. gdpr_request, user_request, age_restriction')
      .option('--confirm <text>', `confirmation without a prompt: must be ${GDPR_CONFIRMATION}`),
  ).action(action<DeleteOpts>((_a, o, ctx) => runGdprDelete(o, ctx)))
  jsonOption(
    gdpr.command('status').description('status of a GDPR deletion').argument('<id>', 'request id (gdpr_...)'),
  ).action(action<object>(([id], _o, ctx) => runGdprStatus({ id: id ?? '' }, ctx)))
  const list = gdpr
    .command('list')
    .alias('ls')
    .description('list GDPR deletions, newest first (completed ones are kept 365 days)')
    .option('--game <id>', "only this game's deletions")
    .addOption(new Option('--status <status>', 'only deletions with this status').choices(GDPR_STATUSES))
  jsonOption(columnsOption(pageOptions(list), listColumns(false))).action(
    action<ListOpts>((_a, o, ctx) => runGdprList(o, ctx)),
  )
}
