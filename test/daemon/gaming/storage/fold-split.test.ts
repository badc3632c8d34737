/**
 * The fold split into one function per layer gives, bit for bit, what the single-function fold gave
 * (fold-reference.ts): random batches over random but consistent snapshots, compared deeply and as JSON.
 */
import { describe, expect, it } from 'vitest'
import { fold } from '../../../../daemon/modules/gaming/storage/fold/index.js'
import { fold as referenceFold } from './fold-reference.js'
import { NAMED_EVENT_TYPES, REVENUE_TYPES } from '../../../../src/contract/limits.js'
import {
  CUSTOM_BIT,
  MONEY_SUM_MAX_MICROS,
  NO_DAY,
  TYPE_BIT,
  pairKey,
  type AcceptedEvent,
  type Changes,
  type Neighbours,
  type PlayerDayRow,
  type ProfileRow,
  type SessionRow,
  type Snapshot,
} from '../../../../daemon/modules/gaming/storage/types.js'
import { prng } from '../../../support/prng.js'

const DAY = 86_400_000
const MIN = 60_000
const GAP = 30 * MIN
const D = 20_400 // the batch's UTC day

type Rand = () => number
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
const maybe = <T>(r: Rand, p: number, v: () => T): T | null => (r() < p ? v() : null)

const SIDS = ['a', 'b', 'c', null] as const
const COUNTRIES = ['DE', 'US', 'FR']
const ATTRIBUTION = {
  affiliate: ['aff-1', 'aff-2'],
  campaign: ['summer', 'winter'],
  source: ['facebook', 'google', 'organic'],
  medium: ['cpc', 'cpi'],
}

/** What the store knows of a known player before the batch. */
interface History {
  profile: ProfileRow
  days: number[]
  payingDays: number[]
  sessions: SessionRow[]
}

function history(r: Rand, playerId: string): History {
  const installDay = D - int(r, 0, 4) + (r() < 0.2 ? 1 : 0)
  const days = [installDay]
  for (let d = installDay + 1; d <= D + 1; d++) if (r() < 0.5) days.push(d)
  const payingDays = days.filter(() => r() < 0.3)
  const lastDay = days[days.length - 1]!
  const firstSeen = installDay * DAY + int(r, 0, DAY - 1)
  const rich = r() < 0.1 // lifetime revenue near the ceiling: sums saturate
  const sessions: SessionRow[] = []
  const nSessions = int(r, 0, 3)
  for (let i = 0; i < nSessions; i++) {
    // Often just after midnight, so that an earlier event moves the session to the day before.
    const offset = r() < 0.4 ? int(r, 0, 25) * MIN : int(r, -3 * 60, 3 * 60) * MIN
    const start = pick(r, [D - 1, D, D + 1]) * DAY + offset + int(r, 0, 59_999)
    const last = start + int(r, 0, 45) * MIN
    sessions.push({
      id: `old-${playerId}-${i}`,
      player_id: playerId,
      session_id: pick(r, SIDS),
      started_at: start,
      last_event_at: last,
      ended_at: r() < 0.3 ? last + int(r, 0, 1) * MIN : null,
      events: int(r, 1, 20),
    })
  }
  const latest = [...sessions].sort((a, b) => b.last_event_at - a.last_event_at)[0]
  const currentSession = latest && r() < 0.8 ? latest.id : r() < 0.5 ? `missing-${playerId}` : null
  const revenue = rich ? MONEY_SUM_MAX_MICROS - int(r, 0, 1000) : payingDays.length * int(r, 1, 9_000_000)
  const profile: ProfileRow = {
    player_id: playerId,
    first_seen_at: firstSeen,
    install_day: installDay,
    last_active_at: Math.max(firstSeen, lastDay * DAY + int(r, 0, DAY - 1)),
    last_active_day: lastDay,
    platform: pick(r, ['ios', 'android', 'web']),
    country: maybe(r, 0.6, () => pick(r, COUNTRIES)),
    device_fingerprint: maybe(r, 0.5, () => `fp-${playerId}`),
    affiliate: maybe(r, 0.4, () => pick(r, ATTRIBUTION.affiliate)),
    campaign: maybe(r, 0.4, () => pick(r, ATTRIBUTION.campaign)),
    source: maybe(r, 0.5, () => pick(r, ATTRIBUTION.source)),
    medium: maybe(r, 0.4, () => pick(r, ATTRIBUTION.medium)),
    link_id: null,
    click_id: null,
    session_count: sessions.length + int(r, 0, 5),
    event_count: int(r, 1, 200),
    transactions: payingDays.length,
    revenue_iap_micros: revenue,
    revenue_ad_micros: 0,
    revenue_subscription_micros: rich ? MONEY_SUM_MAX_MICROS : 0,
    revenue_total_micros: rich ? MONEY_SUM_MAX_MICROS : revenue,
    first_purchase_at: payingDays.length ? payingDays[0]! * DAY + int(r, 0, DAY - 1) : null,
    current_session_id: currentSession,
  }
  return { profile, days, payingDays, sessions }
}

