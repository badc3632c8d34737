/**
 * The pure SKAN schema optimizer: bucket edges recover known payer-revenue
 * quantiles, the key events are the ones revenue goes with, the expected error is the one
 * computed by hand, and too little history is a 422.
 */
import { describe, expect, it } from 'vitest'
import { AppError } from '../../../../daemon/http/errors.js'
import { EVENT_TYPE_BY_BIT } from '../../../../daemon/modules/gaming/storage/types.js'
import { checkedSchema } from '../../../../daemon/modules/gaming/skan/conversion-schema.js'
import {
  optimize,
  type ConversionSchema,
  type History,
} from '../../../../daemon/modules/gaming/skan/optimize.js'
import { prng } from '../../../support/prng.js'

interface Player {
  revenue: number
  events?: string[]
}

function history(players: Player[]): History {
  const mask = (events: string[] = []) =>
    events.reduce((m, e) => {
      const bit = EVENT_TYPE_BY_BIT.indexOf(e)
      if (bit < 0) throw new Error(`unknown type ${e}`)
      return m | (1 << bit)
    }, 0)
  return {
    revenueMicros: players.map((p) => Math.round(p.revenue * 1_000_000)),
    eventTypes: players.map((p) => mask(p.events)),
    typeByBit: EVENT_TYPE_BY_BIT,
  }
}

const DEFAULT_SCHEMA: ConversionSchema = {
  events: {},
  coarseValues: { low: { min: 0, max: 10 }, medium: { min: 11, max: 40 }, high: { min: 41, max: 63 } },
  lockWindow: 24,
}
const run = (players: Player[], current: ConversionSchema = DEFAULT_SCHEMA, eventBits?: number) =>
  optimize(history(players), {
    current,
    lockWindowHours: 24,
    ...(eventBits === undefined ? {} : { eventBits }),
  })

const repeat = (n: number, make: (i: number) => Player) => Array.from({ length: n }, (_, i) => make(i))

/** Lower revenue edge of each payer bucket of a proposal. */
const edges = (p: ReturnType<typeof run>) => p.buckets.slice(1).map((b) => b.revenueRange.min)

describe('bucket edges are payer-revenue quantiles', () => {
  it('payers spending 1..1500 with two key events: 15 buckets starting at 1, 101, …, 1401, 100 payers each', () => {
    const players = [
      ...repeat(1500, (i) => ({ revenue: i + 1, events: ['tutorial_complete', 'level_complete'] })),
      ...repeat(500, () => ({ revenue: 0 })),
    ]
    const p = run(players)
    expect(p.installs).toBe(2000)
    expect(p.payers).toBe(1500)
    expect(p.keyEvents.map((e) => e.event).sort()).toEqual(['level_complete', 'tutorial_complete'])
    expect(edges(p)).toEqual(Array.from({ length: 15 }, (_, j) => 100 * j + 1))
    expect(p.buckets.slice(1).map((b) => b.players)).toEqual(Array(15).fill(100))
    expect(p.buckets[0]).toMatchObject({ players: 500, share: 0.25, decodedRevenue: 0 })
    // Closed buckets decode to their midpoint; the open top bucket (1401-1500) to its mean.
    expect(p.buckets[1]!.decodedRevenue).toBe(51)
    expect(p.buckets[15]).toMatchObject({ revenueRange: { min: 1401, max: null }, decodedRevenue: 1450.5 })
  })

  it('Pareto payer revenue (seeded): the edges recover the distribution quantiles within 5%', () => {
    // Pareto(x_m = 0.99, α = 1.2): heavy-tailed like game revenue, quantile(q) = x_m (1-q)^(-1/α).
    const rand = prng(7)
    const xm = 0.99
    const alpha = 1.2
    const players = repeat(60_000, (i) =>
      i % 3 === 0 ? { revenue: xm * (1 - rand()) ** (-1 / alpha) } : { revenue: 0 },
    )
    const p = run(players)
    expect(p.payers).toBe(20_000)
    expect(p.keyEvents).toEqual([])
    // No key event: all six bits for revenue, 63 payer buckets.
    const got = edges(p)
    expect(got).toHaveLength(63)
    for (let j = 1; j < 63; j++) {
      const want = xm * (1 - j / 63) ** (-1 / alpha)
      expect(Math.abs(got[j]! - want) / want, `edge ${j}`).toBeLessThan(0.05)
    }
  })

  it('few payers: at least 10 per bucket; equal amounts share one bucket', () => {
    const few = run([...repeat(30, (i) => ({ revenue: i + 1 })), ...repeat(70, () => ({ revenue: 0 }))])
    expect(edges(few)).toEqual([1, 11, 21])
    const ties = run([...repeat(50, () => ({ revenue: 0.99 })), ...repeat(50, () => ({ revenue: 0 }))])
    expect(ties.buckets).toHaveLength(2)
    expect(ties.buckets[1]).toMatchObject({ players: 50, decodedRevenue: 0.99 })
  })
})

