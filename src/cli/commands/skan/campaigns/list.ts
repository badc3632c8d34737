/** `linkctl skan campaigns list <game>`: a game's SKAN campaigns. */
import type { Command } from 'commander'
import type { SkanCampaign } from '../../../../contract/skan.js'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../../paging.js'
import { CAMPAIGN_COLUMNS, GAME_ARGUMENT } from '../shared.js'

export async function runSkanCampaignsList(o: PageFlags & { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, o, (query) => client.skan.campaigns(o.game, query))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No campaigns.')
    await printRows<SkanCampaign>(ctx, page.data, CAMPAIGN_COLUMNS(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(campaigns: Command): void {
  const list = campaigns
    .command('list')
    .alias('ls')
    .description("list a game's SKAN campaigns")
    .argument('<game>', GAME_ARGUMENT)
  jsonOption(columnsOption(pageOptions(list), CAMPAIGN_COLUMNS(false))).action(
    action<PageFlags>(([game], o, ctx) => runSkanCampaignsList({ ...o, game: game ?? '' }, ctx)),
  )
}
