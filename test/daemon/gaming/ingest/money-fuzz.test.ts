/**
 * The money paths under hostile amounts, with nothing but the SDK key: random and extreme
 * amounts, costs, commissions, currencies and exchange rates (1e308, -0, "NaN", 1e999, huge
 * strings, …). Never a 5xx; an out-of-bounds event is a per-event error; a day's revenue that
 * would pass the money ceiling saturates there without refusing later purchases; every report
 * and export answers with finite sums (1,000,000 EUR at rate 1e300 was stored as Infinity on
 * SQLite and overflowed a 64-bit column on PostgreSQL).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { IngestResult } from '../../../../src/contract/gaming.js'
import { EXPORT_TYPES, INGEST_LIMITS as L } from '../../../../src/contract/limits.js'
import { MONEY_SUM_MAX_MICROS } from '../../../../daemon/modules/gaming/storage/types.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { HOSTILE_STRINGS, HUGE, HUGE_NUMBERS } from '../../../support/fuzz-values.js'
import { RawJson, pick, serialize, type Val } from '../../../support/openapi-fuzz.js'
import { prng } from '../../../support/prng.js'
import { accepted, batch, createGame, event, send, type SendOpts } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
let o: SendOpts
beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 1_000_000, ingestRateLimitPerClient: 1_000_000 })
  game = await createGame(t, { modules: { fraud: true }, reportingCurrency: 'USD' })
  o = { game, orgId: t.orgId }
})
afterAll(() => t.close())

const MONEY_TYPES = ['purchase', 'item_purchased', 'subscription_start', 'subscription_renew', 'ad_watched']
/** Values a real client sends, and hostile ones (half of the picks each). */
const AMOUNTS = {
  fine: [0, 0.01, 4.99, 99.99, L.amountMax, new RawJson('-0'), 5e-324],
  hostile: [
    ...HUGE_NUMBERS,
    L.amountMax + 0.01,
    -1,
    -5e-324,
    new RawJson('1e-400'),
    HUGE,
    '4.99',
    null,
    true,
    [1],
    { amount: 1 },
  ],
}
const RATES = {
  fine: [0.9, 1.1, 1000, L.exchangeRateMax, 1e-300],
  hostile: [...HUGE_NUMBERS, 1e300, L.exchangeRateMax * 1.0001, 0, -1, HUGE, null],
}
const CURRENCIES = {
  fine: ['USD', 'EUR', 'JPY', 'XAU'],
  hostile: ['usd', 'ZZZ', '', HUGE, 1, ...HOSTILE_STRINGS],
}
type Values = { fine: readonly Val[]; hostile: readonly Val[] }

/** One money event with hostile fields, as JSON text (RawJson numbers kept as written). */
function hostileEvent(rng: () => number, player: string): string {
  const type = pick(rng, [...MONEY_TYPES, 'app_install'])
  const data: Record<string, Val> = {}
  const maybe = (field: string, values: Values, chance = 0.8) => {
    if (rng() < chance) data[field] = pick(rng, rng() < 0.5 ? values.fine : values.hostile)
  }
  maybe(type === 'app_install' ? 'cost' : 'amount', AMOUNTS, 0.95)
  maybe('currency', CURRENCIES)
  maybe('exchange_rate', RATES, 0.6)
  maybe('commission', AMOUNTS, 0.3)
  const base = event(t, { event_type: type, player_id: player, data: { marker: 1 } })
  return JSON.stringify(base).replace('{"marker":1}', serialize(data))
}

const batchOf = (events: string[]) =>
  `{"batch_id":"${randomUUID()}","batch_timestamp":"${new Date(t.clock.now()).toISOString()}","events":[${events.join(',')}]}`

/** Every number in a JSON value. */
function numbersIn(v: unknown, out: number[] = []): number[] {
  if (typeof v === 'number') out.push(v)
  else if (Array.isArray(v)) for (const x of v) numbersIn(x, out)
  else if (v && typeof v === 'object') for (const x of Object.values(v)) numbersIn(x, out)
  return out
}

const get = (path: string) => t.call('GET', `/api/v1/analytics/games/${game.id}/${path}`)

/** The money reports and exports: 200, and no number that is not finite anywhere in them. */
async function reportsAreFinite(): Promise<void> {
  const paths = [
    'overview',
    'revenue',
    'revenue?groupBy=platform',
    'revenue?groupBy=source',
    'attribution',
    'segments',
    'players?sort=revenue',
    ...EXPORT_TYPES.flatMap((type) => [`export?type=${type}&format=json`, `export?type=${type}&format=csv`]),
  ]
  for (const path of paths) {
    const res = await get(path)
    expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200)
    expect(res.body, path).not.toMatch(/Infinity|NaN|e\+\d/)
    if (path.includes('format=csv')) continue
    const body: unknown = res.json()
    for (const n of numbersIn(body)) expect(Number.isFinite(n), path).toBe(true)
  }
  const fraud = await t.call('GET', `/api/v1/admin/fraud/games/${game.id}/dashboard`)
  expect(fraud.statusCode, fraud.body).toBe(200)
  for (const n of numbersIn(fraud.json())) expect(Number.isFinite(n)).toBe(true)
}