describe('schema layout', () => {
  const players = [
    // Payers completed the tutorial and won battles; level_start is done by everyone alike.
    ...repeat(300, (i) => ({
      revenue: (i % 30) + 1,
      events: ['tutorial_complete', 'battle_won', 'level_start', 'purchase'],
    })),
    ...repeat(700, (i) => ({
      revenue: 0,
      events: i % 7 === 0 ? ['tutorial_complete', 'level_start'] : ['level_start'],
    })),
  ]
  const p = run(players)

  it('key events are those revenue goes with (never a revenue event), in the low bits', () => {
    expect(p.keyEvents.map((e) => [e.event, e.value])).toEqual([
      ['battle_won', 1],
      ['tutorial_complete', 2],
    ])
    expect(p.keyEvents[0]).toMatchObject({ players: 300, share: 0.3 })
    expect(p.proposed.events).toMatchObject({ battle_won: 1, tutorial_complete: 2 })
    expect(p.proposed.events.purchase).toBeUndefined()
    expect(p.proposed.events.level_start).toBeUndefined()
  })

  it('the bucket index fills the high bits as revenue_bucket_<weight> events; coarse bands follow revenue', () => {
    // 300 payers → 15 buckets (4 bits) above the 2 event bits.
    expect(p.buckets).toHaveLength(16)
    expect(p.proposed.events).toMatchObject({
      revenue_bucket_1: 4,
      revenue_bucket_2: 8,
      revenue_bucket_4: 16,
      revenue_bucket_8: 32,
    })
    expect(p.proposed.coarseValues).toEqual({
      low: { min: 0, max: 3 },
      medium: { min: 4, max: 35 },
      high: { min: 36, max: 63 },
    })
    expect(p.proposed.lockWindow).toBe(24)
    // A payer of 1-2 with both events: bucket 1, bits 1 + 2 → value 7.
    const seven = p.values.find((v) => v.value === 7)!
    expect(seven).toMatchObject({ bucket: 1, events: ['battle_won', 'tutorial_complete'], players: 20 })
    // Non-payers with the tutorial only: value 2; the others: value 0.
    expect(p.values.find((v) => v.value === 2)!.players).toBe(100)
    expect(p.values.find((v) => v.value === 0)!.players).toBe(600)
    expect(p.values.reduce((n, v) => n + v.players, 0)).toBe(1000)
    expect(p.proposed.decodedRevenue!.fine!['7']).toBe(p.buckets[1]!.decodedRevenue)
    expect(p.proposed.decodedRevenue!.coarse!.low).toBe(0)
  })
})

