/**
 * The raw events export: every stored event of a game over a range of UTC days, page by page from
 * the raw layer (kept `rawRetentionDays`; older days export no rows), with `data` as JSON text.
 */
import { DAY_MS } from '../../../clock.js'
import { rawColumns, type RawRows } from '../../../raw-export.js'
import { RAW_EVENT_COLUMNS } from '../../../../src/contract/raw-export.js'
import type { RawEventsStore } from '../storage/index.js'

const COLUMNS = rawColumns(RAW_EVENT_COLUMNS, {
  eventId: { nullable: false },
  type: { nullable: false },
  playerId: { nullable: false },
  ts: { kind: 'timestamp', nullable: false },
  platform: { nullable: false },
})

/** The raw events of a game on the UTC days [start, end] (day numbers). */
export function rawEventRows(store: RawEventsStore, gameId: string, start: number, end: number): RawRows {
  return { columns: COLUMNS, pages: store.pages(gameId, start * DAY_MS, (end + 1) * DAY_MS) }
}
