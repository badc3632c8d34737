/**
 * Raw events (game_events): the batch's events in time order, without those stored before or
 * repeated within the batch; flagged counts the events kept.
 */
import type { AcceptedEvent, Snapshot } from '../types.js'

export interface FreshEvents {
  /** In time order, so that sessions, first-seen and neighbours follow the players' history. */
  fresh: AcceptedEvent[]
  duplicates: number
  flagged: number
}

export function freshEvents(snapshot: Snapshot, accepted: readonly AcceptedEvent[]): FreshEvents {
  const events = [...accepted].sort((a, b) => a.event.ts - b.event.ts)
  const seen = new Set<string>()
  const fresh: AcceptedEvent[] = []
  let duplicates = 0
  let flagged = 0
  for (const j of events) {
    const id = j.event.eventId
    if (snapshot.storedEventIds.has(id) || seen.has(id)) duplicates++
    else {
      seen.add(id)
      if (j.verdict === 'flag') flagged++
      fresh.push(j)
    }
  }
  return { fresh, duplicates, flagged }
}
