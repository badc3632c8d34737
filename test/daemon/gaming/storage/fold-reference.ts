// The pre-split fold (daemon/modules/gaming/storage/fold.ts before it became fold/), kept verbatim to
// prove the split changed nothing: fold-split.test.ts compares both on random batches. One change
// since: new player-day rows have `custom_events: null` (the column came later; the comparison
// leaves out what the fold counts since, see fold-split.test.ts).
/**
 * The fold of accepted events into the storage layers (docs/reference/gaming.md):
 * a PURE function from the rows a batch can touch (the snapshot, loaded by the store before the
 * fold) and the batch's events to the layer changes (written by the store after it). No database,
 * no clock, no randomness (session ids come from the caller), so every rule below is unit-tested
 * without SQLite (test/daemon/gaming/storage/fold.test.ts).
 *
 * Layers: 1 raw events, 2 sessions, 3 player profiles, 4 aggregates (player-days,
 * daily totals, daily dimensions, distinct-player gaps, cohorts). Counters are increments.
 */
import { INGEST_LIMITS } from '../../../../src/contract/limits.js'
import type { RevenueType } from '../../../../src/contract/limits.js'
import { NO_DAY, addMoney, pairKey } from '../../../../daemon/modules/gaming/storage/types.js'
import type {
  AcceptedEvent,
  Changes,
  DailyCounters,
  DimCounters,
  GapIncrement,
  Neighbours,
  PlayerDayRow,
  ProfileRow,
  SessionRow,
  Snapshot,
} from '../../../../daemon/modules/gaming/storage/types.js'
import { utcDayNumber } from '../../../../daemon/clock.js'

const GAP = INGEST_LIMITS.sessionGapMs

/** A session as the batch sees it: new, or read from the snapshot (and maybe changed). */
type LiveSession = SessionRow & { isNew: boolean; touched: boolean; loadedStart: number }
type LiveProfile = ProfileRow & { known: boolean; loadedLastDay: number; dirty: boolean }
type LiveDay = PlayerDayRow & { payingBefore: boolean; isNew: boolean }

const zeroDaily = (): DailyCounters => ({
  active_players: 0,
  new_players: 0,
  paying_players: 0,
  sessions: 0,
  session_seconds: 0,
  events: 0,
  flagged_events: 0,
  transactions: 0,
  revenue_iap_micros: 0,
  revenue_ad_micros: 0,
  revenue_subscription_micros: 0,
})
const zeroDim = (): DimCounters => ({
  players: 0,
  new_players: 0,
  paying_players: 0,
  events: 0,
  transactions: 0,
  revenue_iap_micros: 0,
  revenue_ad_micros: 0,
  revenue_subscription_micros: 0,
  sessions: 0,
})

const REVENUE_COLUMN: Record<
  RevenueType,
  'revenue_iap_micros' | 'revenue_ad_micros' | 'revenue_subscription_micros'
> = {
  iap: 'revenue_iap_micros',
  ad: 'revenue_ad_micros',
  subscription: 'revenue_subscription_micros',
}

/** Profile dimensions of game_daily_dims (value of the player's profile). */
const PROFILE_DIMS = ['platform', 'country', 'affiliate', 'campaign', 'source', 'medium'] as const

export const sessionSeconds = (s: { started_at: number; last_event_at: number; ended_at: number | null }) =>
  Math.floor(((s.ended_at ?? s.last_event_at) - s.started_at) / 1000)

/** The (active or paying) neighbours of `day`, the batch's own new days merged in. */
function withBatchDays(from: Neighbours, day: number, batchDays: number[] | undefined): Neighbours {
  let { prev, next } = from
  for (const d of batchDays ?? []) {
    if (d < day && d > prev) prev = d
    if (d > day && (next === null || d < next)) next = d
  }
  return { prev, next }
}
const NONE: Neighbours = { prev: NO_DAY, next: null }

/**
 * Folds a batch's accepted events into layer changes. `newSessionId(ts)` names a new session
 * (ids start with the start time so that inserts append to the primary key).
 */
