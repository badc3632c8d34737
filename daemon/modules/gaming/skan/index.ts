/** SKAN: campaigns and schemas, postbacks, reports, the optimizer (`skan_campaigns`, `skan_postbacks`). */
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { RateLimitStore } from '../../../http/rate-limit.js'
import type { GameRecord, GameService } from '../games/index.js'
import type { GamedataService } from '../storage/index.js'
import type { PageOf, PageQuery } from '../../../../src/contract/common.js'
import type {
  CampaignWithReport,
  ConversionSchemaInput,
  CreateCampaignBody,
  PostbackAnswer,
  SkanCampaign,
  SkanPostback,
  UpdateCampaignBody,
} from '../../../../src/contract/skan.js'
import type { Module } from '../../module.js'
import { optimizeRoutes } from './optimize-routes.js'
import { createOptimizeService, type OptimizeResult } from './optimize-service.js'
import { APPLE_SKAN_PUBLIC_KEY, publicKeyOf } from './postback.js'
import { skanRoutes } from './routes.js'
import { createSkanService } from './service.js'
import { createSkanStore, type CampaignRecord } from './store.js'

export type { OptimizeResult } from './optimize-service.js'

/** SKAN: campaigns, postbacks and reports (`service`), and the conversion-value optimizer. */
export function createSkan(deps: {
  db: Db
  clock: Clock
  log: FastifyBaseLogger
  games: GameService
  gamedata: GamedataService
  /** The shared quota counters (the organization's pace of campaign creation). */
  limiter: RateLimitStore
  /** Keys postback signatures verify against (SPKI DER, base64); default Apple's alone. */
  publicKeys?: string[]
  /** Caps of the postbacks anyone could have posted (unverified or unmatched). */
  held: { maxRows: number; maxBytes: number }
}): Skan {
  const { clock, games, gamedata, log } = deps
  const skan = createSkanService({
    store: createSkanStore(deps.db.kysely),
    clock,
    games,
    limiter: deps.limiter,
    publicKeys: (deps.publicKeys ?? [APPLE_SKAN_PUBLIC_KEY]).map(publicKeyOf),
    held: deps.held,
    onDropped(count, sinceStart) {
      log.warn(
        { dropped: count, droppedSinceStart: sinceStart },
        'SKAN: dropped the oldest unverified or unmatched postbacks (LINKD_SKAN_HELD_MAX / _BYTES)',
      )
    },
  })
  // Postbacks follow each game's compacted retention (unmatched ones the default retention).
  gamedata.addCompactedExpirer('skanPostbacks', (gameId, before) => skan.expirePostbacks(gameId, before))
  const optimizer = createOptimizeService({ campaigns: skan, games, history: gamedata })
  return { service: skan, optimizer }
}

/** The SKAN part as wired: campaigns, postbacks and reports, and the optimizer. */
export interface Skan {
  /** Campaigns, postbacks, reports and the postbacks' retention. */
  service: SkanService
  /** The conversion-value optimizer of a campaign. */
  optimizer: OptimizeService
}

/** A received postback's answer: 201 for a new one, 200 for a repeat (the first answer). */
export interface ReceivedPostback {
  status: 200 | 201
  answer: PostbackAnswer
}

/** SKAN campaigns of games with SKAN on, their postbacks and reports. */
export interface SkanService {
  /** The game of a SKAN route: 404 in another organization, 409 while SKAN is off. */
  skanGame(organizationId: string, slug: string): Promise<GameRecord>
  /** A page of the game's campaigns, oldest first. */
  list(organizationId: string, slug: string, q: PageQuery): Promise<PageOf<SkanCampaign>>
  /** Creates a campaign with its conversion schema (checked). */
  create(organizationId: string, slug: string, body: CreateCampaignBody): Promise<SkanCampaign>
  /** Changes a campaign; the result is checked as a whole (lockWindowHours and the schema agree). */
  update(organizationId: string, campaignId: string, body: UpdateCampaignBody): Promise<SkanCampaign>
  /** A campaign with its internal game id (the optimizer's input); 404 / 409 otherwise. */
  campaign(organizationId: string, campaignId: string): Promise<CampaignRecord>
  /** Replaces a campaign's conversion schema (the optimizer's apply), checked like a PATCH. */
  replaceSchema(
    organizationId: string,
    campaignId: string,
    schema: ConversionSchemaInput,
  ): Promise<SkanCampaign>
  /** Stores a postback, matched in the receiving domain's organization if any (`viewer`: the API key's). */
  receive(body: unknown, organizationId?: string, viewer?: string): Promise<ReceivedPostback>
  /** Held postbacks (unverified or unmatched) this process dropped since it started. */
  droppedPostbacks(): number
  /** A campaign with its report (verified postbacks only, except the totals that say so). */
  report(organizationId: string, campaignId: string): Promise<CampaignWithReport>
  /** A page of a campaign's postbacks, newest first. */
  postbacks(organizationId: string, campaignId: string, q: PageQuery): Promise<PageOf<SkanPostback>>
  /** Deletes a game's postbacks received before `before` (null: the unmatched ones); how many. */
  expirePostbacks(gameId: string | null, before: number): Promise<number>
}

/** The conversion-value optimizer: a proposal from the game's history, applied on request. */
export interface OptimizeService {
  /** A proposal from the game's history; with `apply` the campaign's schema becomes it. */
  optimize(organizationId: string, campaignId: string, options: { apply: boolean }): Promise<OptimizeResult>
}

export function skanModule(deps: {
  skan: SkanService
  optimizer: OptimizeService
  /** The organization of a verified custom domain (the domain directory). */
  organizationOfHost(host: string): string | undefined
  /** The organization of a presented API key holding skan:read, if any (never a 401). */
  organizationOfKey(raw: string | undefined): Promise<string | undefined>
}): Module {
  const campaigns = skanRoutes(deps)
  const optimize = optimizeRoutes(deps)
  return {
    name: 'gaming/skan',
    routes: async (app) => {
      await campaigns(app)
      await optimize(app)
    },
  }
}
