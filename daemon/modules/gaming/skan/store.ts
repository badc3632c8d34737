import type { Kysely, Selectable } from 'kysely'
import type { Database, SkanCampaignsTable, SkanPostbacksTable } from '../../../db/schema.js'
import type { CoarseBand, ConversionSchema } from '../../../../src/contract/skan.js'
import { chunked } from '../../../db/chunked.js'

/** Rows a retention delete removes at a time (bounded: the single writer is never held long). */
const CHUNK = 5_000
/** Held postbacks a trim deletes at a time. */
const TRIM_CHUNK = 500

/** The columns a report groups a campaign's postbacks by. */
const GROUP_COLUMNS = [
  'verified',
  'sequence_index',
  'did_win',
  'redownload',
  'fine_value',
  'coarse_value',
  'events',
] as const

export interface CampaignRecord {
  id: string
  organizationId: string
  /** Internal game id (gam_…). */
  gameId: string
  /** The game's slug (its API id). */
  gameSlug: string
  name: string
  adNetworkId: string
  affiliateId: string | null
  sourceIdentifier: string | null
  lockWindowHours: number
  conversionSchema: ConversionSchema
  createdAt: number
  updatedAt: number
  /**
   * When the campaign took its (ad network, source identifier) pair: at creation, again whenever
   * the pair changes. On the shared domain the oldest claim of a pair decides.
   */
  claimedAt: number
}

export interface PostbackRecord {
  id: string
  campaignId: string | null
  gameId: string | null
  receivedAt: number
  version: string
  verified: boolean
  transactionId: string
  sequenceIndex: number
  adNetworkId: string
  sourceIdentifier: string
  appId: number
  didWin: boolean
  redownload: boolean
  fineValue: number | null
  coarseValue: CoarseBand | null
  events: string[]
  /** Apple's fields as posted (JSON text), nothing else. */
  payload: string
}

/** Whether anyone could have posted it (unverified, or matched to no campaign): kept within caps. */
export const isHeld = (p: Pick<PostbackRecord, 'verified' | 'campaignId'>) =>
  !p.verified || p.campaignId === null

/** One group of a campaign's postbacks with the same figures (the report's input). */
export interface PostbackGroup {
  verified: boolean
  sequenceIndex: number
  didWin: boolean
  redownload: boolean
  fineValue: number | null
  coarseValue: CoarseBand | null
  events: string[]
  count: number
}

const toCampaign = (r: Selectable<SkanCampaignsTable>): CampaignRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  gameId: r.game_id,
  gameSlug: r.game_slug,
  name: r.name,
  adNetworkId: r.ad_network_id,
  affiliateId: r.affiliate_id,
  sourceIdentifier: r.source_identifier,
  lockWindowHours: r.lock_window_hours,
  conversionSchema: JSON.parse(r.conversion_schema) as ConversionSchema,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  claimedAt: Number(r.claimed_at),
})

const campaignRow = (c: CampaignRecord) => ({
  id: c.id,
  organization_id: c.organizationId,
  game_id: c.gameId,
  game_slug: c.gameSlug,
  name: c.name,
  ad_network_id: c.adNetworkId,
  affiliate_id: c.affiliateId,
  source_identifier: c.sourceIdentifier,
  lock_window_hours: c.lockWindowHours,
  conversion_schema: JSON.stringify(c.conversionSchema),
  created_at: c.createdAt,
  updated_at: c.updatedAt,
  claimed_at: c.claimedAt,
})

const toPostback = (r: Selectable<SkanPostbacksTable>): PostbackRecord => ({
  id: r.id,
  campaignId: r.campaign_id,
  gameId: r.game_id,
  receivedAt: Number(r.received_at),
  version: r.version,
  verified: r.verified === 1,
  transactionId: r.transaction_id,
  sequenceIndex: r.sequence_index,
  adNetworkId: r.ad_network_id,
  sourceIdentifier: r.source_identifier,
  appId: Number(r.app_id),
  didWin: r.did_win === 1,
  redownload: r.redownload === 1,
  fineValue: r.fine_value,
  coarseValue: r.coarse_value as CoarseBand | null,
  events: JSON.parse(r.events) as string[],
  payload: r.payload,
})

