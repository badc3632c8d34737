/** The player-days layer of the fold: new active days (DAU, cohort, gaps) and event-type bits. */
import { describe, expect, it } from 'vitest'
import { foldPlayerDay, playerDayWrites } from '../../../../daemon/modules/gaming/storage/fold/player-days.js'
import { NO_DAY, TYPE_BIT } from '../../../../daemon/modules/gaming/storage/types.js'
import { D, DAY, T0, ev, live, profile, snapshot, state } from './fold-fixtures.js'

const gapsOf = (st: ReturnType<typeof state>, kind: string) =>
  [...st.gaps.values()].filter((g) => g.kind === kind).map((g) => [g.day - D, g.prevDay - D, g.players])
const LEVEL_START = 2 ** TYPE_BIT.get('level_start')!
const LEVEL_COMPLETE = 2 ** TYPE_BIT.get('level_complete')!

describe('fold: player-days', () => {
  it("a new player's first day: active, in its cohort and country, its type counted; no previous day", () => {
    const st = state()
    const p = live(profile({ install_day: D, country: null }), false)
    const pd = foldPlayerDay(st, p, ev({ ts: T0 }))
    expect(pd).toEqual({
      player_id: 'p1',
      day: D,
      install_day: D,
      events: 1,
      revenue_micros: 0,
      event_types: LEVEL_START,
      payingBefore: false,
      isNew: true,
    })
    expect([...st.gaps.values()].map((g) => [g.kind, g.day - D, g.prevDay])).toEqual([
      ['active', 0, NO_DAY],
      ['country:', 0, NO_DAY],
      ['type:level_start', 0, NO_DAY],
    ])
    expect([...st.cohorts.values()]).toEqual([{ installDay: D, dayOffset: 0, players: 1 }])
    expect(st.daily.get(D)?.active_players).toBe(1)
    expect([...st.dims.values()].map((d) => [d.dim, d.value, d.counters.players])).toEqual([
      ['platform', 'ios', 1],
      ['country', '', 1],
      ['event_type', 'level_start', 1],
    ])
    expect(playerDayWrites(st)).toEqual([
      {
        row: {
          player_id: 'p1',
          day: D,
          install_day: D,
          events: 1,
          revenue_micros: 0,
          event_types: LEVEL_START,
        },
        isNew: true,
      },
    ])
  })

  it("a known player's new day splits the gap of its stored neighbours; a later batch day follows the batch's", () => {
    const st = state(snapshot({ activeNeighbours: new Map([[`p1\n${D}`, { prev: D - 2, next: D + 1 }]]) }))
    const p = live(profile({ last_active_day: D + 1 }))
    foldPlayerDay(st, p, ev({ ts: T0 }))
    foldPlayerDay(st, p, ev({ ts: T0 + 2 * DAY }))
    expect(gapsOf(st, 'active')).toEqual([
      [0, -2, 1],
      [1, -2, -1],
      [1, 0, 1],
      [2, 1, 1],
    ])
    expect(gapsOf(st, 'country:DE')).toEqual(gapsOf(st, 'active'))
    expect(gapsOf(st, 'type:level_start')).toEqual([
      [0, NO_DAY - D, 1],
      [2, 0, 1],
    ])
    expect([...st.cohorts.values()].map((c) => [c.installDay - D, c.dayOffset])).toEqual([
      [-3, 3],
      [-3, 5],
    ])
  })

  it('a stored day is no new active day; a type new on it counts against the stored days of that type', () => {
    const stored = {
      player_id: 'p1',
      day: D,
      install_day: D - 3,
      events: 4,
      revenue_micros: 100,
      event_types: LEVEL_START,
    }
    const st = state(
      snapshot({
        playerDays: new Map([[`p1\n${D}`, stored]]),
        typeDays: new Map([
          [
            'p1',
            [
              { day: D - 2, event_types: LEVEL_COMPLETE },
              { day: D, event_types: LEVEL_START },
              { day: D + 1, event_types: LEVEL_COMPLETE | LEVEL_START },
            ],
          ],
        ]),
      }),
    )
    const p = live(profile())
    foldPlayerDay(st, p, ev({ ts: T0 }))
    expect([st.gaps.size, st.daily.size, st.dims.size]).toEqual([0, 0, 0])
    const pd = foldPlayerDay(st, p, ev({ ts: T0 + 1, type: 'level_complete' }))
    expect([pd.events, pd.event_types, pd.payingBefore, pd.isNew]).toEqual([
      6,
      LEVEL_START + LEVEL_COMPLETE,
      true,
      false,
    ])
    expect(gapsOf(st, 'type:level_complete')).toEqual([
      [0, -2, 1],
      [1, -2, -1],
      [1, 0, 1],
    ])
    expect([...st.dims.values()].map((d) => [d.dim, d.value, d.counters.players])).toEqual([
      ['event_type', 'level_complete', 1],
    ])
  })
})
