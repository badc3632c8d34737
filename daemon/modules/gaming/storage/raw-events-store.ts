import type { Kysely } from 'kysely'
import { EXPORT_PAGE_ROWS, type ArrayRows } from '../../../db/array-rows.js'
import type { Database } from '../../../db/schema.js'
import { timePages } from '../../../db/time-pages.js'
import { RAW_EVENT_COLUMNS } from '../../../../src/contract/raw-columns.js'

/**
 * One stored raw event as the raw export writes it: its cells in the order of RAW_EVENT_COLUMNS
 * (eventId, type, playerId, sessionId, ts in Unix ms, platform, country, data as JSON text).
 */
export type RawEventRow = Array<string | number | null>

/** The raw event rows of a game, read for the raw export. */
export interface RawEventsStore {
  /** The events with from ≤ ts < to, by time, in pages of up to about `pageSize` (index game_events_time). */
  pages(gameId: string, from: number, to: number, pageSize?: number): AsyncGenerator<RawEventRow[]>
}

/** The stored column of each export column. */
const SOURCE = {
  eventId: 'event_id',
  type: 'event_type',
  playerId: 'player_id',
  sessionId: 'session_id',
  ts: 'ts',
  platform: 'platform',
  country: 'country',
  data: 'data',
} as const
const TS = RAW_EVENT_COLUMNS.indexOf('ts')

export function createRawEventsStore(db: Kysely<Database>, arrays: ArrayRows): RawEventsStore {
  const base = (gameId: string) =>
    db
      .selectFrom('game_events')
      .select(RAW_EVENT_COLUMNS.map((c) => SOURCE[c]))
      .where('game_id', '=', gameId)
  const read = async (query: { compile(): Parameters<ArrayRows>[0] }) =>
    (await arrays(query.compile())) as RawEventRow[]
  return {
    pages(gameId, from, to, pageSize = EXPORT_PAGE_ROWS) {
      return timePages<RawEventRow>(
        {
          after: (after, before, limit) =>
            read(base(gameId).where('ts', '>', after).where('ts', '<', before).orderBy('ts').limit(limit)),
          at: (ts) => read(base(gameId).where('ts', '=', ts)),
          timeOf: (r) => r[TS] as number,
        },
        from,
        to,
        pageSize,
      )
    },
  }
}
