/** `linkctl skan campaigns show <campaign>`: a campaign and its report. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { emit, printRecord } from '../../../output.js'
import { CAMPAIGN_ARGUMENT, campaignFields, reportFields } from '../shared.js'

export async function runSkanCampaignsShow(o: { campaign: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const c = await (await ctx.client()).skan.campaign(o.campaign)
  await emit(ctx, c, () => printRecord(ctx, [...campaignFields(c, ctx.isTTY), ...reportFields(c.report)]))
}

export function register(campaigns: Command): void {
  jsonOption(
    campaigns
      .command('show')
      .alias('get')
      .description('show a SKAN campaign with its report (verified postbacks only)')
      .argument('<campaign>', CAMPAIGN_ARGUMENT),
  ).action(action(([campaign], _o, ctx) => runSkanCampaignsShow({ campaign: campaign ?? '' }, ctx)))
}
