/**
 * The seeded gaming data set of the brute-force tests: thousands of players over 45 days, with
 * sessions, custom events, every revenue type, attribution, costs, commissions and EUR payers.
 * `truth()` computes the figures from the raw events; `deliver()` sends them through ingestion.
 */
import { randomUUID } from 'node:crypto'
import type { GameWithSecrets } from '../../src/contract/games.js'
import type { GameEventInput } from '../../src/contract/gaming.js'
import { NAMED_EVENT_TYPES } from '../../src/contract/limits.js'
import { createTestApp, type TestApp } from './app.js'
import { createGame, send } from './gaming.js'
import { prng } from './prng.js'

export const DAY = 86_400_000
const MIN = 60_000
const NAMED: ReadonlySet<string> = new Set(NAMED_EVENT_TYPES)
export const D0 = Date.parse('2026-10-01T00:00:00.000Z')
export const DAYS = 45
const PLAYERS = 1500
export const dayNo = (ms: number) => Math.floor(ms / DAY)

const rand = prng(42)
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!

export interface Ev extends GameEventInput {
  ts: number
}

export function generate(): Ev[] {
  const events: Ev[] = []
  const platforms = ['ios', 'android', 'web'] as const
  const countries = ['US', 'DE', 'FR', 'BR', 'JP']
  const middle = ['level_start', 'level_complete', 'currency_earned', 'battle_won', 'boss_fight', 'custom']
  for (let p = 0; p < PLAYERS; p++) {
    const player = `p${p}`
    const platform = pick(platforms)
    const country = pick(countries)
    const install = Math.floor(rand() * DAYS)
    const stickiness = rand() * 0.6
    // Attribution: a third of the players are organic (none); the rest carry it on every event.
    const attributed = rand() > 0.33
    const attribution: Record<string, string> = attributed
      ? {
          source: pick(SOURCES),
          campaign: pick(['spring', 'summer', 'brand']),
          medium: pick(['cpc', 'social']),
          ...(rand() < 0.5 ? { affiliate: pick(['aff1', 'aff2']) } : {}),
        }
      : {}
    const euro = rand() < 0.2
    /** The currency of a money event: USD, or EUR with the day's rate (USD per 1 EUR). */
    const currency = (d: number): Record<string, unknown> =>
      euro ? { currency: 'EUR', exchange_rate: 1.05 + (d % 5) / 100 } : { currency: 'USD' }
    const price = (d: number, amount: number) => ({ amount, ...currency(d) })
    for (let d = install; d < DAYS; d++) {
      if (d !== install && rand() > stickiness) continue
      const sessions = 1 + Math.floor(rand() * 2)
      for (let s = 0; s < sessions; s++) {
        const sid = randomUUID()
        // Sessions start anywhere in the day (some cross midnight) and last < 30 minutes.
        let ts = D0 + d * DAY + Math.floor(rand() * (DAY - 2 * MIN))
        const add = (type: string, data: Record<string, unknown> = {}) => {
          events.push({
            event_id: randomUUID(),
            event_type: type,
            timestamp: new Date(ts).toISOString(),
            ts,
            player_id: player,
            session_id: sid,
            platform,
            data: { country, ...attribution, ...data },
          })
          ts += MIN + Math.floor(rand() * 4 * MIN)
        }
        if (d === install && s === 0) {
          // Acquisition cost of attributed installs, in the player's currency.
          const cost = attributed ? pick([0, 0.5, 1.25, 2]) : 0
          add('app_install', cost ? { ...currency(d), cost } : {})
        } else add('session_start')
        const n = Math.floor(rand() * 4)
        for (let i = 0; i < n; i++) add(pick(middle))
        const r = rand()
        // An affiliate earns 10 % of each purchase of its players.
        const commission = (amount: number) => (attribution.affiliate ? { commission: amount / 10 } : {})
        if (r < 0.05) {
          const amount = pick([0.99, 4.99, 19.99, 59.99])
          add('purchase', { ...price(d, amount), ...commission(amount) })
        } else if (r < 0.08) add('ad_watched', price(d, 0.015))
        else if (r < 0.09) add('subscription_start', { ...price(d, 9.99), ...commission(9.99) })
        if (rand() < 0.8) add('session_end')
      }
    }
  }
  return events.filter((e) => e.ts < D0 + DAYS * DAY)
}

