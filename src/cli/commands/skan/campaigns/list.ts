/** `linkctl skan campaigns list <game>`: a game's SKAN campaigns. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../../output.js'
import { CAMPAIGN_COLUMNS, GAME_ARGUMENT } from '../shared.js'

export async function runSkanCampaignsList(o: { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const campaigns = await (await ctx.client()).skan.campaigns(o.game)
  await emit(ctx, campaigns, async () => {
    if (campaigns.length === 0 && ctx.isTTY) return note(ctx, 'No campaigns.')
    await printRows(ctx, campaigns, CAMPAIGN_COLUMNS(ctx.isTTY))
  })
}

export function register(campaigns: Command): void {
  jsonOption(
    columnsOption(
      campaigns
        .command('list')
        .alias('ls')
        .description("list a game's SKAN campaigns")
        .argument('<game>', GAME_ARGUMENT),
      CAMPAIGN_COLUMNS(false),
    ),
  ).action(action(([game], _o, ctx) => runSkanCampaignsList({ game: game ?? '' }, ctx)))
}
