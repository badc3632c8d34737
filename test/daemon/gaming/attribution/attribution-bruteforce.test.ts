/**
 * Brute force: clicks on several smart links over 8 days, then players whose app_install carries
 * a random click id (valid, another organization's, expired, already used, malformed, none) and
 * purchases. Attribution groupBy=link over several ranges and the links' analytics equal the join
 * the test computes from the raw clicks and raw events (first install per click, in send order).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { GameEventInput } from '../../../../src/contract/gaming.js'
import type { AttributionReport } from '../../../../src/contract/gaming-revenue.js'
import type { SmartLink } from '../../../../src/contract/smart-links.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, send } from '../../../support/gaming.js'
import { prng } from '../../../support/prng.js'
import { analytics, SAFARI_IPHONE, visit } from '../../../support/redirect.js'

const DAY = 86_400_000
const D0 = Date.parse('2026-11-01T00:00:00.000Z')
const DAYS = 8
const WINDOW = 3
const TOLERANCE = 5 * 60_000
const dayNo = (ms: number) => Math.floor(ms / DAY)
const iso = (day: number) => new Date(day * DAY).toISOString().slice(0, 10)

const rand = prng(29)
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!

interface Click {
  id: string
  linkId: string
  ts: number
  foreign: boolean
}
interface Credit {
  linkId: string
  installDay: number
  cost: number
}

let t: TestApp
let game: GameWithSecrets
const links: SmartLink[] = []
const credits = new Map<string, Credit>()
/** Every player's install: its day and cost (micros). */
const installs = new Map<string, { installDay: number; cost: number }>()
/** Purchases (player, day, micros) of every player. */
const purchases: Array<{ player: string; day: number; micros: number }> = []

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 1_000_000, ingestRateLimitPerClient: 1_000_000 })
  t.clock.set(D0 + 8 * 3_600_000)
  game = await createGame(t, { slug: 'brute', attributionWindowDays: WINDOW })
  const other = await t.createOrg('other')
  const make = async (i: number, key?: string) => {
    const res = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: `https://example.com/g${i}?utm_source=s${i % 3}&utm_campaign=c${i}` },
      ...(key ? { key } : {}),
    })
    expect(res.statusCode, res.body).toBe(201)
    return res.json<SmartLink>()
  }
  for (let i = 0; i < 5; i++) links.push(await make(i))
  const foreignLink = await make(9, other.ownerKey)

  const clicks: Click[] = []
  const claimed = new Set<string>()
  let n = 0
  for (let d = 0; d < DAYS; d++) {
    t.clock.set(D0 + d * DAY + 3_600_000)
    // The day's clicks, minutes apart.
    for (let c = 0; c < 25; c++) {
      t.clock.advance(60_000 + Math.floor(rand() * 600_000))
      const foreign = rand() < 0.15
      const link = foreign ? foreignLink : pick(links)
      const res = await visit(t, link.shortCode, { ua: SAFARI_IPHONE })
      const id = new URL(String(res.headers.location)).searchParams.get('linkd_click')!
      clicks.push({ id, linkId: link.id, ts: t.clock.now(), foreign })
    }
    // The day's players, in a few batches sent in order; each batch's events in random order.
    for (let b = 0; b < 3; b++) {
      t.clock.advance(3_600_000)
      const events: Array<GameEventInput & { ts: number }> = []
      for (let p = 0; p < 12; p++) {
        const player = `p${n++}`
        const r = rand()
        const ts = t.clock.now() - Math.floor(rand() * 1_800_000)
        let clickId: string | undefined
        if (r < 0.45) clickId = pick(clicks.filter((c) => !c.foreign && c.ts >= ts - WINDOW * DAY)).id
        else if (r < 0.55) clickId = pick(clicks.filter((c) => c.foreign).concat(clicks)).id
        else if (r < 0.65)
          clickId = pick(clicks).id // any: often expired or already used
        else if (r < 0.7) clickId = 'clk_unknown' + p
        else if (r < 0.75) clickId = 'not-a-click'
        const cost = rand() < 0.3 ? Math.round(rand() * 300) / 100 : 0
        const data: Record<string, unknown> = {
          ...(clickId ? { click_id: clickId } : {}),
          ...(cost ? { cost } : {}),
        }
        installs.set(player, { installDay: dayNo(ts), cost: Math.round(cost * 1e6) })
        events.push({
          event_id: randomUUID(),
          event_type: 'app_install',
          player_id: player,
          timestamp: new Date(ts).toISOString(),
          data,
          ts,
        })
        const buys = rand() < 0.5 ? 1 + Math.floor(rand() * 3) : 0
        for (let k = 0; k < buys; k++) {
          const at = ts + 1000 + k * 1000
          const amount = Math.round(rand() * 2000) / 100 + 0.01
          events.push({
            event_id: randomUUID(),
            event_type: 'purchase',
            player_id: player,
            timestamp: new Date(at).toISOString(),
            data: { amount, currency: 'USD' },
            ts: at,
          })
          purchases.push({ player, day: dayNo(at), micros: Math.round(amount * 1e6) })
        }
      }
      events.sort(() => rand() - 0.5)
      // Truth: the batch's installs in time order; the first valid one per click is credited.
      for (const e of [...events].sort((x, y) => x.ts - y.ts)) {
        if (e.event_type !== 'app_install') continue
        const c = clicks.find((x) => x.id === (e.data as { click_id?: string }).click_id)
        if (!c || c.foreign || claimed.has(c.id)) continue
        if (e.ts < c.ts - TOLERANCE || e.ts > c.ts + WINDOW * DAY) continue
        claimed.add(c.id)
        const cost = Math.round((((e.data as { cost?: number }).cost ?? 0) as number) * 1e6)
        credits.set(e.player_id, { linkId: c.linkId, installDay: dayNo(e.ts), cost })
      }
      const res = accepted(
        await send(
          t,
          batch(
            t,
            events.map(({ ts: _, ...e }) => e),
          ),
          { game, orgId: t.orgId },
        ),
      )
      expect(res.accepted).toBe(events.length)
    }
  }
}, 300_000)
afterAll(() => t.close())

