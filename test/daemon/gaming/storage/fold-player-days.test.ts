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
      custom_events: null,
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
      ['affiliate', '', 1],
      ['campaign', '', 1],
      ['source', '', 1],
      ['medium', '', 1],
      ['link', '', 1],
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
          custom_events: null,
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
      custom_events: null,
    }
    const st = state(
      snapshot({
        playerDays: new Map([[`p1\n${D}`, stored]]),
        typeDays: new Map([
          [
            'p1',
            [
              { day: D - 2, event_types: LEVEL_COMPLETE, custom_events: null },
              { day: D, event_types: LEVEL_START, custom_events: null },
              { day: D + 1, event_types: LEVEL_COMPLETE | LEVEL_START, custom_events: null },
            ],
          ],
        ]),
      }),
    )
    const p = live(profile())
    foldPlayerDay(st, p, ev({ ts: T0 }))
    expect([st.gaps.size, st.daily.size, st.dims.length]).toEqual([0, 0, 0])
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

describe('fold: custom event names per player-day', () => {
  it('a name new on the day counts the player once, against the stored days holding the name; the names are written', () => {
    const stored = {
      player_id: 'p1',
      day: D,
      install_day: D - 3,
      events: 1,
      revenue_micros: 0,
      event_types: 2 ** TYPE_BIT.get('level_start')!,
      custom_events: '["raid"]',
    }
    const st = state(
      snapshot({
        playerDays: new Map([[`p1\n${D}`, stored]]),
        typeDays: new Map([
          [
            'p1',
            [
              { day: D - 3, event_types: 0, custom_events: '["boss_fight","raid"]' },
              { day: D - 1, event_types: 0, custom_events: '["raid"]' },
              { day: D, event_types: 0, custom_events: '["raid"]' },
              { day: D + 2, event_types: 0, custom_events: '["boss_fight"]' },
            ],
          ],
        ]),
      }),
    )
    const p = live(profile({ last_active_day: D + 2 }))
    foldPlayerDay(st, p, ev({ ts: T0, type: 'raid' })) // on the day already: nothing
    foldPlayerDay(st, p, ev({ ts: T0 + 1, type: 'boss_fight' }))
    foldPlayerDay(st, p, ev({ ts: T0 + 2, type: 'boss_fight' }))
    foldPlayerDay(st, p, ev({ ts: T0 + DAY, type: 'boss_fight' })) // a new day of the batch
    expect(gapsOf(st, 'custom:raid')).toEqual([])
    expect(gapsOf(st, 'custom:boss_fight')).toEqual([
      [0, -3, 1],
      [2, -3, -1],
      [2, 0, 0], // the batch's D + 1 takes the gap back from D
      [1, 0, 1],
      [2, 1, 1],
    ])
    expect(
      [...st.dims.values()]
        .filter((d) => d.dim === 'custom_event')
        .map((d) => [d.day - D, d.value, d.counters.players]),
    ).toEqual([
      [0, 'boss_fight', 1],
      [1, 'boss_fight', 1],
    ])
    expect(playerDayWrites(st).map((w) => [w.row.day - D, w.row.custom_events])).toEqual([
      [0, '["raid","boss_fight"]'],
      [1, '["boss_fight"]'],
    ])
  })

  it('a day without custom events keeps its names untouched (null)', () => {
    const st = state()
    foldPlayerDay(st, live(profile({ install_day: D }), false), ev({ ts: T0 }))
    expect(playerDayWrites(st)[0]!.row.custom_events).toBeNull()
  })
})
