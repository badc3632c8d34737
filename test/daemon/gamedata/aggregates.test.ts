/**
 * Aggregate correctness (issue 6 items 3, 4, 8): a generated data set (thousands of players over
 * 45 days, shuffled deliveries so events arrive out of order within the 24 h window) is sent
 * through the real ingestion; every daily aggregate, dimension, profile and the overview for
 * several ranges is compared with a brute-force computation over the raw events.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../src/contract/games.js'
import type { GameEventInput, Overview } from '../../../src/contract/gaming.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createGame, send } from '../../support/gaming.js'
import { prng } from '../../support/prng.js'

const DAY = 86_400_000
const MIN = 60_000
const D0 = Date.parse('2026-10-01T00:00:00.000Z')
const DAYS = 45
const PLAYERS = 1500
const dayNo = (ms: number) => Math.floor(ms / DAY)

const rand = prng(42)
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!

interface Ev extends GameEventInput {
  ts: number
}

function generate(): Ev[] {
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
            data: { country, ...data },
          })
          ts += MIN + Math.floor(rand() * 4 * MIN)
        }
        add(d === install && s === 0 ? 'app_install' : 'session_start')
        const n = Math.floor(rand() * 4)
        for (let i = 0; i < n; i++) add(pick(middle))
        const r = rand()
        if (r < 0.05) add('purchase', { amount: pick([0.99, 4.99, 19.99]), currency: 'USD' })
        else if (r < 0.08) add('ad_watched', { amount: 0.015, currency: 'USD' })
        else if (r < 0.09) add('subscription_start', { amount: 9.99, currency: 'USD' })
        if (rand() < 0.8) add('session_end')
      }
    }
  }
  return events.filter((e) => e.ts < D0 + DAYS * DAY)
}

const REVENUE: Record<string, 'iap' | 'ad' | 'subscription'> = {
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
const micros = (e: Ev) => Math.round(((e.data?.amount as number | undefined) ?? 0) * 1e6)

/** Brute force over the raw events. */
function truth(events: Ev[]) {
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
    const named = !['boss_fight', 'custom'].includes(e.event_type)
    const k = `${dayNo(e.ts)}\n${named ? e.event_type : 'custom'}`
    typeEvents.set(k, (typeEvents.get(k) ?? 0) + 1)
    typePlayers.set(k, (typePlayers.get(k) ?? new Set()).add(e.player_id))
  }
  const distinct = (m: Map<string, Set<number>>, s: number, e: number) =>
    [...m.values()].filter((days) => [...days].some((d) => d >= s && d <= e)).length
  return { byPlayer, install, activeDays, payDays, sessions, daily, typeEvents, typePlayers, distinct }
}

let t: TestApp
let game: GameWithSecrets
let events: Ev[]
let T: ReturnType<typeof truth>
const today = dayNo(D0) + DAYS

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 1_000_000 })
  game = await createGame(t, { platform: 'ios' })
  events = generate()
  T = truth(events)
  // Deliver each half day at its end, shuffled, in batches of up to 1,000 events.
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
}, 120_000)
afterAll(() => t.close())

const gameKey = () =>
  (t.db.sqlite.prepare('SELECT id FROM games WHERE slug = ?').get(game.id) as { id: string }).id

