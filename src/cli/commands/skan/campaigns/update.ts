/** `linkctl skan campaigns update <campaign>`: change a campaign (its schema from a file too). */
import type { Command } from 'commander'
import type { ConversionSchemaInput, UpdateCampaignBody } from '../../../../contract/skan.js'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { UsageError } from '../../../../session/exit-codes.js'
import { emit, printRecord } from '../../../output.js'
import {
  CAMPAIGN_ARGUMENT,
  CAMPAIGN_FLAGS,
  campaignFields,
  campaignOptions,
  schemaFile,
  type CampaignFlags,
} from '../shared.js'

export async function runSkanCampaignsUpdate(
  o: CampaignFlags & { campaign: string },
  ctx: Ctx,
): Promise<void> {
  const body: UpdateCampaignBody = {
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.adNetwork !== undefined ? { adNetworkId: o.adNetwork } : {}),
    ...(o.affiliate !== undefined ? { affiliateId: o.affiliate || null } : {}),
    ...(o.sourceId !== undefined ? { sourceIdentifier: o.sourceId || null } : {}),
    ...(o.lockWindow !== undefined ? { lockWindowHours: o.lockWindow } : {}),
    ...(o.schema !== undefined
      ? { conversionSchema: (await schemaFile(o.schema)) as ConversionSchemaInput }
      : {}),
  }
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one flag')
  await requireKey(ctx)
  const c = await (await ctx.client()).skan.updateCampaign(o.campaign, body)
  await emit(ctx, c, () => printRecord(ctx, campaignFields(c, ctx.isTTY)))
}

export function register(campaigns: Command): void {
  const update = campaigns
    .command('update')
    .description('change a SKAN campaign (an empty --affiliate or --source-id removes it)')
    .argument('<campaign>', CAMPAIGN_ARGUMENT)
  jsonOption(campaignOptions(update)).action(
    action<CampaignFlags>(
      ([campaign], o, ctx) => runSkanCampaignsUpdate({ ...o, campaign: campaign ?? '' }, ctx),
      { flagOf: CAMPAIGN_FLAGS },
    ),
  )
}