export function fold(
  snapshot: Snapshot,
  accepted: readonly AcceptedEvent[],
  newSessionId: (startedAt: number) => string,
): Changes {
  // In time order, so that sessions, first-seen and neighbours follow the players' history.
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

  const profiles = new Map<string, LiveProfile>()
  const days = new Map<string, LiveDay>()
  /** Days added / made paying by this batch, per player (not in the snapshot). */
  const batchDays = new Map<string, number[]>()
  const batchPayDays = new Map<string, number[]>()
  const sessions = new Map<string, LiveSession>()
  const bySid = new Map<string, LiveSession | null>()
  const latest = new Map<string, LiveSession | null>()
  const installMoves = new Map<string, number>()
  /** A session row of the snapshot, or the batch's newer state of it. */
  const liveSession = (row: SessionRow | undefined): LiveSession | null => {
    if (!row) return null
    let live = sessions.get(row.id)
    if (!live)
      sessions.set(row.id, (live = { ...row, isNew: false, touched: false, loadedStart: row.started_at }))
    return live
  }
  /** The player's current session (latest by last event): the profile names it. */
  const latestOf = (p: LiveProfile): LiveSession | null => {
    let s = latest.get(p.player_id)
    if (s === undefined) {
      s =
        p.known && p.current_session_id ? liveSession(snapshot.sessionsById.get(p.current_session_id)) : null
      latest.set(p.player_id, s)
    }
    return s
  }
  const daily = new Map<number, DailyCounters>()
  const dims = new Map<string, { day: number; dim: string; value: string; counters: DimCounters }>()
  const gaps = new Map<string, Changes['gaps'][number]>()
  const cohorts = new Map<string, Changes['cohorts'][number]>()

  const dayCounters = (day: number) => {
    let c = daily.get(day)
    if (!c) daily.set(day, (c = zeroDaily()))
    return c
  }
  const dimCounters = (day: number, dim: string, value: string) => {
    const k = `${day}\n${dim}\n${value}`
    let d = dims.get(k)
    if (!d) dims.set(k, (d = { day, dim, value, counters: zeroDim() }))
    return d.counters
  }
  const profileDims = (p: ProfileRow, day: number, f: (c: DimCounters) => void) => {
    for (const dim of PROFILE_DIMS) {
      const v = p[dim]
      if (v === null && dim !== 'country') continue
      f(dimCounters(day, dim, v ?? ''))
    }
  }
  const gap = (kind: GapIncrement['kind'], day: number, prevDay: number, n: number) => {
    const k = `${kind}\n${day}\n${prevDay}`
    const existing = gaps.get(k)
    if (existing) existing.players += n
    else gaps.set(k, { kind, day, prevDay, players: n })
  }
  const cohort = (installDay: number, dayOffset: number, n: number) => {
    const k = `${installDay}\n${dayOffset}`
    const existing = cohorts.get(k)
    if (existing) existing.players += n
    else cohorts.set(k, { installDay, dayOffset, players: n })
  }
  const acquisition = createAcquisition()
  const push = (m: Map<string, number[]>, player: string, day: number) => {
    const list = m.get(player)
    if (list) list.push(day)
    else m.set(player, [day])
  }
  /** A newly active (or paying) day: the distinct-over-range counters of game_day_gaps. */
  const addDay = (kind: GapIncrement['kind'], day: number, { prev, next }: Neighbours) => {
    gap(kind, day, prev, 1)
    if (next !== null) {
      gap(kind, next, prev, -1)
      gap(kind, next, day, 1)
    }
  }

  // Events: the days each player sent each type, for distinct players per type.
  const batchTypeDays = new Map<string, number[]>()
  const addTypeDay = (playerId: string, typeValue: string, bit: number, day: number) => {
    let prev = NO_DAY
    let next: number | null = null
    for (const row of snapshot.typeDays.get(playerId) ?? [])
      if (Math.floor(row.event_types / bit) % 2 === 1) {
        if (row.day < day && row.day > prev) prev = row.day
        if (row.day > day && (next === null || row.day < next)) next = row.day
      }
    const key = `${playerId}\n${bit}`
    addDay(`type:${typeValue}`, day, withBatchDays({ prev, next }, day, batchTypeDays.get(key)))
    push(batchTypeDays, key, day)
  }

  for (const { event, verdict } of fresh) {
    const playerId = event.playerId
    // Profile (layer 3).
    let profile = profiles.get(playerId)
    if (!profile) {
      const row = snapshot.profiles.get(playerId)
      profile = row
        ? { ...row, known: true, loadedLastDay: row.last_active_day, dirty: false }
        : {
            player_id: playerId,
            first_seen_at: event.ts,
            install_day: event.day,
            last_active_at: event.ts,
            last_active_day: event.day,
            platform: event.platform,
            country: null,
            device_fingerprint: null,
            affiliate: null,
            campaign: null,
            source: null,
            medium: null,
            link_id: null,
            click_id: null,
            session_count: 0,
            event_count: 0,
            transactions: 0,
            revenue_iap_micros: 0,
            revenue_ad_micros: 0,
            revenue_subscription_micros: 0,
            revenue_total_micros: 0,
            first_purchase_at: null,
            current_session_id: null,
            known: false,
            loadedLastDay: NO_DAY,
            dirty: false,
          }
      profiles.set(playerId, profile)
      if (!row) {
        fillProfile(profile, event)
        dayCounters(event.day).new_players++
        profileDims(profile, event.day, (c) => c.new_players++)
      }
    }
    if (fillProfile(profile, event)) profile.dirty = true
    if (event.ts < profile.first_seen_at) {
      profile.dirty = true
      // An older event (up to 24 h) moves the install date back: cohorts and new players follow.
      if (event.day < profile.install_day) {
        const oldInstall = profile.install_day
        const newInstall = event.day
        dayCounters(oldInstall).new_players--
        dayCounters(newInstall).new_players++
        profileDims(profile, oldInstall, (c) => c.new_players--)
        profileDims(profile, newInstall, (c) => c.new_players++)
        const known = new Set<number>([
          ...(snapshot.allDays.get(playerId) ?? []),
          ...(batchDays.get(playerId) ?? []),
        ])
        for (const d of known) {
          cohort(oldInstall, d - oldInstall, -1)
          cohort(newInstall, d - newInstall, 1)
        }
        acquisition.moveInstall(profile, oldInstall, newInstall)
        installMoves.set(playerId, newInstall)
        for (const row of days.values()) if (row.player_id === playerId) row.install_day = newInstall
        profile.install_day = newInstall
      }
      profile.first_seen_at = event.ts
    }
    if (event.ts > profile.last_active_at) profile.last_active_at = event.ts
    profile.event_count++

    // Player-day (layer 4, per player).
    const dk = pairKey(playerId, event.day)
    let pd = days.get(dk)
    if (!pd) {
      const row = profile.known ? snapshot.playerDays.get(dk) : undefined
      if (row) pd = { ...row, payingBefore: row.revenue_micros > 0, isNew: false }
      else {
        pd = {
          player_id: playerId,
          day: event.day,
          install_day: profile.install_day,
          events: 0,
          revenue_micros: 0,
          event_types: 0,
          custom_events: null,
          payingBefore: false,
          isNew: true,
        }
        // A new active day: DAU, cohort, distinct-players counters.
        const extra = batchDays.get(playerId)
        const maxKnown = Math.max(profile.loadedLastDay, ...(extra ?? []))
        const stored = profile.known ? (snapshot.activeNeighbours.get(dk) ?? NONE) : NONE
        const n =
          !profile.known && !extra
            ? NONE
            : event.day > maxKnown
              ? { prev: maxKnown, next: null }
              : withBatchDays(stored, event.day, extra)
        addDay('active', event.day, n)
        addDay(countryKind(profile), event.day, n)
        push(batchDays, playerId, event.day)
        dayCounters(event.day).active_players++
        profileDims(profile, event.day, (c) => c.players++)
        cohort(profile.install_day, event.day - profile.install_day, 1)
      }
      days.set(dk, pd)
    }
    if (event.day > profile.last_active_day) profile.last_active_day = event.day
    pd.events++
    const bit = 2 ** event.typeBit
    const typeValue = event.custom ? 'custom' : event.type
    if (Math.floor(pd.event_types / bit) % 2 === 0) {
      pd.event_types += bit
      dimCounters(event.day, 'event_type', typeValue).players++
      addTypeDay(playerId, typeValue, bit, event.day)
    }

    // Counters.
    const dc = dayCounters(event.day)
    dc.events++
    if (verdict === 'flag') dc.flagged_events++
    const typeC = dimCounters(event.day, 'event_type', typeValue)
    typeC.events++
    if (event.custom) dimCounters(event.day, 'custom_event', event.type).events++
    profileDims(profile, event.day, (c) => c.events++)
    if (event.revenueType) {
      const col = REVENUE_COLUMN[event.revenueType]
      dc.transactions++
      dc[col] = addMoney(dc[col], event.revenueMicros)
      typeC.transactions++
      typeC[col] = addMoney(typeC[col], event.revenueMicros)
      profileDims(profile, event.day, (c) => {
        c.transactions++
        c[col] = addMoney(c[col], event.revenueMicros)
      })
      profile.dirty = true
      profile.transactions++
      profile[col] = addMoney(profile[col], event.revenueMicros)
      profile.revenue_total_micros = addMoney(profile.revenue_total_micros, event.revenueMicros)
      if (event.revenueMicros > 0) {
        if (profile.first_purchase_at === null) acquisition.converted(profile)
        if (profile.first_purchase_at === null || event.ts < profile.first_purchase_at)
          profile.first_purchase_at = event.ts
        // A new paying day (a day already paying in the snapshot is never 0 here: payingBefore).
        if (pd.revenue_micros === 0 && !pd.payingBefore) {
          const stored = profile.known ? (snapshot.payingNeighbours.get(dk) ?? NONE) : NONE
          const payingNeighbours = withBatchDays(stored, event.day, batchPayDays.get(playerId))
          addDay('paying', event.day, payingNeighbours)
          acquisition.payingDay(profile, event.day, payingNeighbours)
          push(batchPayDays, playerId, event.day)
          dc.paying_players++
          profileDims(profile, event.day, (c) => c.paying_players++)
        }
        pd.revenue_micros = addMoney(pd.revenue_micros, event.revenueMicros)
      }
    }

    acquisition.money(profile, event)

    // Session (layer 2).
    let s: LiveSession | null | undefined
    if (event.sessionId) {
      const k = pairKey(playerId, event.sessionId)
      s = bySid.get(k)
      if (s === undefined) {
        s = profile.known ? liveSession(snapshot.sessionsBySid.get(k)) : null
        bySid.set(k, s)
      }
    } else s = latestOf(profile)
    if (
      s &&
      !(s.ended_at !== null && event.ts > s.ended_at) &&
      event.ts >= s.started_at - GAP &&
      event.ts <= s.last_event_at + GAP
    ) {
      const oldDay = utcDayNumber(s.started_at)
      const oldSeconds = sessionSeconds(s)
      if (event.ts < s.started_at) s.started_at = event.ts
      if (event.ts > s.last_event_at) s.last_event_at = event.ts
      if (event.type === 'session_end') s.ended_at = Math.max(s.ended_at ?? 0, event.ts, s.last_event_at)
      s.events++
      s.touched = true
      const newDay = utcDayNumber(s.started_at)
      const newSeconds = sessionSeconds(s)
      if (newDay !== oldDay) {
        dayCounters(oldDay).sessions--
        dayCounters(oldDay).session_seconds -= oldSeconds
        dayCounters(newDay).sessions++
        profileDims(profile, oldDay, (c) => c.sessions--)
        profileDims(profile, newDay, (c) => c.sessions++)
        dayCounters(newDay).session_seconds += newSeconds
      } else dayCounters(newDay).session_seconds += newSeconds - oldSeconds
    } else {
      s = {
        id: newSessionId(event.ts),
        player_id: playerId,
        session_id: event.sessionId,
        started_at: event.ts,
        last_event_at: event.ts,
        ended_at: event.type === 'session_end' ? event.ts : null,
        events: 1,
        isNew: true,
        touched: true,
        loadedStart: event.ts,
      }
      sessions.set(s.id, s)
      dayCounters(event.day).sessions++
      profileDims(profile, event.day, (c) => c.sessions++)
      profile.session_count++
      if (event.sessionId) bySid.set(pairKey(playerId, event.sessionId), s)
    }
    const current = latestOf(profile)
    if (!current || s.last_event_at >= current.last_event_at) {
      latest.set(playerId, s)
      profile.current_session_id = s.id
    }
  }

  const strip = <T extends object>(row: T, ...keys: string[]): T => {
    const copy = { ...row } as Record<string, unknown>
    for (const k of keys) delete copy[k]
    return copy as T
  }
  return {
    newEvents: fresh,
    stored: fresh.length,
    duplicates,
    flagged,
    profiles: [...profiles.values()].map((p) => ({
      row: strip<ProfileRow>(p, 'known', 'loadedLastDay', 'dirty'),
      write: !p.known ? 'insert' : p.dirty ? 'all' : 'activity',
    })),
    installDayMoves: [...installMoves].map(([playerId, installDay]) => ({ playerId, installDay })),
    playerDays: [...days.values()].map((d) => ({
      row: strip<PlayerDayRow>(d, 'payingBefore', 'isNew'),
      isNew: d.isNew,
    })),
    sessions: [...sessions.values()]
      .filter((s) => s.touched)
      .map((s) => ({
        row: strip<SessionRow>(s, 'isNew', 'touched', 'loadedStart'),
        write: s.isNew ? 'insert' : s.started_at !== s.loadedStart ? 'start' : 'update',
      })),
    daily: [...daily].map(([day, c]) => ({ day, ...c })),
    dims: [...dims.values()].map(({ day, dim, value, counters }) => ({ day, dim, value, ...counters })),
    gaps: [...gaps.values()].filter((x) => x.players !== 0),
    cohorts: [...cohorts.values()].filter((x) => x.players !== 0),
    ...acquisition.changes(),
  }
}

