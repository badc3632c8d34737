import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { timePages } from '../../../db/time-pages.js'

/** One stored raw event as the raw export writes it (`data`: the event's JSON text). */
export interface RawEventRow {
  [column: string]: string | number | null
  eventId: string
  type: string
  playerId: string
  sessionId: string | null
  ts: number
  platform: string
  country: string | null
  data: string | null
}

/** The raw event rows of a game, read for the raw export. */
export interface RawEventsStore {
  /** The events with from ≤ ts < to, by time, in pages of up to about `pageSize` (index game_events_time). */
  pages(gameId: string, from: number, to: number, pageSize?: number): AsyncGenerator<RawEventRow[]>
}

export function createRawEventsStore(db: Kysely<Database>): RawEventsStore {
  const base = (gameId: string) =>
    db
      .selectFrom('game_events')
      .select([
        'event_id as eventId',
        'event_type as type',
        'player_id as playerId',
        'session_id as sessionId',
        'ts',
        'platform',
        'country',
        'data',
      ])
      .where('game_id', '=', gameId)
  // PostgreSQL answers BIGINT as text.
  const row = (r: RawEventRow): RawEventRow => {
    r.ts = Number(r.ts)
    return r
  }
  return {
    pages(gameId, from, to, pageSize = 10_000) {
      return timePages<RawEventRow>(
        {
          after: async (after, before, limit) =>
            (
              await base(gameId)
                .where('ts', '>', after)
                .where('ts', '<', before)
                .orderBy('ts')
                .limit(limit)
                .execute()
            ).map(row),
          at: async (ts) => (await base(gameId).where('ts', '=', ts).execute()).map(row),
          timeOf: (r) => r.ts,
        },
        from,
        to,
        pageSize,
      )
    },
  }
}
