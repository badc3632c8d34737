/**
 * What the `skan` verbs share: how a campaign, its report and a postback look on the terminal,
 * the campaign flags of create and update, and reading a conversion schema from a JSON file.
 */
import { readFile } from 'node:fs/promises'
import { Option, type Command } from 'commander'
import type { CampaignReport, SkanCampaign } from '../../../contract/skan.js'
import { SKAN_LIMITS } from '../../../contract/skan-limits.js'
import { plural } from '../../../contract/numbers.js'
import { UsageError } from '../../../session/exit-codes.js'
import { percent, when, type Column, type Field } from '../../output.js'
import { intArg } from '../../parse.js'
import { readFailure } from '../../sink.js'

export const GAME_ARGUMENT = 'game id'
export const CAMPAIGN_ARGUMENT = 'campaign id (skan_…)'

const events = (c: SkanCampaign) =>
  Object.entries(c.conversionSchema.events)
    .map(([name, bit]) => `${name}=${bit}`)
    .join(',') || '-'

export const CAMPAIGN_COLUMNS = (tty: boolean): Column<SkanCampaign>[] => [
  { header: 'ID', value: (c) => c.id },
  { header: 'NAME', value: (c) => c.name, fit: 'flex' },
  { header: 'AD NETWORK', value: (c) => c.adNetworkId, fit: 'flex', drop: 3 },
  { header: 'SOURCE', value: (c) => c.sourceIdentifier ?? '-' },
  { header: 'LOCK', value: (c) => `${c.lockWindowHours} h`, drop: 2 },
  { header: 'EVENTS', value: events, fit: 'wrap', drop: 1 },
  { header: 'CREATED', value: (c) => when(c.createdAt, tty), drop: 4 },
]

const band = (c: SkanCampaign, b: 'low' | 'medium' | 'high') =>
  `${c.conversionSchema.coarseValues[b].min}-${c.conversionSchema.coarseValues[b].max}`

export function campaignFields(c: SkanCampaign, tty: boolean): Field[] {
  return [
    ['ID', c.id],
    ['GAME', c.gameId],
    ['NAME', c.name],
    ['AD NETWORK', c.adNetworkId],
    ['AFFILIATE', c.affiliateId ?? '-'],
    ['SOURCE', c.sourceIdentifier ?? '-'],
    ['LOCK WINDOW', `${c.lockWindowHours} h`],
    ['EVENTS', events(c)],
    ['COARSE', `low ${band(c, 'low')}, medium ${band(c, 'medium')}, high ${band(c, 'high')}`],
    ['UPDATED', when(c.updatedAt, tty)],
  ]
}

const bands = (b: { low: number; medium: number; high: number }) =>
  `low ${b.low}, medium ${b.medium}, high ${b.high}`

export function reportFields(r: CampaignReport): Field[] {
  return [
    ['POSTBACKS', `${r.postbacks} (${r.verified} verified, ${percent(r.verifiedShare * 100, 1)})`],
    ...r.byWindow.map((w): Field => [
      `DAYS ${w.window}`,
      `${w.verified} verified of ${w.postbacks}; ${bands(w.coarse)}`,
    ]),
    ['INSTALLS', `${r.installs} (${plural(r.redownloads, 'redownload')})`],
    [
      'EVENTS',
      Object.entries(r.events)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ') || '-',
    ],
    ['COARSE', bands(r.coarse)],
    ['EST. REVENUE', r.estimatedRevenue],
  ]
}

export interface CampaignFlags {
  name?: string
  adNetwork?: string
  affiliate?: string
  sourceId?: string
  lockWindow?: number
  schema?: string
}

/** The campaign's fields named otherwise than their flags, for a refusal (`adNetworkId` → `--ad-network`). */
export const CAMPAIGN_FLAGS = {
  adNetworkId: '--ad-network',
  affiliateId: '--affiliate',
  sourceIdentifier: '--source-id',
  lockWindowHours: '--lock-window',
}

/** The flags create and update share (name, ad network and lock window required on create). */
export function campaignOptions(cmd: Command, required = false): Command {
  const opt = (flags: string, description: string) =>
    required ? new Option(flags, description).makeOptionMandatory() : new Option(flags, description)
  return cmd
    .addOption(opt('--name <name>', 'campaign name'))
    .addOption(opt('--ad-network <id>', 'the ad network id, <name>.skadnetwork (lower-case)'))
    .option('--affiliate <id>', 'affiliate id')
    .option('--source-id <digits>', "2-4 digits: the postbacks' source-identifier (campaign-id before 4.0)")
    .addOption(
      opt(
        '--lock-window <hours>',
        `lock window in hours (${SKAN_LIMITS.lockWindowMin}-${SKAN_LIMITS.lockWindowMax})`,
      ).argParser(intArg(SKAN_LIMITS.lockWindowMin, SKAN_LIMITS.lockWindowMax)),
    )
    .option('--schema <file>', 'conversion schema JSON file ({"events": {...}, "coarseValues": …})')
}

/** The conversion schema in a JSON file (usage error when unreadable or not JSON). */
export async function schemaFile(path: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    throw readFailure(`--schema ${path}`, err)
  }
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch (err) {
    throw new UsageError(`--schema ${path} is not JSON: ${(err as Error).message}`)
  }
}
