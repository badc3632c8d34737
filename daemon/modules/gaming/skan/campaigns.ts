import type { Clock } from '../../../clock.js'
import { iso } from '../../../clock.js'
import { newId } from '../../../crypto.js'
import { AppError, notFound } from '../../../http/errors.js'
import { evaluate, type RateLimitStore } from '../../../http/rate-limit.js'
import { SKAN_LIMITS as L } from '../../../../src/contract/skan-limits.js'
import { pageOf, pageParams } from '../../../http/pagination.js'
import type { PageOf, PageQuery } from '../../../../src/contract/common.js'
import type {
  ConversionSchemaInput,
  CreateCampaignBody,
  SkanCampaign,
  UpdateCampaignBody,
} from '../../../../src/contract/skan.js'
import type { GameRecord, GameService } from '../games/index.js'
import { checkedSchema } from './conversion-schema.js'
import type { CampaignRecord, SkanStore } from './store.js'

export interface SkanCampaignDeps {
  store: SkanStore
  clock: Clock
  games: Pick<GameService, 'record'>
  /** The shared quota counters (one count for every linkd process on PostgreSQL). */
  limiter: Pick<RateLimitStore, 'hit'>
}

const HOUR_MS = 3_600_000

export function presentCampaign(c: CampaignRecord): SkanCampaign {
  return {
    id: c.id,
    gameId: c.gameSlug,
    name: c.name,
    adNetworkId: c.adNetworkId,
    ...(c.affiliateId !== null ? { affiliateId: c.affiliateId } : {}),
    ...(c.sourceIdentifier !== null ? { sourceIdentifier: c.sourceIdentifier } : {}),
    lockWindowHours: c.lockWindowHours,
    conversionSchema: c.conversionSchema,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  }
}

/** SKAN campaigns of games with modules.skan on: CRUD and the conversion schema's rules. */
export function createSkanCampaigns(deps: SkanCampaignDeps) {
  const { store } = deps
  const now = () => deps.clock.now()

  /** The game of a SKAN route: 404 in another organization, 409 while SKAN is off. */
  async function skanGame(organizationId: string, slug: string): Promise<GameRecord> {
    const game = await deps.games.record(organizationId, slug)
    if (!game.modules.skan)
      throw new AppError(
        'Conflict',
        `SKAN is off for game ${slug}: turn it on with linkctl games update ${slug} --skan ` +
          `(API: PATCH /api/v1/admin/games/${slug} with {"modules":{"skan":true}})`,
      )
    return game
  }

  /** A campaign of the organization whose game has SKAN on (404 / 409 otherwise). */
  async function loadCampaign(organizationId: string, campaignId: string): Promise<CampaignRecord> {
    const c = await store.campaign(organizationId, campaignId)
    if (!c) throw notFound(`SKAN campaign ${campaignId}`)
    await skanGame(organizationId, c.gameSlug)
    return c
  }

  async function save(c: CampaignRecord, schema: ConversionSchemaInput): Promise<CampaignRecord> {
    const next = { ...c, conversionSchema: checkedSchema(schema, c.lockWindowHours), updatedAt: now() }
    await store.saveCampaign(next)
    return next
  }

  return {
    skanGame,

    async list(organizationId: string, slug: string, q: PageQuery): Promise<PageOf<SkanCampaign>> {
      const game = await skanGame(organizationId, slug)
      const p = pageParams(q)
      const { rows, total } = await store.campaignsPage(game.id, { offset: p.offset, limit: p.perPage })
      return pageOf(rows.map(presentCampaign), total, p)
    },

    async create(organizationId: string, slug: string, body: CreateCampaignBody): Promise<SkanCampaign> {
      const game = await skanGame(organizationId, slug)
      const conversionSchema = checkedSchema(body.conversionSchema, body.lockWindowHours)
      // Each campaign claims an ad network and source identifier pair on the shared postback
      // domain: a bounded number a game, created at a bounded pace an organization.
      if ((await store.countCampaigns(game.id)) >= L.campaignsPerGame)
        throw new AppError(
          'Conflict',
          `game ${slug} has ${L.campaignsPerGame} SKAN campaigns, the most a game may have: change one instead`,
        )
      const t = now()
      const pace = evaluate(
        await deps.limiter.hit(`skan-create:${organizationId}`, HOUR_MS, t),
        L.campaignsPerHour,
        t,
      )
      if (pace.exceeded)
        throw new AppError(
          'RateLimitExceeded',
          `the organization created ${L.campaignsPerHour} SKAN campaigns this hour, the most an hour allows; retry after ${pace.retryAfter} s`,
          undefined,
          { 'retry-after': String(pace.retryAfter) },
        )
      const c: CampaignRecord = {
        id: newId('skan'),
        organizationId,
        gameId: game.id,
        gameSlug: game.slug,
        name: body.name.trim(),
        adNetworkId: body.adNetworkId,
        affiliateId: body.affiliateId?.trim() ?? null,
        sourceIdentifier: body.sourceIdentifier ?? null,
        lockWindowHours: body.lockWindowHours,
        conversionSchema,
        createdAt: t,
        updatedAt: t,
        claimedAt: t,
      }
      await store.insertCampaign(c)
      return presentCampaign(c)
    },

    /**
     * Changes a campaign; the result is validated as a whole (a new lockWindowHours must come with
     * a schema whose lockWindow equals it, or the stored schema's lockWindow follows it when the
     * body has no schema).
     */
    async update(
      organizationId: string,
      campaignId: string,
      body: UpdateCampaignBody,
    ): Promise<SkanCampaign> {
      const c = await loadCampaign(organizationId, campaignId)
      const lockWindowHours = body.lockWindowHours ?? c.lockWindowHours
      const next: CampaignRecord = {
        ...c,
        ...(body.name !== undefined ? { name: body.name.trim() } : {}),
        ...(body.adNetworkId !== undefined ? { adNetworkId: body.adNetworkId } : {}),
        ...(body.affiliateId !== undefined ? { affiliateId: body.affiliateId?.trim() ?? null } : {}),
        ...(body.sourceIdentifier !== undefined ? { sourceIdentifier: body.sourceIdentifier } : {}),
        lockWindowHours,
      }
      // A new pair is a new claim: an old campaign moved onto another's pair does not come first.
      if (next.adNetworkId !== c.adNetworkId || next.sourceIdentifier !== c.sourceIdentifier)
        next.claimedAt = now()
      const schema = body.conversionSchema ?? { ...c.conversionSchema, lockWindow: lockWindowHours }
      return presentCampaign(await save(next, schema))
    },

    /** A campaign with its internal game id (the optimizer's input). */
    campaign: loadCampaign,

    /** Replaces a campaign's conversion schema (the optimizer's apply), validated like a PATCH. */
    async replaceSchema(
      organizationId: string,
      campaignId: string,
      schema: ConversionSchemaInput,
    ): Promise<SkanCampaign> {
      return presentCampaign(await save(await loadCampaign(organizationId, campaignId), schema))
    },
  }
}
export type SkanCampaigns = ReturnType<typeof createSkanCampaigns>
