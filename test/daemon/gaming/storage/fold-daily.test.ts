/** The day-aggregates layer of the fold: the event's own counters per day and dimension. */
import { describe, expect, it } from 'vitest'
import {
  countEvent,
  dailyChanges,
  dayCounters,
} from '../../../../daemon/modules/gaming/storage/fold/daily.js'
import { MONEY_SUM_MAX_MICROS } from '../../../../daemon/modules/gaming/storage/types.js'
import { D, T0, ev, profile, state } from './fold-fixtures.js'

const dims = (st: ReturnType<typeof state>) =>
  dailyChanges(st).dims.map((d) => [d.dim, d.value, d.events, d.transactions, d.revenue_iap_micros])

describe('fold: day aggregates', () => {
  it("a flagged custom event: counted on its day, its custom type and the profile dimensions ('' when missing)", () => {
    const st = state()
    const day = { customNames: new Set(['boss_fight']) }
    countEvent(
      st,
      profile({ country: null, source: 'google' }),
      day,
      ev({ ts: T0, type: 'boss_fight' }),
      'flag',
    )
    const { daily } = dailyChanges(st)
    expect(daily).toEqual([
      {
        day: D,
        active_players: 0,
        new_players: 0,
        paying_players: 0,
        sessions: 0,
        session_seconds: 0,
        events: 1,
        flagged_events: 1,
        transactions: 0,
        revenue_iap_micros: 0,
        revenue_ad_micros: 0,
        revenue_subscription_micros: 0,
      },
    ])
    expect(dims(st)).toEqual([
      ['event_type', 'custom', 1, 0, 0],
      ['custom_event', 'boss_fight', 1, 0, 0],
      ['platform', 'ios', 1, 0, 0],
      ['country', '', 1, 0, 0],
      ['affiliate', '', 1, 0, 0],
      ['campaign', '', 1, 0, 0],
      ['source', 'google', 1, 0, 0],
      ['medium', '', 1, 0, 0],
      ['link', '', 1, 0, 0],
    ])
  })

  it("a custom name its player-day does not count per name: its events under 'custom_event_uncounted'", () => {
    const st = state()
    countEvent(st, profile(), { customNames: new Set(['a']) }, ev({ ts: T0, type: 'b' }), 'accept')
    expect(dims(st).slice(0, 2)).toEqual([
      ['event_type', 'custom', 1, 0, 0],
      ['custom_event_uncounted', 'b', 1, 0, 0],
    ])
  })

  it('revenue: a transaction and its sum per day, type and profile dimension, saturating at the ceiling', () => {
    const st = state()
    dayCounters(st, D).revenue_iap_micros = MONEY_SUM_MAX_MICROS - 5
    const buy = ev({ ts: T0, type: 'purchase', revenueType: 'iap', revenueMicros: 1_000 })
    countEvent(st, profile(), {}, buy, 'accept')
    countEvent(st, profile(), {}, { ...buy, revenueType: 'ad', revenueMicros: 0 }, 'accept')
    const day = dailyChanges(st).daily[0]!
    expect([
      day.events,
      day.flagged_events,
      day.transactions,
      day.revenue_iap_micros,
      day.revenue_ad_micros,
    ]).toEqual([2, 0, 2, MONEY_SUM_MAX_MICROS, 0])
    expect(dims(st)).toEqual([
      ['event_type', 'purchase', 2, 2, 1_000],
      ['platform', 'ios', 2, 2, 1_000],
      ['country', 'DE', 2, 2, 1_000],
      ['affiliate', '', 2, 2, 1_000],
      ['campaign', '', 2, 2, 1_000],
      ['source', '', 2, 2, 1_000],
      ['medium', '', 2, 2, 1_000],
      ['link', '', 2, 2, 1_000],
    ])
  })
})
