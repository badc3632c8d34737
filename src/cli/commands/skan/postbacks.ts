/** `linkctl skan postbacks <campaign>`: a campaign's postbacks, newest first. */
import type { Command } from 'commander'
import type { SkanPostback } from '../../../contract/skan.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows, when, type Column } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { CAMPAIGN_ARGUMENT } from './shared.js'

export const postbackColumns = (tty: boolean): Column<SkanPostback>[] => [
  { header: 'ID', value: (p) => p.id },
  { header: 'RECEIVED', value: (p) => when(p.receivedAt, tty) },
  { header: 'VERSION', value: (p) => p.version, drop: 4 },
  { header: 'VERIFIED', value: (p) => (p.verified ? 'yes' : 'no') },
  { header: 'DAYS', value: (p) => p.window, drop: 3 },
  { header: 'WIN', value: (p) => (p.didWin ? 'yes' : 'no'), drop: 2 },
  { header: 'FINE', value: (p) => p.fineValue ?? '-' },
  { header: 'COARSE', value: (p) => p.coarseValue ?? '-' },
  { header: 'EVENTS', value: (p) => p.events.join(tty ? ', ' : ',') || '-', fit: 'wrap', drop: 1 },
  { header: 'TRANSACTION', value: (p) => p.transactionId, fit: 'flex', drop: 5 },
]

export async function runSkanPostbacks(o: PageFlags & { campaign: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, o, (query) => client.skan.postbacks(o.campaign, query))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No postbacks.')
    await printRows<SkanPostback>(ctx, page.data, postbackColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(skan: Command): void {
  const postbacks = skan
    .command('postbacks')
    .description("list a campaign's postbacks, newest first (verified or not)")
    .argument('<campaign>', CAMPAIGN_ARGUMENT)
  jsonOption(columnsOption(pageOptions(postbacks), postbackColumns(false))).action(
    action<PageFlags>(([campaign], o, ctx) => runSkanPostbacks({ ...o, campaign: campaign ?? '' }, ctx)),
  )
}
