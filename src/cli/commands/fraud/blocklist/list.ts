/** `linkctl fraud blocklist list <game>`: a game's blocked IPs and devices, newest first. */
import type { Command } from 'commander'
import type { BlocklistEntry } from '../../../../contract/fraud.js'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { columnsOption, emit, note, printRows, when, type Column } from '../../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../../paging.js'
import { GAME_ARGUMENT } from '../shared.js'

export const blocklistColumns = (tty: boolean): Column<BlocklistEntry>[] => [
  { header: 'ID', value: (e) => e.id },
  { header: 'TYPE', value: (e) => e.type },
  { header: 'VALUE', value: (e) => e.value },
  { header: 'REASON', value: (e) => e.reason || '-', fit: 'flex' },
  { header: 'ADDED', value: (e) => when(e.createdAt, tty), drop: 1 },
  { header: 'EXPIRES', value: (e) => when(e.expiresAt, tty), drop: 2 },
]

export async function runFraudBlocklistList(o: PageFlags & { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, o, (query) => client.fraud.blocklist(o.game, query))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'The blocklist is empty.')
    await printRows<BlocklistEntry>(ctx, page.data, blocklistColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(blocklist: Command): void {
  const list = blocklist
    .command('list')
    .alias('ls')
    .description("list a game's blocked IPs and devices")
    .argument('<game>', GAME_ARGUMENT)
  jsonOption(columnsOption(pageOptions(list), blocklistColumns(false))).action(
    action<PageFlags>(([game], o, ctx) => runFraudBlocklistList({ ...o, game: game ?? '' }, ctx)),
  )
}
