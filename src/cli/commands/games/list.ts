/** `linkctl games list`: one page of games, by status. */
import { Option, type Command } from 'commander'
import { GAME_STATUSES } from '../../../contract/limits.js'
import type { Game } from '../../../contract/games.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows, when, type Column } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'

export const gameColumns = (tty: boolean): Column<Game>[] => [
  { header: 'ID', value: (g) => g.id },
  { header: 'NAME', value: (g) => g.name, fit: 'flex' },
  { header: 'PLATFORM', value: (g) => g.platform, drop: 2 },
  { header: 'STATUS', value: (g) => g.status },
  { header: 'SDK KEY', value: (g) => g.sdkKeyPreview, drop: 1 },
  { header: 'CREATED', value: (g) => when(g.createdAt, tty), drop: 3 },
]

export async function runGamesList(o: PageFlags & { status?: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, o, (query) =>
    client.games.list({ ...(o.status ? { status: o.status as Game['status'] } : {}), ...query }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No games.')
    await printRows(ctx, page.data, gameColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(games: Command): void {
  const list = games.command('list').alias('ls').description('list games')
  list.addOption(new Option('--status <status>', 'only games with this status').choices(GAME_STATUSES))
  jsonOption(columnsOption(pageOptions(list), gameColumns(false))).action(
    action<PageFlags & { status?: string }>((_a, o, ctx) => runGamesList(o, ctx)),
  )
}
