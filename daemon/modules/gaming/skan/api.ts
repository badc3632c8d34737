/** The skan module's interfaces, imported by its own files (other modules import its index.ts). */
import type { GameRecord } from '../games/index.js'
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
import type { CampaignRecord } from './store.js'
import type { Proposal } from './optimize.js'

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

export interface OptimizeResult extends Proposal {
  campaignId: string
  /** The game's reporting currency (every amount is in it). */
  currency: string
  applied: boolean
}