describe('money paths with the SDK key', () => {
  it('1,000,000 EUR at rate 1e300 is a per-event error; the rest of the batch is stored', async () => {
    const huge = event(t, {
      event_type: 'purchase',
      data: { amount: 1_000_000, currency: 'EUR', exchange_rate: 1e300 },
    })
    const convertedTooMuch = event(t, {
      event_type: 'purchase',
      data: { amount: 1_000_000, currency: 'EUR', exchange_rate: 1001 },
    })
    const highCommission = event(t, {
      event_type: 'purchase',
      data: { amount: 1, currency: 'EUR', exchange_rate: 1e9, commission: 2 },
    })
    const fine = event(t, {
      event_type: 'purchase',
      data: { amount: 4.99, currency: 'EUR', exchange_rate: 1.1 },
    })
    const r = accepted(await send(t, batch(t, [huge, convertedTooMuch, highCommission, fine]), o))
    expect(r).toMatchObject({ accepted: 1, rejected: 3 })
    expect(r.errors).toEqual([
      {
        index: 0,
        eventId: huge.event_id,
        error: 'InvalidEvent',
        message: 'data.exchange_rate must be at most 1,000,000,000 USD per 1 EUR',
      },
      {
        index: 1,
        eventId: convertedTooMuch.event_id,
        error: 'InvalidEvent',
        message: 'data.amount × data.exchange_rate must be at most 1,000,000,000 USD',
      },
      {
        index: 2,
        eventId: highCommission.event_id,
        error: 'InvalidEvent',
        message: 'data.commission × data.exchange_rate must be at most 1,000,000,000 USD',
      },
    ])
  })

  it(
    'random hostile amounts, currencies and rates: never a 5xx, sums finite',
    { timeout: 120_000 },
    async () => {
      const rng = prng(0x6d6f6e79)
      let stored = 0
      for (let b = 0; b < 30; b++) {
        const events = Array.from({ length: 40 }, (_, i) => hostileEvent(rng, `fuzz-${(b * 40 + i) % 7}`))
        const res = await send(t, batchOf(events), o)
        expect(res.statusCode, res.body.slice(0, 500)).toBe(202)
        const r = res.json<IngestResult>()
        expect(r.accepted + r.rejected + r.blocked + r.duplicates).toBe(40)
        for (const e of r.errors) expect(e.message).not.toMatch(/Infinity|NaN/)
        stored += r.accepted
      }
      // The generator is fair enough that both sides happen.
      expect(stored).toBeGreaterThan(50)
      expect(stored).toBeLessThan(1200)
      await reportsAreFinite()
    },
  )

  it('a day past the money ceiling saturates; later purchases of the day are still stored', async () => {
    // Each at the largest converted amount (1e9 USD): ten of them pass the ceiling of one day,
    // of one player, of the player's lifetime and of the game's dimensions.
    const top = () =>
      event(t, {
        event_type: 'purchase',
        player_id: 'whale-at-the-ceiling',
        data: { amount: 1_000_000, currency: 'EUR', exchange_rate: 1000, commission: 1_000_000 },
      })
    for (let i = 0; i < 3; i++)
      expect(accepted(await send(t, batch(t, Array.from({ length: 12 }, top)), o))).toMatchObject({
        accepted: 12,
        rejected: 0,
      })
    // Another purchase of the same day, by another player: stored as usual.
    const later = accepted(
      await send(
        t,
        batch(t, [event(t, { event_type: 'purchase', data: { amount: 4.99, currency: 'USD' } })]),
        o,
      ),
    )
    expect(later).toMatchObject({ accepted: 1, rejected: 0 })
    const ceiling = MONEY_SUM_MAX_MICROS / 1e6
    const overview = (await get('overview')).json<{ revenue: { total: number; iap: number } }>()
    expect(overview.revenue.iap).toBeLessThanOrEqual(ceiling)
    expect(overview.revenue.iap).toBeGreaterThan(ceiling * 0.99)
    const player = await get('players/whale-at-the-ceiling')
    expect(player.statusCode, player.body).toBe(200)
    for (const n of numbersIn(player.json())) expect(Number.isFinite(n)).toBe(true)
    await reportsAreFinite()
  })
})