/** Attribution dimensions of game_acquisition_daily (the profile's first-touch values). */
const ACQUISITION_DIMS = ['affiliate', 'campaign', 'source', 'medium'] as const
/** Profile dimensions of game_dim_paying_gaps. */
const PAYING_DIMS = ['platform', 'source'] as const

/**
 * The fold's part for acquisition: cost and commission per attribution value and day,
 * conversions on the install day of a player's first paid event, and the distinct-paying-players
 * counters per platform and source (the game_day_gaps rule, per profile value).
 */
function createAcquisition() {
  const rows = new Map<string, Changes['acquisition'][number]>()
  const gaps = new Map<string, Changes['dimPayingGaps'][number]>()
  const each = (profile: ProfileRow, day: number, apply: (row: Changes['acquisition'][number]) => void) => {
    for (const dim of ACQUISITION_DIMS) {
      const value = profile[dim]
      if (value === null) continue
      const key = `${day}\n${dim}\n${value}`
      let row = rows.get(key)
      if (!row)
        rows.set(key, (row = { day, dim, value, cost_micros: 0, commission_micros: 0, conversions: 0 }))
      apply(row)
    }
  }
  const gap = (dim: string, value: string, day: number, prevDay: number, players: number) => {
    const key = `${dim}\n${value}\n${day}\n${prevDay}`
    const existing = gaps.get(key)
    if (existing) existing.players += players
    else gaps.set(key, { dim, value, day, prevDay, players })
  }
  return {
    /** The event's cost and commission, on its day. */
    money(profile: ProfileRow, event: AcceptedEvent['event']) {
      if (event.costMicros === 0 && event.commissionMicros === 0) return
      each(profile, event.day, (row) => {
        row.cost_micros = addMoney(row.cost_micros, event.costMicros)
        row.commission_micros = addMoney(row.commission_micros, event.commissionMicros)
      })
    },
    /** The player's first paid event: one conversion on the install day. */
    converted(profile: ProfileRow) {
      each(profile, profile.install_day, (row) => row.conversions++)
    },
    /** An older event moved the install day: a converted player's conversion moves along. */
    moveInstall(profile: ProfileRow, oldInstall: number, newInstall: number) {
      if (profile.first_purchase_at === null) return
      each(profile, oldInstall, (row) => row.conversions--)
      each(profile, newInstall, (row) => row.conversions++)
    },
    /** A new paying day of the player, with its paying neighbours (see addDay in fold). */
    payingDay(profile: ProfileRow, day: number, { prev, next }: Neighbours) {
      for (const dim of PAYING_DIMS) {
        const value = profile[dim]
        if (value === null) continue
        gap(dim, value, day, prev, 1)
        if (next !== null) {
          gap(dim, value, next, prev, -1)
          gap(dim, value, next, day, 1)
        }
      }
    },
    changes(): Pick<Changes, 'acquisition' | 'dimPayingGaps'> {
      return {
        acquisition: [...rows.values()].filter(
          (r) => r.cost_micros !== 0 || r.commission_micros !== 0 || r.conversions !== 0,
        ),
        dimPayingGaps: [...gaps.values()].filter((x) => x.players !== 0),
      }
    },
  }
}

/**
 * The game_day_gaps kind of a player's country (geography: distinct players per country over any
 * range). It shares the 'active' kind's neighbours, so it is exact while a player's profile country
 * stays the same; first-touch, it only changes once, from unknown ('country:') to known.
 */
export const countryKind = (profile: Pick<ProfileRow, 'country'>): `country:${string}` =>
  `country:${profile.country ?? ''}`

/** First-touch profile fields: set when first known, never overwritten. */
function fillProfile(p: ProfileRow, e: AcceptedEvent['event']): boolean {
  let changed = false
  const fill = (
    k: 'country' | 'device_fingerprint' | 'affiliate' | 'campaign' | 'source' | 'medium',
    v: string | null,
  ) => {
    if (p[k] === null && v !== null) {
      p[k] = v
      changed = true
    }
  }
  fill('country', e.country)
  fill('device_fingerprint', e.deviceFingerprint)
  fill('affiliate', e.attribution.affiliate)
  fill('campaign', e.attribution.campaign)
  fill('source', e.attribution.source)
  fill('medium', e.attribution.medium)
  return changed
}