/** Neighbours of `day` among sorted `days` (the day itself left out). */
function neighbours(days: readonly number[], day: number): Neighbours {
  let prev = NO_DAY
  let next: number | null = null
  for (const d of days) {
    if (d < day && d > prev) prev = d
    if (d > day && (next === null || d < next)) next = d
  }
  return { prev, next }
}

function snapshotOf(r: Rand, known: History[], storedIds: string[]): Snapshot {
  const profiles = new Map<string, ProfileRow>()
  const playerDays = new Map<string, PlayerDayRow>()
  const activeNeighbours = new Map<string, Neighbours>()
  const payingNeighbours = new Map<string, Neighbours>()
  const allDays = new Map<string, number[]>()
  const sessionsBySid = new Map<string, SessionRow>()
  const sessionsById = new Map<string, SessionRow>()
  const typeDays = new Map<string, Array<Pick<PlayerDayRow, 'day' | 'event_types' | 'custom_events'>>>()
  for (const h of known) {
    const p = h.profile.player_id
    profiles.set(p, h.profile)
    allDays.set(p, h.days)
    const types: Array<Pick<PlayerDayRow, 'day' | 'event_types' | 'custom_events'>> = []
    for (const day of h.days) {
      let bits = 0
      for (let b = 0; b <= CUSTOM_BIT; b++) if (r() < 0.15) bits += 2 ** b
      if (bits === 0) bits = 2 ** int(r, 0, CUSTOM_BIT)
      const paying = h.payingDays.includes(day)
      playerDays.set(pairKey(p, day), {
        player_id: p,
        day,
        install_day: h.profile.install_day,
        events: int(r, 1, 50),
        revenue_micros: paying ? int(r, 1, 5_000_000) : 0,
        event_types: bits,
        custom_events: null,
      })
      types.push({ day, event_types: bits, custom_events: null })
    }
    typeDays.set(p, types)
    for (let day = D - 6; day <= D + 2; day++) {
      if (!h.days.includes(day)) activeNeighbours.set(pairKey(p, day), neighbours(h.days, day))
      payingNeighbours.set(pairKey(p, day), neighbours(h.payingDays, day))
    }
    for (const s of h.sessions) {
      sessionsById.set(s.id, s)
      if (s.session_id === null) continue
      const k = pairKey(p, s.session_id)
      const had = sessionsBySid.get(k)
      if (!had || s.started_at > had.started_at) sessionsBySid.set(k, s)
    }
  }
  return {
    storedEventIds: new Set(storedIds),
    profiles,
    playerDays,
    activeNeighbours,
    payingNeighbours,
    allDays,
    sessionsBySid,
    sessionsById,
    typeDays,
  }
}

/** A time near the player's stored sessions, around midnight, or on the gap's edges. */
function timeFor(
  r: Rand,
  h: History | undefined,
  anchor: number,
  lastTs: number | null,
): { ts: number; session?: SessionRow } {
  const x = r()
  const s = h && h.sessions.length ? pick(r, h.sessions) : undefined
  if (x < 0.05 && lastTs !== null) return { ts: lastTs } // same time as the previous event
  if (x < 0.2 && s) {
    const edges = [
      s.last_event_at + GAP,
      s.last_event_at + GAP + 1,
      s.started_at - GAP,
      s.started_at - GAP - 1,
      s.ended_at ?? s.last_event_at,
      (s.ended_at ?? s.last_event_at) + 1,
    ]
    return { ts: pick(r, edges), session: s }
  }
  if (x < 0.45 && s) return { ts: s.started_at + int(r, -50, 80) * MIN + int(r, 0, 59_999), session: s }
  if (x < 0.6) return { ts: pick(r, [D, D + 1]) * DAY + int(r, -40, 40) * MIN } // around midnight
  if (x < 0.7 && h) return { ts: h.profile.first_seen_at - int(r, 1, 30 * 60) * MIN } // before the first event
  return { ts: anchor + int(r, -120, 120) * MIN + int(r, 0, 59_999) }
}