export const SOURCES = ['google', 'facebook', 'tiktok'] as const

export const REVENUE: Record<string, 'iap' | 'ad' | 'subscription'> = {
  purchase: 'iap',
  ad_watched: 'ad',
  subscription_start: 'subscription',
}
const REVENUE_COLUMN = {
  iap: 'revenue_iap_micros',
  ad: 'revenue_ad_micros',
  subscription: 'revenue_subscription_micros',
} as const
type Totals = Record<
  | 'active_players'
  | 'new_players'
  | 'paying_players'
  | 'sessions'
  | 'session_seconds'
  | 'events'
  | 'transactions'
  | (typeof REVENUE_COLUMN)[keyof typeof REVENUE_COLUMN],
  number
>
/** A money field of an event in reporting-currency micro-units (converted as the ingestion does). */
export const moneyMicros = (e: Ev, field: 'amount' | 'cost' | 'commission') =>
  Math.round(
    ((e.data?.[field] as number | undefined) ?? 0) *
      ((e.data?.exchange_rate as number | undefined) ?? 1) *
      1e6,
  )
export const micros = (e: Ev) => moneyMicros(e, 'amount')

/** Brute force over the raw events. */
export function truth(events: Ev[]) {
  const byPlayer = new Map<string, Ev[]>()
  for (const e of events) byPlayer.set(e.player_id, [...(byPlayer.get(e.player_id) ?? []), e])
  const install = new Map<string, number>()
  const activeDays = new Map<string, Set<number>>()
  const payDays = new Map<string, Set<number>>()
  for (const [p, evs] of byPlayer) {
    install.set(p, dayNo(Math.min(...evs.map((e) => e.ts))))
    activeDays.set(p, new Set(evs.map((e) => dayNo(e.ts))))
    payDays.set(p, new Set(evs.filter((e) => micros(e) > 0).map((e) => dayNo(e.ts))))
  }
  const sessions = new Map<string, { start: number; end: number }>()
  for (const e of events) {
    const s = sessions.get(e.session_id!)
    if (!s) sessions.set(e.session_id!, { start: e.ts, end: e.ts })
    else {
      s.start = Math.min(s.start, e.ts)
      s.end = Math.max(s.end, e.ts)
    }
  }
  const daily = new Map<number, Totals>()
  const day = (d: number): Totals => {
    let r = daily.get(d)
    if (!r)
      daily.set(
        d,
        (r = {
          active_players: 0,
          new_players: 0,
          paying_players: 0,
          sessions: 0,
          session_seconds: 0,
          events: 0,
          transactions: 0,
          revenue_iap_micros: 0,
          revenue_ad_micros: 0,
          revenue_subscription_micros: 0,
        }),
      )
    return r
  }
  for (const days of activeDays.values()) for (const d of days) day(d).active_players++
  for (const [, d] of install) day(d).new_players++
  for (const [, days] of payDays) for (const d of days) day(d).paying_players++
  for (const s of sessions.values()) {
    day(dayNo(s.start)).sessions++
    day(dayNo(s.start)).session_seconds += Math.floor((s.end - s.start) / 1000)
  }
  const typeEvents = new Map<string, number>()
  const typePlayers = new Map<string, Set<string>>()
  for (const e of events) {
    const r = day(dayNo(e.ts))
    r.events++
    const rt = REVENUE[e.event_type]
    if (rt) {
      r.transactions++
      r[REVENUE_COLUMN[rt]] += micros(e)
    }
    const named = NAMED.has(e.event_type)
    const k = `${dayNo(e.ts)}\n${named ? e.event_type : 'custom'}`
    typeEvents.set(k, (typeEvents.get(k) ?? 0) + 1)
    typePlayers.set(k, (typePlayers.get(k) ?? new Set()).add(e.player_id))
  }
  const distinct = (m: Map<string, Set<number>>, s: number, e: number) =>
    [...m.values()].filter((days) => [...days].some((d) => d >= s && d <= e)).length
  return {
    byPlayer,
    install,
    activeDays,
    payDays,
    sessions,
    daily,
    typeEvents,
    typePlayers,
    distinct,
    ...rangeFigures(events, install, activeDays, typeEvents, typePlayers),
    ...money(byPlayer),
  }
}

