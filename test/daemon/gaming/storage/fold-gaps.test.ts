/** The distinct-player counters the fold's layers share: day gaps and cohorts. */
import { describe, expect, it } from 'vitest'
import {
  addDay,
  cohort,
  gapChanges,
  moveCohortValue,
  withBatchDays,
} from '../../../../daemon/modules/gaming/storage/fold/gaps.js'
import { NO_DAY } from '../../../../daemon/modules/gaming/storage/types.js'
import { D, profile, snapshot, state } from './fold-fixtures.js'

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
    const p = profile()
    cohort(st, p, D - 3, 3, 1)
    cohort(st, p, D - 3, 3, -1)
    cohort(st, p, D - 4, 4, 1)
    const dims = (installDay: number, dayOffset: number, players: number) =>
      [
        ['platform', 'ios'],
        ['country', 'DE'],
        ['source', ''],
        ['campaign', ''],
        ['link', ''],
      ].map(([dim, value]) => ({ dim, value, installDay, dayOffset, players }))
    expect(gapChanges(st)).toEqual({
      gaps: [
        { kind: 'active', day: D, prevDay: D - 2, players: 1 },
        { kind: 'active', day: D + 1, prevDay: D, players: 1 },
      ],
      cohorts: [{ installDay: D - 4, dayOffset: 4, players: 1 }],
      cohortDims: dims(D - 4, 4, 1),
    })
  })

  it("a value known only later moves the player's stored and batch days from the '' group to it", () => {
    const st = state(
      snapshot({ typeDays: new Map([['p1', [{ day: D - 3, event_types: 1, custom_events: null }]]]) }),
    )
    st.batchDays.set('p1', [D])
    moveCohortValue(st, 'p1', D - 3, 'source', 'google')
    expect(gapChanges(st).cohortDims).toEqual([
      { dim: 'source', value: '', installDay: D - 3, dayOffset: 3, players: -1 },
      { dim: 'source', value: 'google', installDay: D - 3, dayOffset: 3, players: 1 },
      { dim: 'source', value: '', installDay: D - 3, dayOffset: 0, players: -1 },
      { dim: 'source', value: 'google', installDay: D - 3, dayOffset: 0, players: 1 },
    ])
  })
})