function batch(seed: number): { snapshot: Snapshot; events: AcceptedEvent[] } {
  const r = prng(seed)
  const nPlayers = int(r, 1, 5)
  const players = Array.from({ length: nPlayers }, (_, i) => `p${i}`)
  const known = new Map<string, History>()
  for (const p of players) if (r() < 0.65) known.set(p, history(r, p))
  const storedIds = Array.from({ length: int(r, 0, 3) }, (_, i) => `old-e${i}`)
  const snapshot = snapshotOf(r, [...known.values()], storedIds)
  const anchors = new Map(players.map((p) => [p, D * DAY + int(r, -12 * 60, 24 * 60) * MIN]))
  const events: AcceptedEvent[] = []
  const nEvents = int(r, 1, 40)
  for (let i = 0; i < nEvents; i++) {
    const playerId = pick(r, players)
    const at = timeFor(r, known.get(playerId), anchors.get(playerId)!, events.at(-1)?.event.ts ?? null)
    const ts = at.ts
    const y = r()
    const type =
      y < 0.12
        ? 'session_end'
        : y < 0.22
          ? 'session_start'
          : y < 0.37
            ? pick(r, ['boss_fight', 'daily_chest'])
            : pick(r, NAMED_EVENT_TYPES)
    const custom = !TYPE_BIT.has(type)
    const revenue = r() < 0.3
    const z = r()
    const revenueMicros = !revenue
      ? 0
      : z < 0.1
        ? 0
        : z < 0.15
          ? MONEY_SUM_MAX_MICROS - int(r, 0, 10)
          : int(r, 1, 9_000_000)
    const idRoll = r()
    const eventId =
      idRoll < 0.05 && events.length
        ? pick(r, events).event.eventId
        : idRoll < 0.1 && storedIds.length
          ? pick(r, storedIds)
          : `e${seed}-${i}`
    events.push({
      verdict: r() < 0.2 ? 'flag' : 'accept',
      event: {
        eventId,
        type,
        typeBit: custom ? CUSTOM_BIT : TYPE_BIT.get(type)!,
        custom,
        ts,
        day: Math.floor(ts / DAY),
        playerId,
        // Mostly the id of the stored session the time was picked near: the event joins it.
        sessionId: at.session && r() < 0.7 ? at.session.session_id : pick(r, SIDS),
        platform: pick(r, ['ios', 'android', 'web']),
        dataJson: r() < 0.3 ? '{"level":3}' : null,
        revenueType: revenue ? pick(r, REVENUE_TYPES) : null,
        revenueMicros,
        currency: revenue ? 'USD' : null,
        costMicros: r() < 0.15 ? int(r, 1, 2_000_000) : 0,
        commissionMicros: r() < 0.15 ? int(r, 1, 500_000) : 0,
        country: maybe(r, 0.6, () => pick(r, COUNTRIES)),
        deviceFingerprint: maybe(r, 0.4, () => `fp-${playerId}-${int(r, 0, 1)}`),
        attribution: {
          affiliate: maybe(r, 0.3, () => pick(r, ATTRIBUTION.affiliate)),
          campaign: maybe(r, 0.3, () => pick(r, ATTRIBUTION.campaign)),
          source: maybe(r, 0.4, () => pick(r, ATTRIBUTION.source)),
          medium: maybe(r, 0.3, () => pick(r, ATTRIBUTION.medium)),
        },
      },
    })
  }
  return { snapshot, events }
}

const ids = () => {
  let n = 0
  return (ts: number) => `new-${ts}-${++n}`
}

