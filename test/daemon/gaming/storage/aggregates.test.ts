/**
 * Aggregate correctness: a generated data set (thousands of players over
 * 45 days, shuffled deliveries so events arrive out of order within the 24 h window) is sent
 * through the real ingestion; every daily aggregate, dimension, profile and the overview for
 * several ranges is compared with a brute-force computation over the raw events.
 */
import { sqlRows } from '../../../support/app.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { Overview } from '../../../../src/contract/gaming.js'
import type { TestApp } from '../../../support/app.js'
import {
  D0,
  DAY,
  DAYS,
  dayNo,
  deliveredDataset,
  micros,
  REVENUE,
  type truth,
  type Ev,
} from '../../../support/gaming-dataset.js'
import { gameIdOf } from '../../../support/fraud.js'

let t: TestApp
let game: GameWithSecrets
let events: Ev[]
let T: ReturnType<typeof truth>
const today = dayNo(D0) + DAYS

beforeAll(async () => {
  ;({ t, game, events, T } = await deliveredDataset())
}, 120_000)
afterAll(() => t.close())

const gameKey = () => gameIdOf(t, game.id)

describe('aggregates against a brute-force computation', () => {
  it('the data set is big enough to mean something', () => {
    expect(T.byPlayer.size).toBeGreaterThanOrEqual(1000)
    expect(T.daily.size).toBeGreaterThanOrEqual(40)
    expect(events.length).toBeGreaterThan(20_000)
    expect(T.sessions.size).toBeGreaterThan(5000)
  })

  it('daily totals: active, new and paying players, sessions, seconds, events, revenue', async () => {
    const rows = (await sqlRows(
      t,
      'SELECT day, active_players, new_players, paying_players, sessions, session_seconds, events, transactions, revenue_iap_micros, revenue_ad_micros, revenue_subscription_micros FROM game_daily WHERE game_id = ? ORDER BY day',
      await gameKey(),
    )) as Array<Record<string, number>>
    const got = new Map(rows.map(({ day, ...r }) => [day!, r]))
    for (const [d, want] of T.daily) expect(got.get(d), `day ${d}`).toEqual(want)
    for (const [d, r] of got) if (!T.daily.has(d)) expect(Object.values(r).every((v) => v === 0)).toBe(true)
  })

  it('event counts and unique players per type per day', async () => {
    const rows = (await sqlRows(
      t,
      "SELECT day, value, events, players FROM game_daily_dims WHERE game_id = ? AND dim = 'event_type'",
      await gameKey(),
    )) as Array<{ day: number; value: string; events: number; players: number }>
    expect(rows.length).toBe(T.typeEvents.size)
    for (const r of rows) {
      const k = `${r.day}\n${r.value}`
      expect(r.events, k).toBe(T.typeEvents.get(k))
      expect(r.players, k).toBe(T.typePlayers.get(k)!.size)
    }
  })

  it('player profiles: install date, sessions, revenue, last active', async () => {
    const rows = (await sqlRows(
      t,
      'SELECT player_id, install_day, first_seen_at, last_active_at, session_count, event_count, revenue_total_micros, country, platform FROM game_players WHERE game_id = ?',
      await gameKey(),
    )) as Array<Record<string, string | number>>
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

  it('players per platform and country per day', async () => {
    const rows = (await sqlRows(
      t,
      "SELECT day, dim, value, players, new_players FROM game_daily_dims WHERE game_id = ? AND dim IN ('platform', 'country')",
      await gameKey(),
    )) as Array<{
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
