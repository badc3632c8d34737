/** Hand-built inputs of the fold's layer functions: events, snapshots, profiles and a fresh state. */
import {
  createFoldState,
  type FoldState,
  type LiveProfile,
} from '../../../../daemon/modules/gaming/storage/fold/state.js'
import {
  CUSTOM_BIT,
  NO_DAY,
  TYPE_BIT,
  type AcceptedEvent,
  type GameEvent,
  type ProfileRow,
  type Snapshot,
} from '../../../../daemon/modules/gaming/storage/types.js'

export const DAY = 86_400_000
export const MIN = 60_000
export const D = 20_400 // a UTC day number
export const T0 = D * DAY + 8 * 3_600_000 // 08:00 that day

let serial = 0
/** An event of player p1 in session 's' (a level_start unless said otherwise). */
export function ev(over: Partial<GameEvent> & { ts: number }): GameEvent {
  const type = over.type ?? 'level_start'
  const custom = !TYPE_BIT.has(type)
  return {
    eventId: `e${++serial}`,
    type,
    typeBit: custom ? CUSTOM_BIT : TYPE_BIT.get(type)!,
    custom,
    day: Math.floor(over.ts / DAY),
    playerId: 'p1',
    sessionId: 's',
    platform: 'ios',
    dataJson: null,
    revenueType: null,
    revenueMicros: 0,
    currency: null,
    costMicros: 0,
    commissionMicros: 0,
    country: null,
    deviceFingerprint: null,
    attribution: { affiliate: null, campaign: null, source: null, medium: null },
    ...over,
  }
}

export const accepted = (event: GameEvent, verdict: 'accept' | 'flag' = 'accept'): AcceptedEvent => ({
  event,
  verdict,
})

export function snapshot(over: Partial<Snapshot> = {}): Snapshot {
  return {
    storedEventIds: new Set(),
    profiles: new Map(),
    playerDays: new Map(),
    activeNeighbours: new Map(),
    payingNeighbours: new Map(),
    allDays: new Map(),
    sessionsBySid: new Map(),
    sessionsById: new Map(),
    typeDays: new Map(),
    ...over,
  }
}

/** A stored profile of p1: installed 3 days before D, last active the day before. */
export function profile(over: Partial<ProfileRow> = {}): ProfileRow {
  return {
    player_id: 'p1',
    first_seen_at: T0 - 3 * DAY,
    install_day: D - 3,
    last_active_at: T0 - DAY,
    last_active_day: D - 1,
    platform: 'ios',
    country: 'DE',
    device_fingerprint: 'fp-1',
    affiliate: null,
    campaign: null,
    source: null,
    medium: null,
    link_id: null,
    click_id: null,
    session_count: 2,
    event_count: 10,
    transactions: 0,
    revenue_iap_micros: 0,
    revenue_ad_micros: 0,
    revenue_subscription_micros: 0,
    revenue_total_micros: 0,
    first_purchase_at: null,
    current_session_id: null,
    ...over,
  }
}

/** The working profile of a stored row, as the players layer makes it. */
export const live = (row: ProfileRow, known = true): LiveProfile => ({
  ...row,
  known,
  loadedLastDay: known ? row.last_active_day : NO_DAY,
  dirty: false,
})

/** A fresh fold state over `snap`; new sessions are named new-<ts>-<n>. */
export function state(snap: Snapshot = snapshot()): FoldState {
  let n = 0
  return createFoldState(snap, (ts) => `new-${ts}-${++n}`)
}
