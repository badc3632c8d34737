/** `linkctl skan campaigns create <game>`: a new SKAN campaign. */
import type { Command } from 'commander'
import type { ConversionSchemaInput } from '../../../../contract/skan.js'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { emit, printRecord } from '../../../output.js'
import {
  CAMPAIGN_FLAGS,
  campaignFields,
  campaignOptions,
  GAME_ARGUMENT,
  schemaFile,
  type CampaignFlags,
} from '../shared.js'

export async function runSkanCampaignsCreate(
  o: CampaignFlags & { game: string; name: string; adNetwork: string; lockWindow: number },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const schema = o.schema ? await schemaFile(o.schema) : { events: {} }
  const c = await (
    await ctx.client()
  ).skan.createCampaign(o.game, {
    name: o.name,
    adNetworkId: o.adNetwork,
    lockWindowHours: o.lockWindow,
    conversionSchema: schema as ConversionSchemaInput,
    ...(o.affiliate !== undefined ? { affiliateId: o.affiliate } : {}),
    ...(o.sourceId !== undefined ? { sourceIdentifier: o.sourceId } : {}),
  })
  await emit(ctx, c, () => printRecord(ctx, campaignFields(c, ctx.isTTY)))
}

export function register(campaigns: Command): void {
  const create = campaigns
    .command('create')
    .description('create a SKAN campaign (schema from --schema, else no events and the default bands)')
    .argument('<game>', GAME_ARGUMENT)
  jsonOption(campaignOptions(create, true)).action(
    action<CampaignFlags & { name: string; adNetwork: string; lockWindow: number }>(
      ([game], o, ctx) => runSkanCampaignsCreate({ ...o, game: game ?? '' }, ctx),
      { flagOf: CAMPAIGN_FLAGS },
    ),
  )
}
