/** `linkctl skan postbacks <campaign>`: a campaign's postbacks, newest first. */
import type { Command } from 'commander'
import type { SkanPostback } from '../../../contract/skan.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { emit, note, printRows, when } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { CAMPAIGN_ARGUMENT } from './shared.js'

export async function runSkanPostbacks(o: PageFlags & { campaign: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, o, (query) => client.skan.postbacks(o.campaign, query))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No postbacks.')
    await printRows<SkanPostback>(ctx, page.data, [
      { header: 'ID', value: (p) => p.id, keep: true },
      { header: 'RECEIVED', value: (p) => when(p.receivedAt, ctx.isTTY) },
      { header: 'VERSION', value: (p) => p.version },
      { header: 'VERIFIED', value: (p) => (p.verified ? 'yes' : 'no') },
      { header: 'DAYS', value: (p) => p.window },
      { header: 'WIN', value: (p) => (p.didWin ? 'yes' : 'no') },
      { header: 'FINE', value: (p) => p.fineValue ?? '-' },
      { header: 'COARSE', value: (p) => p.coarseValue ?? '-' },
      { header: 'EVENTS', value: (p) => p.events.join(',') || '-' },
      { header: 'TRANSACTION', value: (p) => p.transactionId },
    ])
    cutNote(ctx, page, page.data.length)
  })
}

export function register(skan: Command): void {
  const postbacks = skan
    .command('postbacks')
    .description("list a campaign's postbacks, newest first (verified or not)")
    .argument('<campaign>', CAMPAIGN_ARGUMENT)
  jsonOption(pageOptions(postbacks)).action(
    action<PageFlags>(([campaign], o, ctx) => runSkanPostbacks({ ...o, campaign: campaign ?? '' }, ctx)),
  )
}
