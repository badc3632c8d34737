/**
 * `linkctl skan ...`: SKAdNetwork campaigns, their conversion schemas and postbacks over
 * /api/v1/skan. Each verb one file (`skan campaigns create` → campaigns/create.ts); shared.ts
 * holds how campaigns, reports and postbacks look and the campaign flags. `skan optimize` →
 * optimize.ts.
 */
import type { Command } from 'commander'
import { register as registerCampaignsList } from './campaigns/list.js'
import { register as registerCampaignsCreate } from './campaigns/create.js'
import { register as registerCampaignsUpdate } from './campaigns/update.js'
import { register as registerCampaignsShow } from './campaigns/show.js'
import { register as registerSchemaEdit } from './schema/edit.js'
import { register as registerPostbacks } from './postbacks.js'
import { register as registerOptimize } from './optimize.js'

export function register(program: Command): void {
  const skan = program.command('skan').description('SKAdNetwork campaigns, conversion schemas and postbacks')
  const campaigns = skan.command('campaigns').description("a game's SKAN campaigns and their reports")
  for (const registerVerb of [
    registerCampaignsList,
    registerCampaignsCreate,
    registerCampaignsUpdate,
    registerCampaignsShow,
  ])
    registerVerb(campaigns)
  registerSchemaEdit(skan.command('schema').description("a campaign's conversion schema"))
  registerPostbacks(skan)
  registerOptimize(skan)
}