/** The figures of the analytics endpoints over a day range [s, e], straight from the events. */
function rangeFigures(
  events: Ev[],
  install: Map<string, number>,
  activeDays: Map<string, Set<number>>,
  typeEvents: Map<string, number>,
  typePlayers: Map<string, Set<string>>,
) {
  const inRange = (d: number, s: number, e: number) => d >= s && d <= e
  const countryOf = new Map(events.map((e) => [e.player_id, e.data?.country as string]))
  const sessionStart = new Map<string, Ev>()
  for (const e of events) {
    const first = sessionStart.get(e.session_id!)
    if (!first || e.ts < first.ts) sessionStart.set(e.session_id!, e)
  }
  return {
    /** Players of the install days in [s, e] and of them those active `offset` days after install. */
    cohort(s: number, e: number, offset: number) {
      let size = 0
      let retained = 0
      for (const [player, day] of install)
        if (inRange(day, s, e)) {
          size++
          if (activeDays.get(player)!.has(day + offset)) retained++
        }
      return { size, retained }
    },
    /** Revenue per player over [s, e] in micros (players in `gone` excluded), most first, ties by id. */
    leaderboard(s: number, e: number, gone: Set<string>) {
      const revenue = new Map<string, number>()
      for (const ev of events)
        if (micros(ev) > 0 && inRange(dayNo(ev.ts), s, e) && !gone.has(ev.player_id))
          revenue.set(ev.player_id, (revenue.get(ev.player_id) ?? 0) + micros(ev))
      return [...revenue].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    },
    /** Per country: distinct active players, sessions started, revenue (micros) in [s, e]. */
    geography(s: number, e: number) {
      const rows = new Map<string, { players: Set<string>; sessions: number; revenue: number }>()
      const row = (player: string) => {
        const country = countryOf.get(player)!
        let r = rows.get(country)
        if (!r) rows.set(country, (r = { players: new Set(), sessions: 0, revenue: 0 }))
        return r
      }
      for (const ev of events)
        if (inRange(dayNo(ev.ts), s, e)) {
          row(ev.player_id).players.add(ev.player_id)
          row(ev.player_id).revenue += REVENUE[ev.event_type] ? micros(ev) : 0
        }
      for (const first of sessionStart.values())
        if (inRange(dayNo(first.ts), s, e)) row(first.player_id).sessions++
      return rows
    },
    /** Per event type: events and distinct players in [s, e]; each custom name its own row (`custom`). */
    eventTypes(s: number, e: number) {
      const rows = new Map<string, { count: number; custom: boolean; players: Set<string> }>()
      for (const [key, count] of typeEvents) {
        const [day, type] = key.split('\n') as [string, string]
        if (type === 'custom' || !inRange(Number(day), s, e)) continue
        const r = rows.get(type) ?? { count: 0, custom: false, players: new Set<string>() }
        r.count += count
        for (const player of typePlayers.get(key)!) r.players.add(player)
        rows.set(type, r)
      }
      for (const ev of events)
        if (!NAMED.has(ev.event_type) && inRange(dayNo(ev.ts), s, e)) {
          const r = rows.get(ev.event_type) ?? { count: 0, custom: true, players: new Set<string>() }
          r.count++
          r.players.add(ev.player_id)
          rows.set(ev.event_type, r)
        }
      return rows
    },
  }
}

