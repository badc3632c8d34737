/** The distinct-player counters the fold's layers share: day gaps and cohorts. */
import { describe, expect, it } from 'vitest'
import {
  addDay,
  cohort,
  gapChanges,
  withBatchDays,
} from '../../../../daemon/modules/gaming/storage/fold/gaps.js'
import { NO_DAY } from '../../../../daemon/modules/gaming/storage/types.js'
import { D, state } from './fold-fixtures.js'

describe('fold: gaps and cohorts', () => {
  it("the neighbours of a day take the batch's own days in", () => {
    expect(withBatchDays({ prev: D - 5, next: D + 5 }, D, [D - 7, D - 2, D + 3, D + 9])).toEqual({
      prev: D - 2,
      next: D + 3,
    })
    expect(withBatchDays({ prev: NO_DAY, next: null }, D, undefined)).toEqual({ prev: NO_DAY, next: null })
  })

  it('a new day counts against its previous one and splits the next one; zero increments are left out', () => {
    const st = state()
    addDay(st, 'active', D, { prev: D - 2, next: D + 1 })
    addDay(st, 'active', D + 1, { prev: D - 2, next: null }) // another player: cancels the split's -1
    cohort(st, D - 3, 3, 1)
    cohort(st, D - 3, 3, -1)
    cohort(st, D - 4, 4, 1)
    expect(gapChanges(st)).toEqual({
      gaps: [
        { kind: 'active', day: D, prevDay: D - 2, players: 1 },
        { kind: 'active', day: D + 1, prevDay: D, players: 1 },
      ],
      cohorts: [{ installDay: D - 4, dayOffset: 4, players: 1 }],
    })
  })
})
