import type { Kysely, Selectable } from 'kysely'
import type { Database, GamesTable } from '../../../db/schema.js'
import type { GamePlatform, GameStatus } from '../../../../src/contract/limits.js'
import { newestFirstPage } from '../../../db/paginate.js'

/** A game as the services see it (times in Unix ms). */
export interface GameRecord {
  /** Internal id (gam_…): the key of every gaming table. */
  id: string
  organizationId: string
  slug: string
  name: string
  platform: GamePlatform
  status: GameStatus
  modules: { analytics: boolean; fraud: boolean; skan: boolean }
  rawRetentionDays: number
  compactedRetentionMonths: number
  hmacRequired: boolean
  replayWindowSeconds: number
  attributionWindowDays: number
  sdkKeyHash: string
  sdkKeyLastFour: string
  /** Sealed with the SecretBox. */
  signingSecret: string
  rawFloor: number
  compactedFloorDay: number
  /** ISO 4217 code every stored amount of the game is in. */
  reportingCurrency: string
  /** Segment thresholds on lifetime revenue, micro-units: whale >= whale, dolphin >= dolphin. */
  segments: { whaleMicros: number; dolphinMicros: number }
  createdAt: number
  updatedAt: number
}

const toRecord = (r: Selectable<GamesTable>): GameRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  slug: r.slug,
  name: r.name,
  platform: r.platform as GamePlatform,
  status: r.status as GameStatus,
  modules: {
    analytics: r.module_analytics === 1,
    fraud: r.module_fraud === 1,
    skan: r.module_skan === 1,
  },
  rawRetentionDays: r.raw_retention_days,
  compactedRetentionMonths: r.compacted_retention_months,
  hmacRequired: r.hmac_required === 1,
  replayWindowSeconds: r.replay_window_seconds,
  attributionWindowDays: r.attribution_window_days,
  sdkKeyHash: r.sdk_key_hash,
  sdkKeyLastFour: r.sdk_key_last_four,
  signingSecret: r.signing_secret,
  rawFloor: Number(r.raw_floor),
  compactedFloorDay: Number(r.compacted_floor_day),
  reportingCurrency: r.reporting_currency,
  segments: { whaleMicros: Number(r.whale_micros), dolphinMicros: Number(r.dolphin_micros) },
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

const toRow = (g: GameRecord) => ({
  id: g.id,
  organization_id: g.organizationId,
  slug: g.slug,
  name: g.name,
  platform: g.platform,
  status: g.status,
  module_analytics: g.modules.analytics ? 1 : 0,
  module_fraud: g.modules.fraud ? 1 : 0,
  module_skan: g.modules.skan ? 1 : 0,
  raw_retention_days: g.rawRetentionDays,
  compacted_retention_months: g.compactedRetentionMonths,
  hmac_required: g.hmacRequired ? 1 : 0,
  replay_window_seconds: g.replayWindowSeconds,
  attribution_window_days: g.attributionWindowDays,
  sdk_key_hash: g.sdkKeyHash,
  sdk_key_last_four: g.sdkKeyLastFour,
  signing_secret: g.signingSecret,
  raw_floor: g.rawFloor,
  compacted_floor_day: g.compactedFloorDay,
  reporting_currency: g.reportingCurrency,
  whale_micros: g.segments.whaleMicros,
  dolphin_micros: g.segments.dolphinMicros,
  created_at: g.createdAt,
  updated_at: g.updatedAt,
})

/** The games table: the port the game service depends on. */
export interface GameStore {
  insert(g: GameRecord): Promise<void>
  /** Saves every field that may change after creation. */
  save(g: GameRecord): Promise<void>
  bySlug(organizationId: string, slug: string): Promise<GameRecord | undefined>
  /** The organization's slugs starting with `base`. */
  slugsLike(organizationId: string, base: string): Promise<Set<string>>
  /** One page newest first and the total matching the filter. */
  list(
    organizationId: string,
    q: { status?: GameStatus | undefined; offset: number; limit: number },
  ): Promise<{ rows: GameRecord[]; total: number }>
  /** Every game, by id. */
  all(): Promise<GameRecord[]>
}

/** The SQLite (Kysely) implementation. */
export function createGameStore(db: Kysely<Database>): GameStore {
  return {
    async insert(g: GameRecord): Promise<void> {
      await db.insertInto('games').values(toRow(g)).execute()
    },
    async save(g: GameRecord): Promise<void> {
      const { id: _id, organization_id: _org, slug: _slug, platform: _p, created_at: _c, ...rest } = toRow(g)
      await db.updateTable('games').set(rest).where('id', '=', g.id).execute()
    },
    async bySlug(organizationId: string, slug: string): Promise<GameRecord | undefined> {
      const r = await db
        .selectFrom('games')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('slug', '=', slug)
        .executeTakeFirst()
      return r && toRecord(r)
    },
    async slugsLike(organizationId: string, base: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('games')
        .select('slug')
        .where('organization_id', '=', organizationId)
        .where('slug', 'like', `${base}%`)
        .execute()
      return new Set(rows.map((r) => r.slug))
    },
    async list(
      organizationId: string,
      q: { status?: GameStatus | undefined; offset: number; limit: number },
    ): Promise<{ rows: GameRecord[]; total: number }> {
      let base = db.selectFrom('games').where('organization_id', '=', organizationId)
      if (q.status) base = base.where('status', '=', q.status)
      const { rows, total } = await newestFirstPage(base, q)
      return { rows: rows.map(toRecord), total }
    },
    async all(): Promise<GameRecord[]> {
      return (await db.selectFrom('games').selectAll().orderBy('id').execute()).map(toRecord)
    },
  }
}