/** A player's profile as the raw events make it (first touch: the earliest event). */
export interface PlayerTruth {
  playerId: string
  installDay: number
  firstSeenAt: number
  lastActiveAt: number
  platform: string
  country: string
  attribution: {
    affiliate: string | null
    campaign: string | null
    source: string | null
    medium: string | null
  }
  sessions: number
  transactions: number
  revenue: { iap: number; ad: number; subscription: number; total: number }
  /** The player's events, newest first. */
  newest: Ev[]
}

/** The money of the raw events: revenue events, installs with their cost, profiles. */
function money(byPlayer: Map<string, Ev[]>) {
  const revenueEvents: Array<{
    player: string
    day: number
    type: 'iap' | 'ad' | 'subscription'
    micros: number
    commission: number
  }> = []
  const installs: Array<{ player: string; day: number; cost: number }> = []
  const profiles = new Map<string, PlayerTruth>()
  for (const [player, evs] of byPlayer) {
    const sorted = [...evs].sort((a, b) => a.ts - b.ts)
    const first = sorted[0]!
    const text = (k: string) => (first.data?.[k] as string | undefined) ?? null
    const revenue = { iap: 0, ad: 0, subscription: 0, total: 0 }
    let transactions = 0
    for (const e of sorted) {
      const type = REVENUE[e.event_type]
      if (type) {
        transactions++
        revenue[type] += micros(e)
        revenue.total += micros(e)
        revenueEvents.push({
          player,
          day: dayNo(e.ts),
          type,
          micros: micros(e),
          commission: moneyMicros(e, 'commission'),
        })
      }
      if (e.event_type === 'app_install')
        installs.push({ player, day: dayNo(e.ts), cost: moneyMicros(e, 'cost') })
    }
    profiles.set(player, {
      playerId: player,
      installDay: dayNo(first.ts),
      firstSeenAt: first.ts,
      lastActiveAt: sorted[sorted.length - 1]!.ts,
      platform: first.platform!,
      country: first.data!.country as string,
      attribution: {
        affiliate: text('affiliate'),
        campaign: text('campaign'),
        source: text('source'),
        medium: text('medium'),
      },
      sessions: new Set(evs.map((e) => e.session_id)).size,
      transactions,
      revenue,
      newest: [...sorted].reverse(),
    })
  }
  return { revenueEvents, installs, profiles }
}

/** Deliver each half day at its end, shuffled, in batches of up to 1,000 events. */
export async function deliver(t: TestApp, game: GameWithSecrets, events: Ev[]): Promise<void> {
  for (let half = 0; half < DAYS * 2; half++) {
    const from = D0 + half * (DAY / 2)
    const to = from + DAY / 2
    const slice = events.filter((e) => e.ts >= from && e.ts < to)
    for (let i = slice.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      ;[slice[i], slice[j]] = [slice[j]!, slice[i]!]
    }
    t.clock.set(to)
    for (let i = 0; i < slice.length; i += 1000) {
      const chunk = slice.slice(i, i + 1000).map(({ ts: _ts, ...e }) => e)
      const res = await send(
        t,
        { batch_id: randomUUID(), batch_timestamp: new Date(to).toISOString(), events: chunk },
        { game, orgId: t.orgId },
      )
      if (res.statusCode !== 202 || res.json<{ rejected: number }>().rejected !== 0)
        throw new Error(`delivery failed: ${res.statusCode} ${res.body.slice(0, 500)}`)
    }
  }
}

/** A test app with one game fed the whole data set through the real ingestion, and its truth. */
export async function deliveredDataset(): Promise<{
  t: TestApp
  game: GameWithSecrets
  events: Ev[]
  T: ReturnType<typeof truth>
}> {
  const t = await createTestApp({ ingestRateLimitPerGame: 1_000_000, ingestRateLimitPerClient: 1_000_000 })
  const game = await createGame(t, { platform: 'ios' })
  const events = generate()
  await deliver(t, game, events)
  return { t, game, events, T: truth(events) }
}
