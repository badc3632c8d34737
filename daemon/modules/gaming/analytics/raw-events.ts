/**
 * The raw events export: every stored event of a game over a range of UTC days, page by page from
 * the raw layer (kept `rawRetentionDays`; older days export no rows), with `data` as JSON text.
 */
import { DAY_MS } from '../../../clock.js'
import type { RawColumn, RawRows } from '../../../raw-export.js'
import type { RawEventsStore } from '../storage/index.js'

export const RAW_EVENT_COLUMNS: readonly RawColumn[] = [
  { name: 'eventId', kind: 'string', nullable: false },
  { name: 'type', kind: 'string', nullable: false },
  { name: 'playerId', kind: 'string', nullable: false },
  { name: 'sessionId', kind: 'string', nullable: true },
  { name: 'ts', kind: 'timestamp', nullable: false },
  { name: 'platform', kind: 'string', nullable: false },
  { name: 'country', kind: 'string', nullable: true },
  { name: 'data', kind: 'string', nullable: true },
]

/** The raw events of a game on the UTC days [start, end] (day numbers). */
export function rawEventRows(store: RawEventsStore, gameId: string, start: number, end: number): RawRows {
  return { columns: RAW_EVENT_COLUMNS, pages: store.pages(gameId, start * DAY_MS, (end + 1) * DAY_MS) }
}
