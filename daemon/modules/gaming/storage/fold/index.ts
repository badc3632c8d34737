/**
 * The fold: a PURE function from a batch's snapshot and accepted events to the layer changes the
 * store writes (no database, clock or randomness). One pass over the events; each goes through the
 * layers in order: players, player-days, daily counters, money, acquisition, sessions.
 */
import type { AcceptedEvent, Changes, Snapshot } from '../types.js'
import { acquisitionChanges, addCostAndCommission } from './acquisition.js'
import { cohortEventChanges } from './cohort-events.js'
import { countEvent, dailyChanges } from './daily.js'
import { freshEvents } from './events.js'
import { gapChanges } from './gaps.js'
import { foldRevenue } from './money.js'
import { playerDayWrites, foldPlayerDay } from './player-days.js'
import { foldPlayer, profileWrites } from './players.js'
import { foldSession, sessionWrites } from './sessions.js'
import { createFoldState } from './state.js'

export { countryKind } from './players.js'
export { sessionSeconds } from './sessions.js'

/**
 * Folds a batch's accepted events into layer changes. `newSessionId(ts)` names a new session
 * (ids start with the start time so that inserts append to the primary key).
 */
export function fold(
  snapshot: Snapshot,
  accepted: readonly AcceptedEvent[],
  newSessionId: (startedAt: number) => string,
): Changes {
  const { fresh, duplicates, flagged } = freshEvents(snapshot, accepted)
  const st = createFoldState(
    snapshot,
    newSessionId,
    fresh.map((f) => f.event),
  )
  for (const { event, verdict } of fresh) {
    const profile = foldPlayer(st, event)
    const day = foldPlayerDay(st, profile, event)
    countEvent(st, profile, day, event, verdict)
    foldRevenue(st, profile, day, event)
    addCostAndCommission(st, profile, event)
    foldSession(st, profile, event)
  }
  const { daily, dims } = dailyChanges(st)
  const { gaps, cohorts, cohortDims } = gapChanges(st)
  return {
    newEvents: fresh,
    stored: fresh.length,
    duplicates,
    flagged,
    profiles: profileWrites(st),
    installDayMoves: [...st.installMoves].map(([playerId, installDay]) => ({ playerId, installDay })),
    playerDays: playerDayWrites(st),
    sessions: sessionWrites(st),
    daily,
    dims,
    gaps,
    cohorts,
    cohortDims,
    cohortEvents: cohortEventChanges(st),
    ...acquisitionChanges(st),
  }
}
