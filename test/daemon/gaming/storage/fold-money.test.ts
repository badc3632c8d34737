/** The revenue layer of the fold: lifetime sums, first purchase and new paying days. */
import { describe, expect, it } from 'vitest'
import { foldRevenue } from '../../../../daemon/modules/gaming/storage/fold/money.js'
import type { LiveDay } from '../../../../daemon/modules/gaming/storage/fold/state.js'
import { D, DAY, MIN, T0, ev, live, profile, snapshot, state } from './fold-fixtures.js'

const day = (over: Partial<LiveDay> = {}): LiveDay => ({
  player_id: 'p1',
  day: D,
  install_day: D - 3,
  events: 1,
  revenue_micros: 0,
  event_types: 1,
  custom_events: null,
  payingBefore: false,
  isNew: true,
  ...over,
})
const buy = (ts: number, revenueMicros: number) =>
  ev({ ts, type: 'purchase', revenueType: 'iap', revenueMicros })

describe('fold: money', () => {
  it("a player's first paid event: sums, first purchase, a conversion and a new paying day between stored ones", () => {
    const st = state(snapshot({ payingNeighbours: new Map([[`p1\n${D}`, { prev: D - 2, next: D + 1 }]]) }))
    const p = live(profile({ affiliate: 'aff-1', source: 'google' }))
    const pd = day()
    foldRevenue(st, p, pd, buy(T0, 2_500))
    foldRevenue(st, p, pd, buy(T0 + MIN, 500)) // same day: no new paying day, no new first purchase
    expect([
      p.transactions,
      p.revenue_iap_micros,
      p.revenue_total_micros,
      p.first_purchase_at,
      p.dirty,
    ]).toEqual([2, 3_000, 3_000, T0, true])
    expect(pd.revenue_micros).toBe(3_000)
    expect([...st.acquisition.values()].map((a) => [a.day - D, a.dim, a.conversions])).toEqual([
      [-3, 'affiliate', 1],
      [-3, 'campaign', 1],
      [-3, 'source', 1],
      [-3, 'medium', 1],
      [-3, 'link', 1],
    ])
    const split = [
      [0, -2, 1],
      [1, -2, -1],
      [1, 0, 1],
    ]
    expect([...st.gaps.values()].map((g) => [g.kind, g.day - D, g.prevDay - D, g.players])).toEqual(
      split.map((g) => ['paying', ...g]),
    )
    expect([...st.dimPayingGaps.values()].map((g) => [g.dim, g.day - D, g.prevDay - D, g.players])).toEqual([
      ...split.map((g) => ['platform', ...g]),
      ...split.map((g) => ['source', ...g]),
    ])
    expect(st.daily.get(D)?.paying_players).toBe(1)
    expect([...st.dims.values()].map((d) => [d.dim, d.counters.paying_players])).toEqual([
      ['platform', 1],
      ['country', 1],
      ['affiliate', 1],
      ['campaign', 1],
      ['source', 1],
      ['medium', 1],
      ['link', 1],
    ])
  })

  it('a day paying in the table is no new paying day; an earlier purchase moves the first purchase back', () => {
    const st = state()
    const p = live(profile({ first_purchase_at: T0 + DAY, transactions: 3, revenue_iap_micros: 10 }))
    const pd = day({ revenue_micros: 7, payingBefore: true, isNew: false })
    foldRevenue(st, p, pd, buy(T0, 5))
    expect([p.first_purchase_at, p.transactions, p.revenue_iap_micros, pd.revenue_micros]).toEqual([
      T0,
      4,
      15,
      12,
    ])
    expect([st.gaps.size, st.acquisition.size, st.daily.size]).toEqual([0, 0, 0])
  })

  it('a zero amount is a transaction only; an event without revenue changes nothing', () => {
    const st = state()
    const p = live(profile())
    const pd = day()
    foldRevenue(st, p, pd, buy(T0, 0))
    foldRevenue(st, p, pd, ev({ ts: T0 }))
    expect([p.transactions, p.revenue_total_micros, p.first_purchase_at, p.dirty, pd.revenue_micros]).toEqual(
      [1, 0, null, true, 0],
    )
    expect([st.gaps.size, st.acquisition.size, st.daily.size, st.dims.length]).toEqual([0, 0, 0, 0])
  })
})