describe('expected error against the true revenue of the history', () => {
  it('20 payers of 1..20 among 100 installs, computed by hand', () => {
    // 2 buckets: 1-10 decodes to the midpoint of [1, 11) = 6, 11-20 (open) to its mean 15.5.
    const p = run([...repeat(20, (i) => ({ revenue: i + 1 })), ...repeat(80, () => ({ revenue: 0 }))])
    expect(p.buckets.map((b) => b.decodedRevenue)).toEqual([0, 6, 15.5])
    expect(p.expectedError).toEqual({
      revenue: 210,
      estimatedRevenue: 215, // 10 × 6 + 10 × 15.5
      relativeError: Math.round((5 / 210) * 1e6) / 1e6,
      meanAbsoluteError: 0.5, // (25 + 25) / 100
    })
  })

  it('the current schema decodes with its own decodedRevenue (0 where it has none)', () => {
    const players = [
      ...repeat(10, (i) => ({ revenue: i + 1, events: ['tutorial_complete'] })),
      ...repeat(90, () => ({ revenue: 0 })),
    ]
    const current: ConversionSchema = {
      ...DEFAULT_SCHEMA,
      events: { tutorial_complete: 4 },
      decodedRevenue: { fine: { '4': 5 } },
    }
    const p = run(players, current)
    // Every tutorial player decodes to 5: total 50 against 55; |5 - i| sums to 25 over 10 payers.
    expect(p.currentError).toEqual({
      revenue: 55,
      estimatedRevenue: 50,
      relativeError: Math.round((-5 / 55) * 1e6) / 1e6,
      meanAbsoluteError: 0.25,
    })
    expect(p.current).toEqual(current)
    const none = run(players, { ...current, decodedRevenue: undefined })
    expect(none.currentError).toMatchObject({
      estimatedRevenue: 0,
      relativeError: -1,
      meanAbsoluteError: 0.55,
    })
  })

  it('a current schema with revenue buckets or custom events cannot be replayed: null and the reason', () => {
    const players = repeat(100, (i) => ({ revenue: i % 2 }))
    const p = run(players, { ...DEFAULT_SCHEMA, events: { revenue_bucket_1: 4 } })
    expect(p.currentError).toBeNull()
    expect(p.currentErrorReason).toMatch(/revenue_bucket_1 is not a named event type/)
    expect(run(players).currentErrorReason).toBeNull()
  })

  it('no revenue at all: a valid proposal whose relative error is null', () => {
    const p = run(repeat(100, () => ({ revenue: 0, events: ['level_start'] })))
    expect(p.payers).toBe(0)
    expect(p.buckets).toHaveLength(1)
    expect(p.expectedError).toEqual({
      revenue: 0,
      estimatedRevenue: 0,
      relativeError: null,
      meanAbsoluteError: 0,
    })
    expect(p.proposed.coarseValues.high.max).toBe(63)
  })
})

describe("the campaigns' schema validation accepts every proposal", () => {
  const funnel = [
    'tutorial_complete',
    'level_complete',
    'battle_won',
    'friend_invited',
    'achievement_unlocked',
  ]
  // Payers did more of the funnel: every funnel event goes with revenue.
  const players = (payers: number) => [
    ...repeat(payers, (i) => ({ revenue: (i % 97) + 0.99, events: funnel.slice(0, (i % 5) + 1) })),
    ...repeat(400, (i) => ({ revenue: 0, events: funnel.slice(0, i % 2) })),
  ]
  for (const eventBits of [0, 1, 2, 3, 4])
    for (const payers of [0, 5, 35, 2000])
      it(`${eventBits} event bits, ${payers} payers`, () => {
        const p = run(players(payers), DEFAULT_SCHEMA, eventBits)
        expect(p.keyEvents).toHaveLength(payers === 0 ? 0 : eventBits)
        expect(checkedSchema(p.proposed, 24)).toEqual(p.proposed)
        // Every player's value is one the schema decodes.
        for (const v of p.values)
          expect(p.proposed.decodedRevenue!.fine![String(v.value)]).toBe(v.decodedRevenue)
        expect(p.values.reduce((n, v) => n + v.players, 0)).toBe(p.installs)
      })
})

describe('too little history', () => {
  it('99 installs: 422 saying so; 100 installs: a proposal', () => {
    const players = repeat(100, (i) => ({ revenue: i < 20 ? i + 1 : 0 }))
    let error: unknown
    try {
      run(players.slice(0, 99))
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).status).toBe(422)
    expect((error as AppError).message).toMatch(/99 installs .* at least 100 needed/)
    expect(run(players).installs).toBe(100)
  })
})
