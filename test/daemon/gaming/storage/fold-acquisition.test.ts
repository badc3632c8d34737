/** The acquisition layer of the fold: cost, commission, conversions and paying players per dimension. */
import { describe, expect, it } from 'vitest'
import {
  acquisitionChanges,
  addConversion,
  addCostAndCommission,
  addPayingDimDay,
  moveConversion,
} from '../../../../daemon/modules/gaming/storage/fold/acquisition.js'
import { MONEY_SUM_MAX_MICROS, NO_DAY } from '../../../../daemon/modules/gaming/storage/types.js'
import { D, T0, ev, profile, state } from './fold-fixtures.js'

const attributed = profile({ affiliate: 'aff-1', campaign: null, source: 'google', medium: 'cpi' })

describe('fold: acquisition', () => {
  it("cost and commission on the event's day, per attribution value ('' when missing), saturating at the ceiling", () => {
    const st = state()
    addCostAndCommission(st, attributed, ev({ ts: T0, costMicros: 300, commissionMicros: 0 }))
    addCostAndCommission(
      st,
      attributed,
      ev({ ts: T0, costMicros: MONEY_SUM_MAX_MICROS, commissionMicros: 40 }),
    )
    addCostAndCommission(st, attributed, ev({ ts: T0 }))
    expect(acquisitionChanges(st).acquisition).toEqual(
      (
        [
          ['affiliate', 'aff-1'],
          ['campaign', ''],
          ['source', 'google'],
          ['medium', 'cpi'],
          ['link', ''],
        ] as const
      ).map(([dim, value]) => ({
        day: D,
        dim,
        value,
        cost_micros: MONEY_SUM_MAX_MICROS,
        commission_micros: 40,
        conversions: 0,
      })),
    )
  })

  it('a conversion counts on the install day; a moved install moves it, and rows back at zero are left out', () => {
    const st = state()
    addConversion(st, attributed)
    moveConversion(st, { ...attributed, first_purchase_at: null }, D - 3, D - 4) // not converted: nothing
    moveConversion(st, { ...attributed, first_purchase_at: T0 }, D - 3, D - 4)
    expect(acquisitionChanges(st).acquisition.map((a) => [a.day - D, a.dim, a.conversions])).toEqual([
      [-4, 'affiliate', 1],
      [-4, 'campaign', 1],
      [-4, 'source', 1],
      [-4, 'medium', 1],
      [-4, 'link', 1],
    ])
  })

  it("a new paying day counts per platform and source ('' when missing); increments back at zero are left out", () => {
    const st = state()
    addPayingDimDay(st, attributed, D, { prev: D - 2, next: D + 1 })
    // Another player without a source, first paying on D + 1 after D - 2: counted under source ''.
    addPayingDimDay(st, profile({ source: null }), D + 1, { prev: D - 2, next: null })
    addPayingDimDay(st, profile({ platform: 'web', source: null }), D + 5, { prev: NO_DAY, next: null })
    expect(
      acquisitionChanges(st).dimPayingGaps.map((g) => [g.dim, g.value, g.day - D, g.prevDay, g.players]),
    ).toEqual([
      ['platform', 'ios', 0, D - 2, 1],
      ['platform', 'ios', 1, D, 1],
      ['source', 'google', 0, D - 2, 1],
      ['source', 'google', 1, D - 2, -1],
      ['source', 'google', 1, D, 1],
      ['source', '', 1, D - 2, 1],
      ['platform', 'web', 5, NO_DAY, 1],
      ['source', '', 5, NO_DAY, 1],
    ])
  })
})
