import type { Kysely, SelectQueryBuilder } from 'kysely'
import type { Database, GameEventsTable, GamePlayersTable } from '../../../db/schema.js'

/** Filters of the players explorer (money in micro-units, days as UTC day numbers). */
export interface PlayerFilter {
  /** Player id prefix. */
  search?: string | undefined
  platform?: string | undefined
  country?: string | undefined
  /** Lifetime revenue at least / below (micro-units). */
  minRevenue?: number | undefined
  belowRevenue?: number | undefined
  /** Lifetime revenue exactly 0 (free players). */
  free?: boolean | undefined
  lastActiveFromDay?: number | undefined
  lastActiveToDay?: number | undefined
}

export type PlayerSort = 'revenue' | 'sessions' | 'lastActive'

/**
 * One installed player's first conversion window (SKAN): the install day and days 1 and 2 after
 * it. `eventTypes` is the union of the days' event type bit sets (bit i = NAMED_EVENT_TYPES[i],
 * bit 20 = any custom type).
 */
export interface FirstWindow {
  installDay: number
  revenueMicros: number
  eventTypes: number
}

/** Days after the install day in the first SKAN conversion window (days 0-2). */
export const FIRST_WINDOW_LAST_DAY = 2

/** A players explorer row as stored. */
export interface PlayerRow {
  playerId: string
  sessions: number
  revenueMicros: number
  lastActiveAt: number
  platform: string
  country: string | null
}

/** One of a player's own raw events, as stored. */
export type PlayerEventRow = Pick<
  GameEventsTable,
  | 'event_id'
  | 'event_type'
  | 'ts'
  | 'session_id'
  | 'platform'
  | 'revenue_type'
  | 'revenue_micros'
  | 'verdict'
  | 'data'
>

/** Reads of the player profiles (layer 3) and of one player's own newest events. */
export interface PlayersStore {
  /** Whether the game ever had a player (GDPR purges do not change it). */
  hasPlayers(gameId: string): Promise<boolean>
  /** The number of player profiles of the game. */
  total(gameId: string): Promise<number>
  /** Players and their lifetime revenue with revenue in [from, below) (below null: no upper bound). */
  revenueBand(
    gameId: string,
    from: number,
    below: number | null,
  ): Promise<{ players: number; revenueMicros: number }>
  /** One page of the explorer and the number of players matching the filter. */
  page(
    gameId: string,
    filter: PlayerFilter,
    sort: PlayerSort,
    order: 'asc' | 'desc',
    page: { offset: number; limit: number },
  ): Promise<{ rows: PlayerRow[]; total: number }>
  /** Every player matching the filter, by player id, in keyset pages (the export's player rows). */
  stream(gameId: string, filter: PlayerFilter, pageSize?: number): AsyncGenerator<PlayerRow>
  /** First conversion windows of the players installed on [fromDay (null: the first), toDay], by day. */
  firstWindows(gameId: string, fromDay: number | null, toDay: number): AsyncGenerator<FirstWindow[]>
  /**
   * The players of `gameIds` attributed to a link with an install day in [fromDay, toDay], per
   * game, and their revenue (micro-units) on the days of that range.
   */
  linkInstalls(
    gameIds: readonly string[],
    linkId: string,
    fromDay: number,
    toDay: number,
  ): Promise<Array<{ gameId: string; installs: number; revenueMicros: number }>>
  /** The click ids of the installs linkInstalls counts (same games, link and install days). */
  linkInstallClicks(
    gameIds: readonly string[],
    linkId: string,
    fromDay: number,
    toDay: number,
  ): Promise<string[]>
  /** The whole profile of one player. */
  profile(gameId: string, playerId: string): Promise<GamePlayersTable | undefined>
  /** The player's raw events, newest first, and their count. */
  events(
    gameId: string,
    playerId: string,
    page: { offset: number; limit: number },
  ): Promise<{ rows: PlayerEventRow[]; total: number }>
}

const SORT_COLUMN = {
  revenue: 'revenue_total_micros',
  sessions: 'session_count',
  lastActive: 'last_active_at',
} as const

/** The smallest string above every string starting with `prefix`. */
const prefixEnd = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)

type Players = SelectQueryBuilder<Database, 'game_players', object>