describe('aggregates against a brute-force computation', () => {
  it('the data set is big enough to mean something', () => {
    expect(T.byPlayer.size).toBeGreaterThanOrEqual(1000)
    expect(T.daily.size).toBeGreaterThanOrEqual(40)
    expect(events.length).toBeGreaterThan(20_000)
    expect(T.sessions.size).toBeGreaterThan(5000)
  })

  it('daily totals: active, new and paying players, sessions, seconds, events, revenue', () => {
    const rows = t.db.sqlite
      .prepare(
        'SELECT day, active_players, new_players, paying_players, sessions, session_seconds, events, transactions, revenue_iap_micros, revenue_ad_micros, revenue_subscription_micros FROM game_daily WHERE game_id = ? ORDER BY day',
      )
      .all(gameKey()) as Array<Record<string, number>>
    const got = new Map(rows.map(({ day, ...r }) => [day!, r]))
    for (const [d, want] of T.daily) expect(got.get(d), `day ${d}`).toEqual(want)
    for (const [d, r] of got) if (!T.daily.has(d)) expect(Object.values(r).every((v) => v === 0)).toBe(true)
  })

  it('event counts and unique players per type per day', () => {
    const rows = t.db.sqlite
      .prepare(
        "SELECT day, value, events, players FROM game_daily_dims WHERE game_id = ? AND dim = 'event_type'",
      )
      .all(gameKey()) as Array<{ day: number; value: string; events: number; players: number }>
    expect(rows.length).toBe(T.typeEvents.size)
    for (const r of rows) {
      const k = `${r.day}\n${r.value}`
      expect(r.events, k).toBe(T.typeEvents.get(k))
      expect(r.players, k).toBe(T.typePlayers.get(k)!.size)
    }
  })

  it('player profiles: install date, sessions, revenue, last active', () => {
    const rows = t.db.sqlite
      .prepare(
        'SELECT player_id, install_day, first_seen_at, last_active_at, session_count, event_count, revenue_total_micros, country, platform FROM game_players WHERE game_id = ?',
      )
      .all(gameKey()) as Array<Record<string, string | number>>
    expect(rows.length).toBe(T.byPlayer.size)
    const sessionsOf = new Map<string, number>()
    for (const e of events) sessionsOf.set(`${e.player_id}\n${e.session_id}`, 1)
    const perPlayer = new Map<string, number>()
    for (const k of sessionsOf.keys())
      perPlayer.set(k.split('\n')[0]!, (perPlayer.get(k.split('\n')[0]!) ?? 0) + 1)
    for (const r of rows) {
      const evs = T.byPlayer.get(r.player_id as string)!
      expect(r.install_day).toBe(T.install.get(r.player_id as string))
      expect(r.first_seen_at).toBe(Math.min(...evs.map((e) => e.ts)))
      expect(r.last_active_at).toBe(Math.max(...evs.map((e) => e.ts)))
      expect(r.event_count).toBe(evs.length)
      expect(r.session_count).toBe(perPlayer.get(r.player_id as string))
      expect(r.revenue_total_micros).toBe(
        evs.reduce((s, e) => s + (REVENUE[e.event_type] ? micros(e) : 0), 0),
      )
      expect(r.country).toBe(evs[0]!.data!.country)
      expect(r.platform).toBe(evs[0]!.platform)
    }
  })

  it('players per platform and country per day', () => {
    const rows = t.db.sqlite
      .prepare(
        "SELECT day, dim, value, players, new_players FROM game_daily_dims WHERE game_id = ? AND dim IN ('platform', 'country')",
      )
      .all(gameKey()) as Array<{
      day: number
      dim: string
      value: string
      players: number
      new_players: number
    }>
    for (const r of rows) {
      const attr = (p: string) =>
        r.dim === 'platform'
          ? T.byPlayer.get(p)![0]!.platform
          : (T.byPlayer.get(p)![0]!.data!.country as string)
      const active = [...T.activeDays].filter(([p, days]) => days.has(r.day) && attr(p) === r.value).length
      const fresh = [...T.install].filter(([p, d]) => d === r.day && attr(p) === r.value).length
      expect([r.players, r.new_players], `${r.day} ${r.dim} ${r.value}`).toEqual([active, fresh])
    }
  })

  async function overview(query = ''): Promise<Overview> {
    const res = await t.call('GET', `/api/v1/analytics/games/${game.id}/overview${query}`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<Overview>()
  }

  function expected(start: number, end: number) {
    const rev = { iap: 0, ad: 0, subscription: 0 }
    let sessions = 0
    let seconds = 0
    for (let d = start; d <= end; d++) {
      const r = T.daily.get(d)
      if (!r) continue
      rev.iap += r.revenue_iap_micros
      rev.ad += r.revenue_ad_micros
      rev.subscription += r.revenue_subscription_micros
      sessions += r.sessions
      seconds += r.session_seconds
    }
    const total = rev.iap + rev.ad + rev.subscription
    const active = T.distinct(T.activeDays, start, end)
    const payers = T.distinct(T.payDays, start, end)
    const retention = (n: number) => {
      const last = Math.min(end, today) - n
      const cohort = [...T.install].filter(([, d]) => d >= start && d <= last)
      if (last < start || cohort.length === 0) return null
      const kept = cohort.filter(([p, d]) => T.activeDays.get(p)!.has(d + n)).length
      return Math.round((10000 * kept) / cohort.length) / 100
    }
    return {
      dau: T.daily.get(end)?.active_players ?? 0,
      mau: T.distinct(T.activeDays, end - 29, end),
      revenue: {
        total: total / 1e6,
        iap: rev.iap / 1e6,
        ad: rev.ad / 1e6,
        subscription: rev.subscription / 1e6,
      },
      arpu: active ? Math.round((total / 1e6 / active) * 1e6) / 1e6 : 0,
      arppu: payers ? Math.round((total / 1e6 / payers) * 1e6) / 1e6 : 0,
      avgSessionSeconds: sessions ? Math.round((seconds / sessions) * 100) / 100 : 0,
      retention: { d1: retention(1), d7: retention(7), d30: retention(30) },
      range: {
        startDate: new Date(start * DAY).toISOString().slice(0, 10),
        endDate: new Date(end * DAY).toISOString().slice(0, 10),
      },
    }
  }

  it('overview, default range (last 30 days up to today)', async () => {
    const got = await overview()
    const want = expected(today - 29, today)
    expect(got).toEqual({ ...want, revenue: expect.any(Object) })
    for (const k of ['total', 'iap', 'ad', 'subscription'] as const)
      expect(got.revenue[k]).toBeCloseTo(want.revenue[k], 6)
    expect(got.mau).toBeGreaterThan(got.dau)
  })

  it('overview over other ranges, retention included', async () => {
    const d0 = dayNo(D0)
    const iso = (d: number) => new Date(d * DAY).toISOString().slice(0, 10)
    for (const [s, e] of [
      [d0, d0 + DAYS - 1],
      [d0 + 3, d0 + 9],
      [d0 + 10, d0 + 40],
      [d0 + 44, d0 + 44],
    ] as const) {
      const got = await overview(`?startDate=${iso(s)}&endDate=${iso(e)}T23:59:59Z`)
      const want = expected(s, e)
      expect({ ...got, revenue: 0 }, `${iso(s)}..${iso(e)}`).toEqual({ ...want, revenue: 0 })
      expect(got.revenue.total).toBeCloseTo(want.revenue.total, 6)
    }
    const full = await overview(`?startDate=${iso(d0)}&endDate=${iso(d0 + DAYS - 1)}`)
    expect(full.retention.d1).not.toBeNull()
    expect(full.retention.d30).not.toBeNull()
  })
})