describe('the fold split by layer', () => {
  it(
    'gives exactly the single-function fold on 2000 random batches, and the batches reach every rule',
    { timeout: 120_000 },
    () => {
      const seen = new Map<string, number>()
      const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1)
      for (let seed = 1; seed <= 2000; seed++) {
        const { snapshot, events } = batch(seed)
        const expected = withoutLaterRules(referenceFold(snapshot, events, ids()))
        const actual = withoutLaterRules(fold(snapshot, events, ids()))
        expect(actual, `seed ${seed}`).toStrictEqual(expected)
        expect(JSON.stringify(actual), `seed ${seed}`).toBe(JSON.stringify(expected))
        tally(snapshot, expected, count)
      }
      // The generator reaches each rule of the fold (else the comparison proves little).
      for (const what of [
        'duplicates',
        'flagged',
        'profile insert',
        'profile all',
        'profile activity',
        'install moved',
        'player-day new',
        'player-day stored',
        'session insert',
        'session start',
        'session update',
        'session day moved',
        'negative gap',
        'type gap',
        'country gap',
        'paying gap',
        'negative cohort',
        'conversion',
        'conversion moved',
        'cost',
        'commission',
        'negative paying dim gap',
        'custom dim',
        'saturated',
      ])
        expect(seen.get(what) ?? 0, what).toBeGreaterThan(10)
    },
  )
})

/** The profile dimensions, whose players without a value the fold counts under '' since. */
const PROFILE_DIMS = new Set(['platform', 'affiliate', 'campaign', 'source', 'medium', 'link'])

/**
 * The changes without what the fold counts since the reference was taken: players per custom
 * event name (custom_events, the 'custom_event' players, 'custom:' gaps) and players without a
 * profile value under '' (the reports' `(none)` rows; fold-acquisition and fold-player-days test
 * them). The rest must stay bit for bit (the day dimensions in key order).
 */
function withoutLaterRules(c: Changes): Changes {
  return {
    ...c,
    playerDays: c.playerDays.map(({ row, isNew }) => {
      const { custom_events: _names, ...rest } = row
      return { row: rest as PlayerDayRow, isNew }
    }),
    // In key order: a custom name's row may now be created by its players before its events.
    dims: c.dims
      .filter((d) => !(d.value === '' && PROFILE_DIMS.has(d.dim)))
      .map((d) => (d.dim === 'custom_event' ? { ...d, players: 0 } : d))
      .sort((a, b) => a.day - b.day || a.dim.localeCompare(b.dim) || a.value.localeCompare(b.value)),
    gaps: c.gaps.filter((g) => !g.kind.startsWith('custom:')),
    acquisition: c.acquisition.filter((a) => a.value !== ''),
    dimPayingGaps: c.dimPayingGaps.filter((g) => g.value !== ''),
  }
}

function tally(snapshot: Snapshot, c: Changes, count: (what: string) => void) {
  if (c.duplicates) count('duplicates')
  if (c.flagged) count('flagged')
  for (const p of c.profiles) count(`profile ${p.write}`)
  if (c.installDayMoves.length) count('install moved')
  for (const d of c.playerDays) count(d.isNew ? 'player-day new' : 'player-day stored')
  for (const s of c.sessions) count(`session ${s.write}`)
  for (const { row, write } of c.sessions) {
    const loaded = snapshot.sessionsById.get(row.id)
    if (write === 'start' && Math.floor(loaded!.started_at / DAY) !== Math.floor(row.started_at / DAY))
      count('session day moved')
  }
  if (c.gaps.some((g) => g.players < 0)) count('negative gap')
  if (c.gaps.some((g) => g.kind.startsWith('type:'))) count('type gap')
  if (c.gaps.some((g) => g.kind.startsWith('country:'))) count('country gap')
  if (c.gaps.some((g) => g.kind === 'paying')) count('paying gap')
  if (c.cohorts.some((g) => g.players < 0)) count('negative cohort')
  if (c.acquisition.some((a) => a.conversions > 0)) count('conversion')
  if (c.acquisition.some((a) => a.conversions < 0)) count('conversion moved')
  if (c.acquisition.some((a) => a.cost_micros > 0)) count('cost')
  if (c.acquisition.some((a) => a.commission_micros > 0)) count('commission')
  if (c.dimPayingGaps.some((g) => g.players < 0)) count('negative paying dim gap')
  if (c.dims.some((d) => d.dim === 'custom_event')) count('custom dim')
  if (c.profiles.some((p) => p.row.revenue_total_micros === MONEY_SUM_MAX_MICROS)) count('saturated')
}