const postbackRow = (p: PostbackRecord) => ({
  id: p.id,
  campaign_id: p.campaignId,
  game_id: p.gameId,
  received_at: p.receivedAt,
  version: p.version,
  verified: p.verified ? 1 : 0,
  transaction_id: p.transactionId,
  sequence_index: p.sequenceIndex,
  ad_network_id: p.adNetworkId,
  source_identifier: p.sourceIdentifier,
  app_id: p.appId,
  did_win: p.didWin ? 1 : 0,
  redownload: p.redownload ? 1 : 0,
  fine_value: p.fineValue,
  coarse_value: p.coarseValue,
  events: JSON.stringify(p.events),
  payload: p.payload,
  held: isHeld(p) ? 1 : 0,
  stored_bytes: Buffer.byteLength(p.payload),
})

/** SKAN campaigns and postbacks (SQL of the skan module). */
export function createSkanStore(db: Kysely<Database>) {
  const byDedupeKey = (transactionId: string, sequenceIndex: number) =>
    db
      .selectFrom('skan_postbacks')
      .selectAll()
      .where('transaction_id', '=', transactionId)
      .where('sequence_index', '=', sequenceIndex)
      .executeTakeFirst()

  /** The campaigns whose column equals the value, oldest first. */
  const campaignsWhere = async (
    column: 'game_id' | 'ad_network_id',
    value: string,
  ): Promise<CampaignRecord[]> => {
    const rows = await db
      .selectFrom('skan_campaigns')
      .selectAll()
      .where(column, '=', value)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute()
    return rows.map(toCampaign)
  }

  return {
    /** A game's campaigns, oldest first. */
    campaigns: (gameId: string) => campaignsWhere('game_id', gameId),
    /** A page of a game's campaigns, oldest first, and how many it has. */
    async campaignsPage(
      gameId: string,
      page: { offset: number; limit: number },
    ): Promise<{ rows: CampaignRecord[]; total: number }> {
      const rows = await db
        .selectFrom('skan_campaigns')
        .selectAll()
        .where('game_id', '=', gameId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .offset(page.offset)
        .limit(page.limit)
        .execute()
      const count = await db
        .selectFrom('skan_campaigns')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('game_id', '=', gameId)
        .executeTakeFirst()
      return { rows: rows.map(toCampaign), total: Number(count?.n ?? 0) }
    },
    async campaign(organizationId: string, id: string): Promise<CampaignRecord | undefined> {
      const r = await db
        .selectFrom('skan_campaigns')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return r && toCampaign(r)
    },
    /** How many campaigns a game has. */
    async countCampaigns(gameId: string): Promise<number> {
      const r = await db
        .selectFrom('skan_campaigns')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('game_id', '=', gameId)
        .executeTakeFirst()
      return Number(r?.n ?? 0)
    },
    /** Every campaign of an ad network (postback matching, across organizations). */
    campaignsOfNetwork: (adNetworkId: string) => campaignsWhere('ad_network_id', adNetworkId),
    async insertCampaign(c: CampaignRecord): Promise<void> {
      await db.insertInto('skan_campaigns').values(campaignRow(c)).execute()
    },
    async saveCampaign(c: CampaignRecord): Promise<void> {
      const { id: _id, organization_id: _org, game_id: _game, game_slug: _slug, ...row } = campaignRow(c)
      await db.updateTable('skan_campaigns').set(row).where('id', '=', c.id).execute()
    },

    /**
     * Stores a postback unless one with its (transaction-id, sequence index) is there: then
     * nothing is written and that first one is returned with `stored: false`.
     */
    async insertPostback(p: PostbackRecord): Promise<{ stored: boolean; postback: PostbackRecord }> {
      const r = await db
        .insertInto('skan_postbacks')
        .values(postbackRow(p))
        .onConflict((oc) => oc.columns(['transaction_id', 'sequence_index']).doNothing())
        .executeTakeFirst()
      if (Number(r.numInsertedOrUpdatedRows ?? 0) > 0) return { stored: true, postback: p }
      const first = await byDedupeKey(p.transactionId, p.sequenceIndex)
      if (!first) throw new Error('postback dedupe row vanished')
      return { stored: false, postback: toPostback(first) }
    },
    /** Replaces a stored unverified postback with a verified copy (same id and receipt time). */
    async replacePostback(p: PostbackRecord): Promise<void> {
      const { id: _id, received_at: _at, ...row } = postbackRow(p)
      await db.updateTable('skan_postbacks').set(row).where('id', '=', p.id).execute()
    },

    /**
     * Drops the oldest held postbacks (unverified or unmatched) until at most `maxRows` of them
     * and `maxBytes` of their stored JSON remain; how many were dropped.
     */
    async trimHeld(maxRows: number, maxBytes: number): Promise<number> {
      const totals = await db
        .selectFrom('skan_postbacks')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>('stored_bytes').as('bytes')])
        .where('held', '=', 1)
        .executeTakeFirst()
      let rows = Number(totals?.n ?? 0) - maxRows
      let bytes = Number(totals?.bytes ?? 0) - maxBytes
      let dropped = 0
      while (rows > 0 || bytes > 0) {
        const oldest = await db
          .selectFrom('skan_postbacks')
          .select(['id', 'stored_bytes'])
          .where('held', '=', 1)
          .orderBy('received_at', 'asc')
          .orderBy('id', 'asc')
          .limit(TRIM_CHUNK)
          .execute()
        const ids: string[] = []
        for (const r of oldest) {
          if (rows <= 0 && bytes <= 0) break
          ids.push(r.id)
          rows--
          bytes -= Number(r.stored_bytes)
        }
        if (ids.length === 0) break
        const r = await db.deleteFrom('skan_postbacks').where('id', 'in', ids).executeTakeFirst()
        dropped += Number(r.numDeletedRows)
      }
      return dropped
    },

    /** A page of a campaign's postbacks, newest first, and the total. */
    async postbacks(
      campaignId: string,
      page: { offset: number; limit: number },
    ): Promise<{ rows: PostbackRecord[]; total: number }> {
      const rows = await db
        .selectFrom('skan_postbacks')
        .selectAll()
        .where('campaign_id', '=', campaignId)
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .offset(page.offset)
        .limit(page.limit)
        .execute()
      const count = await db
        .selectFrom('skan_postbacks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('campaign_id', '=', campaignId)
        .executeTakeFirst()
      return { rows: rows.map(toPostback), total: Number(count?.n ?? 0) }
    },

    /** A campaign's postbacks counted by every figure the report reads. */
    async postbackGroups(campaignId: string): Promise<PostbackGroup[]> {
      const rows = await db
        .selectFrom('skan_postbacks')
        .select(GROUP_COLUMNS)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('campaign_id', '=', campaignId)
        .groupBy(GROUP_COLUMNS)
        .orderBy('sequence_index')
        .execute()
      return rows.map((r) => ({
        verified: r.verified === 1,
        sequenceIndex: r.sequence_index,
        didWin: r.did_win === 1,
        redownload: r.redownload === 1,
        fineValue: r.fine_value,
        coarseValue: r.coarse_value as CoarseBand | null,
        events: JSON.parse(r.events) as string[],
        count: Number(r.n),
      }))
    },

    /**
     * Deletes a game's postbacks (`null`: the unmatched ones) received before `before`, in bounded
     * chunks; how many.
     */
    async deletePostbacksBefore(gameId: string | null, before: number): Promise<number> {
      return chunked(CHUNK, async () => {
        const ids = await db
          .selectFrom('skan_postbacks')
          .select('id')
          .where('game_id', gameId === null ? 'is' : '=', gameId)
          .where('received_at', '<', before)
          .limit(CHUNK)
          .execute()
        if (ids.length === 0) return 0
        const r = await db
          .deleteFrom('skan_postbacks')
          .where(
            'id',
            'in',
            ids.map((i) => i.id),
          )
          .executeTakeFirst()
        return Number(r.numDeletedRows)
      })
    },
  }
}
export type SkanStore = ReturnType<typeof createSkanStore>