function filtered(db: Kysely<Database>, gameId: string, f: PlayerFilter): Players {
  let q: Players = db.selectFrom('game_players').where('game_id', '=', gameId)
  // A prefix as a key range (portable, uses the primary key; LIKE would need escaping).
  if (f.search) q = q.where('player_id', '>=', f.search).where('player_id', '<', prefixEnd(f.search))
  if (f.platform) q = q.where('platform', '=', f.platform)
  if (f.country) q = q.where('country', '=', f.country)
  if (f.minRevenue !== undefined) q = q.where('revenue_total_micros', '>=', f.minRevenue)
  if (f.belowRevenue !== undefined) q = q.where('revenue_total_micros', '<', f.belowRevenue)
  if (f.free) q = q.where('revenue_total_micros', '=', 0)
  if (f.lastActiveFromDay !== undefined) q = q.where('last_active_day', '>=', f.lastActiveFromDay)
  if (f.lastActiveToDay !== undefined) q = q.where('last_active_day', '<=', f.lastActiveToDay)
  return q
}

const toRow = (r: {
  player_id: string
  session_count: number
  revenue_total_micros: number
  last_active_at: number
  platform: string
  country: string | null
}): PlayerRow => ({
  playerId: r.player_id,
  sessions: Number(r.session_count),
  revenueMicros: Number(r.revenue_total_micros),
  lastActiveAt: Number(r.last_active_at),
  platform: r.platform,
  country: r.country,
})

const ROW_COLUMNS = [
  'player_id',
  'session_count',
  'revenue_total_micros',
  'last_active_at',
  'platform',
  'country',
] as const

