/**
 * Revenue, attribution, segments and players against a brute-force
 * computation over the raw events of the shared data set (test/support/gaming-dataset.ts: USD and
 * EUR payers with daily exchange rates, attribution, install costs, affiliate commissions), sent
 * through the real ingestion; three players are then erased by the GDPR job. The daily layers
 * keep their anonymous figures (revenue, attribution), the profiles (segments, players) lose them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type {
  AttributionReport,
  PlayerProfile,
  PlayersPage,
  RevenueReport,
  SegmentsReport,
} from '../../../../src/contract/gaming-revenue.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { createGame } from '../../../support/gaming.js'
import {
  D0,
  DAY,
  DAYS,
  dayNo,
  deliver,
  generate,
  truth,
  type PlayerTruth,
} from '../../../support/gaming-dataset.js'

let t: TestApp
let game: GameWithSecrets
let T: ReturnType<typeof truth>
const erased = new Set<string>()
const d0 = dayNo(D0)
const iso = (d: number) => new Date(d * DAY).toISOString().slice(0, 10)
const round6 = (n: number) => Math.round(n * 1e6) / 1e6
/** The daemon rounds ratios to 6 places: at most half a millionth from the exact value (a tie
 * such as 0.8953125 lands on either side by a float's last bit, so toBeCloseTo(x, 6) is too tight). */
const expectRounded6 = (got: number | null, exact: number, label?: string) =>
  expect(Math.abs((got ?? NaN) - exact), label).toBeLessThanOrEqual(5e-7 + 1e-12)
/** The row of the players without the grouped value. */
const NONE = '(none)'
const pct = (a: number, b: number) => (b ? Math.round((10000 * a) / b) / 100 : 0)

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 1_000_000, ingestRateLimitPerClient: 1_000_000 })
  game = await createGame(t, { platform: 'ios' })
  const events = generate()
  T = truth(events)
  await deliver(t, game, events)
  // Erase a paying attributed player, a paying organic one and a free one.
  const players = [...T.profiles.values()]
  const victims = [
    players.find((p) => p.revenue.total > 0 && p.attribution.affiliate)!,
    players.find((p) => p.revenue.total > 0 && !p.attribution.source)!,
    players.find((p) => p.revenue.total === 0)!,
  ]
  for (const v of victims) {
    const res = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      body: { gameId: game.id, playerId: v.playerId, reason: 'gdpr_request', confirmation: 'DELETE' },
    })
    expect(res.statusCode, res.body).toBe(202)
    erased.add(v.playerId)
  }
  await t.app.linkd.scheduler.runNow('gdpr-deletions')
}, 180_000)
afterAll(() => t.close())

async function get<T>(path: string): Promise<T> {
  const res = await t.call('GET', `/api/v1/analytics/games/${game.id}/${path}`)
  expect(res.statusCode, `${path}: ${res.body}`).toBe(200)
  return res.json<T>()
}