const RANGES: Array<[number, number]> = [
  [dayNo(D0), dayNo(D0) + DAYS - 1],
  [dayNo(D0) + 2, dayNo(D0) + 4],
  [dayNo(D0) + 5, dayNo(D0) + 5],
]

describe('attribution by link against the join of raw clicks and events', () => {
  it('the data set has credited, refused and duplicate click ids', () => {
    expect(credits.size).toBeGreaterThan(40)
    expect(new Set([...credits.values()].map((c) => c.linkId)).size).toBe(links.length)
  })

  it.each(RANGES)('groupBy=link over %s..%s', async (start, end) => {
    const res = await t.call(
      'GET',
      `/api/v1/analytics/games/${game.id}/attribution?groupBy=link&startDate=${iso(start)}&endDate=${iso(end)}`,
    )
    expect(res.statusCode, res.body).toBe(200)
    const got = res.json<AttributionReport>()
    const want = new Map<string, { installs: number; conversions: number; revenue: number; cost: number }>()
    const of = (id: string) => {
      let x = want.get(id)
      if (!x) want.set(id, (x = { installs: 0, conversions: 0, revenue: 0, cost: 0 }))
      return x
    }
    // A player without a credited click is in the (none) row.
    const groupOf = (player: string) => credits.get(player)?.linkId ?? '(none)'
    for (const [player, i] of installs) {
      if (i.installDay < start || i.installDay > end) continue
      of(groupOf(player)).installs++
      of(groupOf(player)).cost += i.cost
      if (purchases.some((p) => p.player === player)) of(groupOf(player)).conversions++
    }
    for (const p of purchases) if (p.day >= start && p.day <= end) of(groupOf(p.player)).revenue += p.micros
    const rows = [...want].filter(([, x]) => x.installs || x.revenue || x.cost || x.conversions)
    expect(got.data.map((r) => r.group).sort()).toEqual(rows.map(([id]) => id).sort())
    for (const [id, x] of rows) {
      const row = got.data.find((r) => r.group === id)!
      const label = `${id} ${iso(start)}..${iso(end)}`
      expect(row.shortUrl, label).toBe(links.find((l) => l.id === id)?.shortUrl ?? null)
      expect(row.installs, label).toBe(x.installs)
      expect(row.conversions, label).toBe(x.conversions)
      expect(row.revenue, label).toBeCloseTo(x.revenue / 1e6, 6)
      expect(row.cost, label).toBeCloseTo(x.cost / 1e6, 6)
    }
    // Every install of the range is in a row; the rows add up to the totals.
    expect(got.totals.installs).toBe(
      [...installs.values()].filter((i) => i.installDay >= start && i.installDay <= end).length,
    )
    for (const k of ['installs', 'conversions', 'revenue', 'cost', 'commission'] as const)
      expect(
        got.data.reduce((n, r) => n + r[k], 0),
        k,
      ).toBeCloseTo(got.totals[k], 6)
  })

  it("each link's analytics: installs and their revenue over the whole period", async () => {
    for (const link of links) {
      const a = await analytics(
        t,
        link.id,
        `startDate=${new Date(D0).toISOString()}&endDate=${new Date(D0 + DAYS * DAY - 1).toISOString()}`,
      )
      const players = [...credits].filter(([, c]) => c.linkId === link.id).map(([p]) => p)
      const revenue = purchases.filter((p) => players.includes(p.player)).reduce((s, p) => s + p.micros, 0)
      expect(a.installs, link.id).toBe(players.length)
      expect(a.installRevenue).toHaveLength(1)
      expect(a.installRevenue![0]).toMatchObject({
        gameId: 'brute',
        currency: 'USD',
        installs: players.length,
      })
      expect(a.installRevenue![0]!.revenue).toBeCloseTo(revenue / 1e6, 6)
    }
  })
})