/** The players explorer, segments, export and SKAN history reads on game_players and game_player_days. */
export function createPlayersStore(db: Kysely<Database>): PlayersStore {
  /** The number of player profiles of the game (a counter kept by the store and the purge). */
  async function total(gameId: string): Promise<number> {
    const r = await db
      .selectFrom('game_player_totals')
      .select('players')
      .where('game_id', '=', gameId)
      .executeTakeFirst()
    return Number(r?.players ?? 0)
  }
  return {
    /**
     * Whether the game ever had a player: its counter row exists from the first stored profile on
     * and outlives GDPR purges (the aggregates keep an erased player's amounts).
     */
    async hasPlayers(gameId: string): Promise<boolean> {
      const r = await db
        .selectFrom('game_player_totals')
        .select('game_id')
        .where('game_id', '=', gameId)
        .executeTakeFirst()
      return r !== undefined
    },

    total,

    async linkInstalls(gameIds: readonly string[], linkId: string, fromDay: number, toDay: number) {
      if (gameIds.length === 0) return []
      const players = await db
        .selectFrom('game_players')
        .select((eb) => ['game_id', eb.fn.countAll<number>().as('installs')])
        .where('link_id', '=', linkId)
        .where('game_id', 'in', [...gameIds])
        .where('install_day', '>=', fromDay)
        .where('install_day', '<=', toDay)
        .groupBy('game_id')
        .execute()
      const revenue = await db
        .selectFrom('game_player_days as d')
        .innerJoin('game_players as p', (j) =>
          j.onRef('p.game_id', '=', 'd.game_id').onRef('p.player_id', '=', 'd.player_id'),
        )
        .select((eb) => ['p.game_id', eb.fn.sum<number>('d.revenue_micros').as('revenue')])
        .where('p.link_id', '=', linkId)
        .where('p.game_id', 'in', [...gameIds])
        .where('p.install_day', '>=', fromDay)
        .where('p.install_day', '<=', toDay)
        .where('d.day', '>=', fromDay)
        .where('d.day', '<=', toDay)
        .groupBy('p.game_id')
        .execute()
      const revenueOf = new Map(revenue.map((r) => [r.game_id, Number(r.revenue ?? 0)]))
      return players.map((r) => ({
        gameId: r.game_id,
        installs: Number(r.installs),
        revenueMicros: revenueOf.get(r.game_id) ?? 0,
      }))
    },

    async linkInstallClicks(gameIds: readonly string[], linkId: string, fromDay: number, toDay: number) {
      if (gameIds.length === 0) return []
      const rows = await db
        .selectFrom('game_players')
        .select('click_id')
        .where('link_id', '=', linkId)
        .where('game_id', 'in', [...gameIds])
        .where('install_day', '>=', fromDay)
        .where('install_day', '<=', toDay)
        .where('click_id', 'is not', null)
        .execute()
      return rows.flatMap((r) => (r.click_id === null ? [] : [r.click_id]))
    },

    async revenueBand(gameId: string, from: number, below: number | null) {
      let q = db
        .selectFrom('game_players')
        // Summed as floating point: any number of players, each up to the money ceiling, stays
        // finite (SQLite's integer SUM throws on an overflow).
        .select((eb) => [
          eb.fn.countAll<number>().as('n'),
          eb.fn.sum<number>(eb.cast('revenue_total_micros', 'double precision')).as('r'),
        ])
        .where('game_id', '=', gameId)
        .where('revenue_total_micros', '>=', from)
      if (below !== null) q = q.where('revenue_total_micros', '<', below)
      const r = await q.executeTakeFirst()
      return { players: Number(r?.n ?? 0), revenueMicros: Number(r?.r ?? 0) }
    },

    async page(
      gameId: string,
      f: PlayerFilter,
      sort: PlayerSort,
      order: 'asc' | 'desc',
      page: { offset: number; limit: number },
    ): Promise<{ rows: PlayerRow[]; total: number }> {
      const base = filtered(db, gameId, f)
      const unfiltered = Object.values(f).every((v) => v === undefined)
      const [rows, count] = await Promise.all([
        base
          .select(ROW_COLUMNS)
          .orderBy(SORT_COLUMN[sort], order)
          .orderBy('player_id', order)
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        unfiltered
          ? total(gameId)
          : base
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
              .then((r) => Number(r.n)),
      ])
      return { rows: rows.map(toRow), total: count }
    },

    /**
     * Every player matching the filter, by player id, in keyset pages of `pageSize` (constant
     * memory whatever the number of players): the export's source of player rows.
     */
    async *stream(gameId: string, f: PlayerFilter, pageSize = 5000): AsyncGenerator<PlayerRow> {
      let after: string | null = null
      for (;;) {
        let q = filtered(db, gameId, f).select(ROW_COLUMNS)
        if (after !== null) q = q.where('player_id', '>', after)
        const rows = await q.orderBy('player_id').limit(pageSize).execute()
        for (const r of rows) yield toRow(r)
        if (rows.length < pageSize) return
        after = rows[rows.length - 1]!.player_id
      }
    },

    /**
     * The first conversion window of every player installed on a day of [fromDay, toDay], one
     * install day per query (the cohort index (game_id, install_day, day) reads exactly those
     * rows) and one page per install day, so memory holds one day's installs at most. A player
     * whose install day row is gone (compacted away) is left out: the rest of the window would
     * understate it.
     */
    async *firstWindows(
      gameId: string,
      fromDay: number | null,
      toDay: number,
    ): AsyncGenerator<FirstWindow[]> {
      let day = fromDay
      if (day === null) {
        const first = await db
          .selectFrom('game_player_days')
          .select((eb) => eb.fn.min<number>('install_day').as('d'))
          .where('game_id', '=', gameId)
          .executeTakeFirst()
        if (first?.d === null || first?.d === undefined) return
        day = Number(first.d)
      }
      for (; day <= toDay; day++) {
        const rows = await db
          .selectFrom('game_player_days')
          .select(['player_id', 'day', 'revenue_micros', 'event_types'])
          .where('game_id', '=', gameId)
          .where('install_day', '=', day)
          .where('day', '<=', day + FIRST_WINDOW_LAST_DAY)
          .orderBy('player_id')
          .orderBy('day')
          .execute()
        const page: FirstWindow[] = []
        let player: string | null = null
        let current: FirstWindow | null = null
        for (const row of rows) {
          if (row.player_id !== player) {
            player = row.player_id
            current = Number(row.day) === day ? { installDay: day, revenueMicros: 0, eventTypes: 0 } : null
            if (current) page.push(current)
          }
          if (!current) continue
          current.revenueMicros += Number(row.revenue_micros)
          current.eventTypes |= Number(row.event_types)
        }
        if (page.length > 0) yield page
      }
    },

    async profile(gameId: string, playerId: string) {
      return db
        .selectFrom('game_players')
        .selectAll()
        .where('game_id', '=', gameId)
        .where('player_id', '=', playerId)
        .executeTakeFirst()
    },

    /** The player's raw events, newest first (the (game_id, player_id, ts) index), and their count. */
    async events(gameId: string, playerId: string, page: { offset: number; limit: number }) {
      const base = db
        .selectFrom('game_events')
        .where('game_id', '=', gameId)
        .where('player_id', '=', playerId)
      const [rows, count] = await Promise.all([
        base
          .select([
            'event_id',
            'event_type',
            'ts',
            'session_id',
            'platform',
            'revenue_type',
            'revenue_micros',
            'verdict',
            'data',
          ])
          .orderBy('ts', 'desc')
          .orderBy('event_id', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows, total: Number(count.n) }
    },
  }
}