/** The ISO week of a UTC day: the year of its Thursday and the week number within that year. */
function isoWeek(day: number): string {
  const date = new Date(day * DAY)
  const thursday = new Date(date)
  thursday.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7) + 3)
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1)
  const week = Math.ceil(((thursday.getTime() - yearStart) / DAY + 1) / 7)
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`
}

const RANGES: Array<[number, number]> = [
  [d0, d0 + DAYS - 1], // the whole data set: October into mid-November
  [d0 + 3, d0 + 33], // crossing ISO weeks and the month boundary, both ends mid-week
  [d0, d0], // the first day only
  [d0 + DAYS - 1, d0 + DAYS - 1], // the last day only
  [d0 - 5, d0 + 2], // starting before the first event
]

describe('revenue against the raw events', () => {
  const groupOf = {
    day: (_p: PlayerTruth, d: number) => iso(d),
    week: (_p: PlayerTruth, d: number) => isoWeek(d),
    month: (_p: PlayerTruth, d: number) => iso(d).slice(0, 7),
    platform: (p: PlayerTruth) => p.platform,
    source: (p: PlayerTruth) => p.attribution.source ?? NONE,
  } as const

  function expected(groupBy: keyof typeof groupOf, start: number, end: number) {
    const groups = new Map<
      string,
      { iap: number; ad: number; subscription: number; n: number; payers: Set<string> }
    >()
    const of = (g: string) => {
      let x = groups.get(g)
      if (!x) groups.set(g, (x = { iap: 0, ad: 0, subscription: 0, n: 0, payers: new Set() }))
      return x
    }
    // Time groups list every period of the range, with or without revenue.
    if (groupBy === 'day' || groupBy === 'week' || groupBy === 'month')
      for (let d = start; d <= end; d++) of(groupOf[groupBy](T.profiles.get('p0')!, d))
    const all = { iap: 0, ad: 0, subscription: 0, n: 0, payers: new Set<string>() }
    for (const r of T.revenueEvents) {
      if (r.day < start || r.day > end) continue
      for (const x of [all, of(groupOf[groupBy](T.profiles.get(r.player)!, r.day))]) {
        x[r.type] += r.micros
        x.n++
        if (r.micros > 0) x.payers.add(r.player)
      }
    }
    const figures = (x: typeof all) => {
      const total = (x.iap + x.ad + x.subscription) / 1e6
      return {
        total,
        iap: x.iap / 1e6,
        ad: x.ad / 1e6,
        subscription: x.subscription / 1e6,
        transactions: x.n,
        payingUsers: x.payers.size,
        arppu: x.payers.size ? round6(total / x.payers.size) : 0,
      }
    }
    return { groups: new Map([...groups].map(([g, x]) => [g, figures(x)])), totals: figures(all) }
  }

  it.each(['day', 'week', 'month', 'platform', 'source'] as const)(
    'groupBy=%s over every range',
    async (groupBy) => {
      for (const [start, end] of RANGES) {
        const got = await get<RevenueReport>(
          `revenue?groupBy=${groupBy}&startDate=${iso(start)}&endDate=${iso(end)}`,
        )
        const want = expected(groupBy, start, end)
        const label = `${groupBy} ${iso(start)}..${iso(end)}`
        expect(got.currency).toBe('USD')
        expect(got.range, label).toEqual({ startDate: iso(start), endDate: iso(end) })
        const close = (a: Record<string, number>, b: Record<string, number>, what: string) => {
          for (const k of Object.keys(b)) expect(a[k], `${what} ${k}`).toBeCloseTo(b[k]!, 6)
          expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort())
        }
        close(got.totals, want.totals, `${label} totals`)
        const listed =
          groupBy === 'platform' || groupBy === 'source'
            ? [...want.groups].filter(([, x]) => x.transactions > 0)
            : [...want.groups]
        expect(got.data.map((r) => r.group).sort(), label).toEqual(listed.map(([g]) => g).sort())
        for (const { group, ...row } of got.data) close(row, want.groups.get(group)!, `${label} ${group}`)
        // The rows add up to the totals (paying users are distinct per row: not additive).
        for (const k of ['total', 'iap', 'ad', 'subscription', 'transactions'] as const)
          expect(
            got.data.reduce((n, r) => n + r[k], 0),
            `${label} sum of ${k}`,
          ).toBeCloseTo(got.totals[k], 6)
      }
    },
  )

  it('the data set has what these checks need: EUR payers, several weeks and months', () => {
    expect(T.byPlayer.size).toBeGreaterThan(1000)
    const eur = [...T.byPlayer.values()].flat().filter((e) => e.data?.currency === 'EUR' && e.data.amount)
    expect(eur.length).toBeGreaterThan(50)
    expect(new Set(RANGES.flatMap(([s, e]) => [isoWeek(s), isoWeek(e)])).size).toBeGreaterThan(3)
  })
})

describe('attribution against the raw events', () => {
  it.each(['affiliate', 'campaign', 'source', 'medium'] as const)(
    'groupBy=%s over every range',
    async (dim) => {
      for (const [start, end] of RANGES) {
        const got = await get<AttributionReport>(
          `attribution?groupBy=${dim}&startDate=${iso(start)}&endDate=${iso(end)}`,
        )
        const label = `${dim} ${iso(start)}..${iso(end)}`
        const groups = new Map<
          string,
          { installs: number; conversions: number; revenue: number; cost: number; commission: number }
        >()
        const of = (g: string) => {
          let x = groups.get(g)
          if (!x) groups.set(g, (x = { installs: 0, conversions: 0, revenue: 0, cost: 0, commission: 0 }))
          return x
        }
        const valueOf = (player: string) => T.profiles.get(player)!.attribution[dim] ?? NONE
        for (const p of T.profiles.values()) {
          const v = p.attribution[dim] ?? NONE
          if (p.installDay < start || p.installDay > end) continue
          of(v).installs++
          if (p.revenue.total > 0) of(v).conversions++
        }
        for (const r of T.revenueEvents) {
          const v = valueOf(r.player)
          if (r.day < start || r.day > end) continue
          of(v).revenue += r.micros
          of(v).commission += r.commission
        }
        for (const i of T.installs) {
          const v = valueOf(i.player)
          if (i.day >= start && i.day <= end) of(v).cost += i.cost
        }
        const want = [...groups].filter(
          ([, x]) => x.installs || x.revenue || x.cost || x.commission || x.conversions,
        )
        expect(got.data.map((r) => r.group).sort(), label).toEqual(want.map(([g]) => g).sort())
        for (const [group, x] of want) {
          const row = got.data.find((r) => r.group === group)!
          expect(row.installs, `${label} ${group}`).toBe(x.installs)
          expect(row.conversions, `${label} ${group}`).toBe(x.conversions)
          expect(row.revenue).toBeCloseTo(x.revenue / 1e6, 6)
          expect(row.cost).toBeCloseTo(x.cost / 1e6, 6)
          expect(row.commission).toBeCloseTo(x.commission / 1e6, 6)
          if (x.conversions) expectRounded6(row.avgCpa, x.cost / 1e6 / x.conversions, `${label} ${group}`)
          else expect(row.avgCpa).toBeNull()
          if (x.cost) expectRounded6(row.avgRoas, x.revenue / x.cost, `${label} ${group}`)
          else expect(row.avgRoas).toBeNull()
        }
        // Every install, conversion and amount of the range is in a row: the rows add up to the totals.
        for (const k of ['installs', 'conversions', 'revenue', 'cost', 'commission'] as const) {
          const sum = want.reduce((n, [, x]) => n + x[k], 0)
          const exact = k === 'installs' || k === 'conversions' ? sum : sum / 1e6
          expect(got.totals[k], `${label} totals ${k}`).toBeCloseTo(exact, 6)
          expect(
            got.data.reduce((n, r) => n + r[k], 0),
            `${label} sum of ${k}`,
          ).toBeCloseTo(got.totals[k], 6)
        }
        if (start <= d0 + 1 && end >= d0 + 1)
          expect(
            got.data.map((r) => r.group),
            label,
          ).toContain(NONE)
      }
    },
  )

  it('some groups have cost, commission and conversions; none without cost has a ROAS', async () => {
    const got = await get<AttributionReport>(
      `attribution?groupBy=affiliate&startDate=${iso(d0)}&endDate=${iso(d0 + DAYS - 1)}`,
    )
    expect(got.data.map((r) => r.group)).toContain(NONE)
    const named = got.data.filter((r) => r.group !== NONE)
    expect(named.length).toBe(2)
    for (const row of named) {
      expect(row.cost).toBeGreaterThan(0)
      expect(row.commission).toBeGreaterThan(0)
      expect(row.conversions).toBeGreaterThan(0)
    }
  })
})

const living = () => [...T.profiles.values()].filter((p) => !erased.has(p.playerId))

describe('segments against the profiles', () => {
  function expected(whale: number, dolphin: number) {
    const segmentOf = (micros: number) =>
      micros >= whale * 1e6 ? 'whale' : micros >= dolphin * 1e6 ? 'dolphin' : micros > 0 ? 'minnow' : 'free'
    const players = living()
    const all = players.reduce((n, p) => n + p.revenue.total, 0)
    return (['whale', 'dolphin', 'minnow', 'free'] as const).map((segment) => {
      const of = players.filter((p) => segmentOf(p.revenue.total) === segment)
      const revenue = of.reduce((n, p) => n + p.revenue.total, 0)
      return {
        segment,
        players: of.length,
        share: pct(of.length, players.length),
        revenue: revenue / 1e6,
        revenueShare: pct(revenue, all),
        avgRevenue: of.length ? round6(revenue / 1e6 / of.length) : 0,
      }
    })
  }

  it('default thresholds (whale >= 100, dolphin >= 10), erased players left out', async () => {
    const got = await get<SegmentsReport>('segments')
    expect(got.thresholds).toEqual({ whale: 100, dolphin: 10 })
    const want = expected(100, 10)
    expect(got.data.map((r) => ({ ...r, revenue: 0 }))).toEqual(want.map((r) => ({ ...r, revenue: 0 })))
    got.data.forEach((r, i) => expect(r.revenue).toBeCloseTo(want[i]!.revenue, 6))
    expect(got.data.every((r) => r.players > 0)).toBe(true)
  })

  it('new thresholds re-segment every player at once', async () => {
    const res = await t.call('PATCH', `/api/v1/admin/games/${game.id}`, {
      body: { segments: { whale: 40, dolphin: 5 } },
    })
    expect(res.statusCode, res.body).toBe(200)
    const got = await get<SegmentsReport>('segments')
    expect(got.thresholds).toEqual({ whale: 40, dolphin: 5 })
    expect(got.data.map((r) => r.players)).toEqual(expected(40, 5).map((r) => r.players))
    await t.call('PATCH', `/api/v1/admin/games/${game.id}`, {
      body: { segments: { whale: 100, dolphin: 10 } },
    })
  })
})

describe('players explorer and profile against the profiles', () => {
  const row = (p: PlayerTruth) => ({
    playerId: p.playerId,
    sessions: p.sessions,
    revenue: p.revenue.total / 1e6,
    segment:
      p.revenue.total >= 100e6
        ? 'whale'
        : p.revenue.total >= 10e6
          ? 'dolphin'
          : p.revenue.total > 0
            ? 'minnow'
            : 'free',
    lastActiveAt: new Date(p.lastActiveAt).toISOString(),
    platform: p.platform,
    country: p.country,
  })
  const byKey =
    (key: (p: PlayerTruth) => number, order: 'asc' | 'desc') => (a: PlayerTruth, b: PlayerTruth) =>
      (order === 'asc' ? 1 : -1) *
      (key(a) - key(b) || (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0))

  it('filters, sorts and pages like the profiles say', async () => {
    const cases: Array<[string, (p: PlayerTruth) => boolean, (a: PlayerTruth, b: PlayerTruth) => number]> = [
      ['', () => true, byKey((p) => p.revenue.total, 'desc')],
      ['sort=sessions&order=asc', () => true, byKey((p) => p.sessions, 'asc')],
      [
        'sort=lastActive&platform=android',
        (p) => p.platform === 'android',
        byKey((p) => p.lastActiveAt, 'desc'),
      ],
      [
        'country=de&segment=minnow',
        (p) => p.country === 'DE' && p.revenue.total > 0 && p.revenue.total < 10e6,
        byKey((p) => p.revenue.total, 'desc'),
      ],
      ['segment=free&minRevenue=0', (p) => p.revenue.total === 0, byKey((p) => p.revenue.total, 'desc')],
      ['minRevenue=19.99', (p) => p.revenue.total >= 19.99e6, byKey((p) => p.revenue.total, 'desc')],
      ['search=p12', (p) => p.playerId.startsWith('p12'), byKey((p) => p.revenue.total, 'desc')],
      [
        `lastActiveFrom=${iso(d0 + 40)}&lastActiveTo=${iso(d0 + 42)}&sort=sessions`,
        (p) => dayNo(p.lastActiveAt) >= d0 + 40 && dayNo(p.lastActiveAt) <= d0 + 42,
        byKey((p) => p.sessions, 'desc'),
      ],
    ]
    for (const [query, keep, order] of cases) {
      const want = living().filter(keep).sort(order).map(row)
      expect(want.length, query).toBeGreaterThan(0)
      const first = await get<PlayersPage>(`players?${query}&limit=50`)
      expect(first.total, query).toBe(want.length)
      expect(first.data, query).toEqual(want.slice(0, 50))
      expect(first.hasMore).toBe(want.length > 50)
      if (want.length > 50) {
        const second = await get<PlayersPage>(`players?${query}&limit=50&page=2`)
        expect(second.data, `${query} page 2`).toEqual(want.slice(50, 100))
      }
    }
  })

  it('the export source streams every explorer row by player id in keyset pages, filters applied', async () => {
    const { storage, games } = t.app.linkd.services.gaming
    const internal = (await games.record(t.orgId, game.id)).id
    const streamed: string[] = []
    // Keyset pages of 100 rows: every page boundary must neither repeat nor skip a player.
    for await (const r of storage.players.stream(internal, {}, 100)) streamed.push(r.playerId)
    const ids = living()
      .map((p) => p.playerId)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    expect(streamed).toEqual(ids)
    const whales: string[] = []
    for await (const r of storage.players.stream(internal, { platform: 'web', minRevenue: 1 }, 7))
      whales.push(r.playerId)
    expect(whales).toEqual(
      ids.filter((id) => T.profiles.get(id)!.platform === 'web' && T.profiles.get(id)!.revenue.total > 0),
    )
  })

  it('a player: profile, revenue by type and the newest events paginated; an erased player is 404', async () => {
    const paying = living().filter((p) => p.revenue.total > 0 && p.attribution.source && p.newest.length > 12)
    expect(paying.length).toBeGreaterThan(0)
    for (const p of paying.slice(0, 5)) {
      const got = await get<PlayerProfile>(`players/${p.playerId}?limit=10&page=2`)
      expect(got).toMatchObject({
        ...row(p),
        firstSeenAt: new Date(p.firstSeenAt).toISOString(),
        attribution: p.attribution,
        transactions: p.transactions,
        currency: 'USD',
      })
      expect(got.revenueByType.iap).toBeCloseTo(p.revenue.iap / 1e6, 6)
      expect(got.revenueByType.ad).toBeCloseTo(p.revenue.ad / 1e6, 6)
      expect(got.revenueByType.subscription).toBeCloseTo(p.revenue.subscription / 1e6, 6)
      expect(got.events.total).toBe(p.newest.length)
      expect(got.events.data.map((e) => e.eventId)).toEqual(p.newest.slice(10, 20).map((e) => e.event_id))
    }
    for (const id of erased) {
      const res = await t.call('GET', `/api/v1/analytics/games/${game.id}/players/${id}`)
      expect(res.statusCode).toBe(404)
    }
  })
})
