/**
 * The fold from accepted events to layer changes, without a database: a snapshot built by hand
 * stands for what the tables held before the batch (daemon/modules/gaming/storage/fold/).
 */
import { describe, expect, it } from 'vitest'
import { fold } from '../../../../daemon/modules/gaming/storage/fold/index.js'
import {
  NO_DAY,
  pairKey,
  TYPE_BIT,
  type AcceptedEvent,
  type GameEvent,
  type SessionRow,
} from '../../../../daemon/modules/gaming/storage/types.js'
import { D, DAY, MIN, T0, accepted, ev as gameEvent, profile, snapshot } from './fold-fixtures.js'

/** An accepted event of p1 at `ts` (the layer tests' fixture, with its verdict). */
const ev = (
  over: Partial<GameEvent> & { ts: number },
  verdict: 'accept' | 'flag' = 'accept',
): AcceptedEvent => accepted(gameEvent(over), verdict)

const ids = () => {
  let n = 0
  return (ts: number) => `new-${ts}-${++n}`
}
const dailyOf = (c: ReturnType<typeof fold>, day: number) => c.daily.find((d) => d.day === day)
/** The gaps but those of the event types (tested on their own in 'event types'). */
const dayGaps = (c: ReturnType<typeof fold>) => c.gaps.filter((g) => !g.kind.startsWith('type:'))
const sorted = <T>(xs: T[]) => [...xs].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))

describe('sessions', () => {
  it('30 minutes without events end a session; session_end closes it; events without session_id join the current one', () => {
    const at = (min: number, over: Partial<GameEvent> = {}) => ev({ ts: T0 + min * MIN, ...over })
    const c = fold(
      snapshot(),
      [
        at(0, { type: 'session_start', sessionId: 'a' }),
        at(10, { sessionId: null }),
        at(40, { sessionId: 'a' }), // exactly 30 min after the last event: same session
        at(71, { sessionId: 'a' }), // 31 min later: a new session with the same id
        at(80, { type: 'session_end', sessionId: 'a' }),
        at(85, { sessionId: null }), // after the end: a session of its own
      ],
      ids(),
    )
    expect(
      c.sessions.map(({ row: s, write }) => [
        write,
        s.session_id,
        (s.started_at - T0) / MIN,
        (s.last_event_at - T0) / MIN,
        s.ended_at === null ? null : (s.ended_at - T0) / MIN,
        s.events,
      ]),
    ).toEqual([
      ['insert', 'a', 0, 40, null, 3],
      ['insert', 'a', 71, 80, 80, 2],
      ['insert', null, 85, 85, null, 1],
    ])
    expect(c.profiles).toHaveLength(1)
    expect(c.profiles[0]!.row.session_count).toBe(3)
    // The current session is the latest by last event.
    expect(c.profiles[0]!.row.current_session_id).toBe(c.sessions[2]!.row.id)
    expect(dailyOf(c, D)).toMatchObject({ sessions: 3, session_seconds: (40 + 9) * 60 })
  })

  it("a known player's open session goes on (update), an older event moves its start back (start)", () => {
    const open: SessionRow = {
      id: 'sess-open',
      player_id: 'p1',
      session_id: 's',
      started_at: T0,
      last_event_at: T0 + 10 * MIN,
      ended_at: null,
      events: 4,
    }
    const base = {
      profiles: new Map([['p1', profile({ current_session_id: 'sess-open', last_active_day: D })]]),
      playerDays: new Map([
        [
          pairKey('p1', D),
          {
            player_id: 'p1',
            day: D,
            install_day: D - 3,
            events: 4,
            revenue_micros: 0,
            event_types: 1,
            custom_events: null,
          },
        ],
      ]),
      sessionsBySid: new Map([[pairKey('p1', 's'), open]]),
      sessionsById: new Map([['sess-open', open]]),
    }
    // Within 30 minutes of the last event, and one without session_id: both join it.
    const later = fold(
      snapshot(base),
      [ev({ ts: T0 + 20 * MIN }), ev({ ts: T0 + 25 * MIN, sessionId: null })],
      ids(),
    )
    expect(later.sessions).toEqual([
      { write: 'update', row: { ...open, last_event_at: T0 + 25 * MIN, events: 6 } },
    ])
    expect(dailyOf(later, D)).toMatchObject({ sessions: 0, session_seconds: 15 * 60 })
    expect(later.profiles[0]).toMatchObject({ write: 'activity', row: { session_count: 2, event_count: 12 } })

    const earlier = fold(snapshot(base), [ev({ ts: T0 - 5 * MIN })], ids())
    expect(earlier.sessions).toEqual([
      { write: 'start', row: { ...open, started_at: T0 - 5 * MIN, events: 5 } },
    ])
    expect(dailyOf(earlier, D)).toMatchObject({ sessions: 0, session_seconds: 5 * 60 })

    // 31 minutes after the last event: a new session, counted once.
    const gap = fold(snapshot(base), [ev({ ts: T0 + 41 * MIN })], ids())
    expect(gap.sessions.map((s) => s.write)).toEqual(['insert'])
    expect(gap.profiles[0]!.row).toMatchObject({
      session_count: 3,
      current_session_id: gap.sessions[0]!.row.id,
    })
  })
})

describe('installs and first / last seen', () => {
  it('a new player: profile, new and active player, cohort day 0, first active day; out-of-order events sorted', () => {
    const c = fold(
      snapshot(),
      [
        ev({ ts: T0 + 30 * MIN, country: 'FR' }),
        ev({
          ts: T0,
          country: 'DE',
          deviceFingerprint: 'fp-9',
          attribution: { affiliate: 'aff', campaign: null, source: null, medium: null },
        }),
      ],
      ids(),
    )
    expect(c.profiles).toEqual([
      {
        write: 'insert',
        row: expect.objectContaining({
          first_seen_at: T0,
          install_day: D,
          last_active_at: T0 + 30 * MIN,
          last_active_day: D,
          country: 'DE', // first touch: the earliest event's
          device_fingerprint: 'fp-9',
          affiliate: 'aff',
          event_count: 2,
          session_count: 1,
        }),
      },
    ])
    expect(dailyOf(c, D)).toMatchObject({ new_players: 1, active_players: 1, events: 2, sessions: 1 })
    expect(c.cohorts).toEqual([{ installDay: D, dayOffset: 0, players: 1 }])
    expect(dayGaps(c)).toEqual([
      { kind: 'active', day: D, prevDay: NO_DAY, players: 1 },
      { kind: 'country:DE', day: D, prevDay: NO_DAY, players: 1 },
    ])
    expect(c.playerDays).toEqual([
      {
        isNew: true,
        row: {
          player_id: 'p1',
          day: D,
          install_day: D,
          events: 2,
          revenue_micros: 0,
          event_types: 2 ** TYPE_BIT.get('level_start')!,
          custom_events: null,
        },
      },
    ])
    expect(c.dims.filter((d) => d.dim === 'affiliate')).toEqual([
      expect.objectContaining({ day: D, value: 'aff', players: 1, new_players: 1, events: 2 }),
    ])
  })

  it('a known player on a new day: active once, no new player; the gaps follow its stored neighbours', () => {
    // Stored days D-5 and D+2 (an event 24 h late fills a day in between).
    const c = fold(
      snapshot({
        profiles: new Map([['p1', profile({ install_day: D - 5, last_active_day: D + 2 })]]),
        activeNeighbours: new Map([[pairKey('p1', D), { prev: D - 5, next: D + 2 }]]),
      }),
      [ev({ ts: T0 }), ev({ ts: T0 + MIN })],
      ids(),
    )
    expect(dailyOf(c, D)).toMatchObject({ new_players: 0, active_players: 1, events: 2 })
    expect(sorted(dayGaps(c))).toEqual(
      sorted([
        { kind: 'active', day: D, prevDay: D - 5, players: 1 },
        { kind: 'active', day: D + 2, prevDay: D - 5, players: -1 },
        { kind: 'active', day: D + 2, prevDay: D, players: 1 },
        // The same bookkeeping under the profile's country (geography: distinct players per country).
        { kind: 'country:DE', day: D, prevDay: D - 5, players: 1 },
        { kind: 'country:DE', day: D + 2, prevDay: D - 5, players: -1 },
        { kind: 'country:DE', day: D + 2, prevDay: D, players: 1 },
      ]),
    )
    expect(c.cohorts).toEqual([{ installDay: D - 5, dayOffset: 5, players: 1 }])
    // last_active_day never goes back.
    expect(c.profiles[0]!.row.last_active_day).toBe(D + 2)
  })

  it('an event before the install day moves the install back: new players, cohorts and stored days follow', () => {
    const c = fold(
      snapshot({
        profiles: new Map([['p1', profile({ first_seen_at: T0, install_day: D, last_active_day: D + 1 })]]),
        allDays: new Map([['p1', [D, D + 1]]]),
        activeNeighbours: new Map([[pairKey('p1', D - 1), { prev: NO_DAY, next: D }]]),
      }),
      [ev({ ts: T0 - DAY })],
      ids(),
    )
    expect(c.installDayMoves).toEqual([{ playerId: 'p1', installDay: D - 1 }])
    expect(c.profiles[0]).toMatchObject({
      write: 'all',
      row: { install_day: D - 1, first_seen_at: T0 - DAY },
    })
    expect(dailyOf(c, D)).toMatchObject({ new_players: -1 })
    expect(dailyOf(c, D - 1)).toMatchObject({ new_players: 1, active_players: 1 })
    expect(sorted(c.cohorts)).toEqual(
      sorted([
        // The stored days D and D+1 leave the old cohort and join the new one; D-1 is new.
        { installDay: D, dayOffset: 0, players: -1 },
        { installDay: D, dayOffset: 1, players: -1 },
        { installDay: D - 1, dayOffset: 1, players: 1 },
        { installDay: D - 1, dayOffset: 2, players: 1 },
        { installDay: D - 1, dayOffset: 0, players: 1 },
      ]),
    )
    expect(c.playerDays).toEqual([
      expect.objectContaining({
        isNew: true,
        row: expect.objectContaining({ day: D - 1, install_day: D - 1 }),
      }),
    ])
  })
})

describe('revenue', () => {
  it('is counted by type; the first paying day counts the player once; a zero amount is a transaction only', () => {
    const c = fold(
      snapshot(),
      [
        ev({ ts: T0 + 2 * MIN, type: 'purchase', revenueType: 'iap', revenueMicros: 4_990_000 }),
        ev({ ts: T0 + 3 * MIN, type: 'ad_watched', revenueType: 'ad', revenueMicros: 20_000 }),
        ev({
          ts: T0 + MIN,
          type: 'subscription_start',
          revenueType: 'subscription',
          revenueMicros: 9_990_000,
        }),
        ev({ ts: T0, type: 'item_purchased', revenueType: 'iap', revenueMicros: 0 }),
      ],
      ids(),
    )
    expect(dailyOf(c, D)).toMatchObject({
      transactions: 4,
      paying_players: 1,
      revenue_iap_micros: 4_990_000,
      revenue_ad_micros: 20_000,
      revenue_subscription_micros: 9_990_000,
    })
    expect(c.profiles[0]!.row).toMatchObject({
      transactions: 4,
      revenue_iap_micros: 4_990_000,
      revenue_ad_micros: 20_000,
      revenue_subscription_micros: 9_990_000,
      revenue_total_micros: 15_000_000,
      first_purchase_at: T0 + MIN, // the zero-amount item is not a purchase
    })
    expect(c.gaps.filter((g) => g.kind === 'paying')).toEqual([
      { kind: 'paying', day: D, prevDay: NO_DAY, players: 1 },
    ])
    expect(c.dims.find((d) => d.dim === 'event_type' && d.value === 'purchase')).toMatchObject({
      events: 1,
      transactions: 1,
      revenue_iap_micros: 4_990_000,
    })
    expect(c.playerDays[0]!.row.revenue_micros).toBe(15_000_000)
  })

  it('a day already paying in the table is not a new paying day', () => {
    const c = fold(
      snapshot({
        profiles: new Map([['p1', profile({ last_active_day: D })]]),
        playerDays: new Map([
          [
            pairKey('p1', D),
            {
              player_id: 'p1',
              day: D,
              install_day: D - 3,
              events: 1,
              revenue_micros: 100,
              event_types: 1,
              custom_events: null,
            },
          ],
        ]),
        payingNeighbours: new Map([[pairKey('p1', D), { prev: NO_DAY, next: null }]]),
      }),
      [ev({ ts: T0, type: 'purchase', revenueType: 'iap', revenueMicros: 1_000_000 })],
      ids(),
    )
    expect(dailyOf(c, D)).toMatchObject({ paying_players: 0, active_players: 0, transactions: 1 })
    // The purchase bit is new on the day: only its event-type gaps.
    expect(c.gaps.map((g) => g.kind)).toEqual(['type:purchase'])
    expect(c.playerDays).toEqual([
      { isNew: false, row: expect.objectContaining({ events: 2, revenue_micros: 1_000_100 }) },
    ])
  })
})

describe('acquisition (cost, commission, conversions; paying players per platform and source)', () => {
  const attribution = { affiliate: 'aff', campaign: null, source: 'ads', medium: null }
  const rowsOf = (c: ReturnType<typeof fold>) =>
    sorted(
      c.acquisition.map((r) => [
        r.day - D,
        r.dim,
        r.value,
        r.cost_micros,
        r.commission_micros,
        r.conversions,
      ]),
    )

  it("cost on the install's day, commission on the purchase's day, one conversion on the install day", () => {
    const c = fold(
      snapshot(),
      [
        ev({ ts: T0, type: 'app_install', attribution, costMicros: 1_500_000 }),
        ev({
          ts: T0 + DAY,
          attribution,
          revenueType: 'iap',
          revenueMicros: 5_000_000,
          commissionMicros: 500_000,
        }),
        ev({ ts: T0 + DAY + MIN, attribution, revenueType: 'iap', revenueMicros: 1_000_000 }),
      ],
      ids(),
    )
    expect(rowsOf(c)).toEqual(
      sorted([
        [0, 'affiliate', 'aff', 1_500_000, 0, 1],
        [0, 'campaign', '', 1_500_000, 0, 1],
        [0, 'source', 'ads', 1_500_000, 0, 1],
        [0, 'medium', '', 1_500_000, 0, 1],
        [0, 'link', '', 1_500_000, 0, 1],
        [1, 'affiliate', 'aff', 0, 500_000, 0],
        [1, 'campaign', '', 0, 500_000, 0],
        [1, 'source', 'ads', 0, 500_000, 0],
        [1, 'medium', '', 0, 500_000, 0],
        [1, 'link', '', 0, 500_000, 0],
      ]),
    )
    // Paying players per platform and source: a first paying day without a previous one.
    expect(sorted(c.dimPayingGaps)).toEqual(
      sorted([
        { dim: 'platform', value: 'ios', day: D + 1, prevDay: -1, players: 1 },
        { dim: 'source', value: 'ads', day: D + 1, prevDay: -1, players: 1 },
      ]),
    )
  })

  it('a player who paid before converts no more; an older event moves the conversion to the new install day', () => {
    const paid = profile({
      source: 'ads',
      first_purchase_at: T0 - 2 * DAY,
      install_day: D,
      first_seen_at: T0,
    })
    const c = fold(
      snapshot({ profiles: new Map([['p1', paid]]) }),
      [
        ev({ ts: T0 - DAY, attribution: { ...attribution, affiliate: null } }),
        ev({ ts: T0 + MIN, revenueType: 'iap', revenueMicros: 2_000_000 }),
      ],
      ids(),
    )
    expect(rowsOf(c)).toEqual(
      sorted([
        ...['affiliate', 'campaign', 'medium', 'link'].flatMap((dim) => [
          [-1, dim, '', 0, 0, 1],
          [0, dim, '', 0, 0, -1],
        ]),
        [-1, 'source', 'ads', 0, 0, 1],
        [0, 'source', 'ads', 0, 0, -1],
      ]),
    )
  })

  it('a new paying day between stored ones splits the gap, per platform and source', () => {
    const known = profile({ source: 'ads', first_purchase_at: T0 - 3 * DAY })
    const c = fold(
      snapshot({
        profiles: new Map([['p1', known]]),
        payingNeighbours: new Map([[`p1\n${D}`, { prev: D - 3, next: D + 2 }]]),
      }),
      [ev({ ts: T0, revenueType: 'ad', revenueMicros: 10_000 })],
      ids(),
    )
    const of = (dim: string) =>
      sorted(c.dimPayingGaps.filter((g) => g.dim === dim).map((g) => [g.day - D, g.prevDay - D, g.players]))
    for (const dim of ['platform', 'source'])
      expect(of(dim), dim).toEqual(
        sorted([
          [0, -3, 1],
          [2, -3, -1],
          [2, 0, 1],
        ]),
      )
  })
})

describe('duplicates and verdicts', () => {
  it('events stored before and repeats within the batch are duplicates; flagged counts stored events only', () => {
    const old = ev({ ts: T0 }, 'flag')
    const once = ev({ ts: T0 + MIN }, 'flag')
    const c = fold(
      snapshot({ storedEventIds: new Set([old.event.eventId]) }),
      [old, once, { ...once }],
      ids(),
    )
    expect({ stored: c.stored, duplicates: c.duplicates, flagged: c.flagged }).toEqual({
      stored: 1,
      duplicates: 2,
      flagged: 1,
    })
    expect(c.newEvents).toEqual([once])
    expect(dailyOf(c, D)).toMatchObject({ events: 1, flagged_events: 1 })
    expect(c.profiles[0]!.row.event_count).toBe(1)
  })

  it('a batch of only duplicates changes nothing', () => {
    const e = ev({ ts: T0 })
    const c = fold(snapshot({ storedEventIds: new Set([e.event.eventId]) }), [e], ids())
    expect(c).toMatchObject({
      stored: 0,
      duplicates: 1,
      newEvents: [],
      profiles: [],
      sessions: [],
      daily: [],
      dims: [],
    })
  })
})

describe('geography layers', () => {
  it("sessions count under the profile's dimensions on their start day, and move with an earlier start", () => {
    const c = fold(
      snapshot(),
      [
        ev({ ts: T0, country: 'JP', sessionId: 'a' }),
        ev({ ts: T0 + MIN, sessionId: 'a' }),
        ev({ ts: T0 + 2 * MIN, sessionId: 'b' }),
      ],
      ids(),
    )
    const dim = (dim: string, value: string, day = D) =>
      c.dims.find((d) => d.day === day && d.dim === dim && d.value === value)
    expect(dim('country', 'JP')).toMatchObject({ sessions: 2, players: 1, events: 3 })
    expect(dim('platform', 'ios')).toMatchObject({ sessions: 2 })
    // Event types are not profile dimensions: no sessions there.
    expect(dim('event_type', 'level_start')).toMatchObject({ sessions: 0 })

    // A stored session that started just after midnight gets an event from before midnight.
    const open: SessionRow = {
      id: 'sess-open',
      player_id: 'p1',
      session_id: 's',
      started_at: D * DAY + MIN,
      last_event_at: D * DAY + 5 * MIN,
      ended_at: null,
      events: 2,
    }
    const moved = fold(
      snapshot({
        profiles: new Map([['p1', profile({ current_session_id: 'sess-open', last_active_day: D })]]),
        sessionsBySid: new Map([[pairKey('p1', 's'), open]]),
        sessionsById: new Map([['sess-open', open]]),
      }),
      [ev({ ts: D * DAY - 2 * MIN })],
      ids(),
    )
    const movedDim = (day: number) =>
      moved.dims.find((d) => d.day === day && d.dim === 'country' && d.value === 'DE')?.sessions
    expect([movedDim(D - 1), movedDim(D)]).toEqual([1, -1])
  })

  it("a player without a known country counts under 'country:' in the gaps", () => {
    const c = fold(snapshot(), [ev({ ts: T0, playerId: 'nowhere' })], ids())
    expect(dayGaps(c).map((g) => g.kind)).toEqual(['active', 'country:'])
  })
})

describe('first-touch values in a batch', () => {
  it("a source on a later event of the batch than a player's purchase counts the purchase under it too", () => {
    const adnet = { affiliate: null, campaign: null, source: 'adnet', medium: null }
    const batch = [
      // A new player (p1) and a known one without a source (p2): each pays before saying where from.
      ev({ ts: T0, type: 'purchase', revenueType: 'iap', revenueMicros: 5_000_000, country: 'FR' }),
      ev({ ts: T0 + MIN, attribution: adnet }),
      ev({ ts: T0, playerId: 'p2', type: 'purchase', revenueType: 'iap', revenueMicros: 2_000_000 }),
      ev({ ts: T0 + MIN, playerId: 'p2', attribution: adnet }),
    ]
    const known = () =>
      snapshot({ profiles: new Map([['p2', profile({ player_id: 'p2', last_active_day: D - 1 })]]) })
    const tables = (c: ReturnType<typeof fold>) => ({
      dims: sorted(c.dims.filter((d) => d.dim === 'source')),
      acquisition: sorted(c.acquisition.filter((a) => a.dim === 'source')),
      dimPayingGaps: sorted(c.dimPayingGaps.filter((g) => g.dim === 'source')),
    })
    const purchaseFirst = tables(fold(known(), batch, ids()))
    // The same events with the source first: the batch's order within a player does not matter.
    expect(purchaseFirst).toEqual(
      tables(
        fold(
          known(),
          [1, 0, 3, 2].map((i) => batch[i]!),
          ids(),
        ),
      ),
    )
    expect(purchaseFirst.dims.map((d) => [d.value, d.events, d.new_players, d.paying_players])).toEqual([
      ['adnet', 4, 1, 2],
    ])
    // Each conversion on its player's install day (p2's is three days back).
    expect(purchaseFirst.acquisition.map((a) => [a.day - D, a.value, a.conversions])).toEqual([
      [-3, 'adnet', 1],
      [0, 'adnet', 1],
    ])
  })
})

describe('event types (distinct players per type over any range)', () => {
  it("a type new on a player's day is counted against the player's stored and batch days of that type", () => {
    const bit = TYPE_BIT.get('level_complete')!
    const other = TYPE_BIT.get('level_start')!
    // Stored: level_complete on D-4 and D+3; D-1 has only level_start (not a neighbour of this type).
    const c = fold(
      snapshot({
        profiles: new Map([['p1', profile({ install_day: D - 4, last_active_day: D + 3 })]]),
        activeNeighbours: new Map([
          [pairKey('p1', D), { prev: D - 1, next: D + 3 }],
          [pairKey('p1', D + 1), { prev: D - 1, next: D + 3 }],
        ]),
        typeDays: new Map([
          [
            'p1',
            [
              { day: D - 4, event_types: 2 ** bit, custom_events: null },
              { day: D - 1, event_types: 2 ** other, custom_events: null },
              { day: D + 3, event_types: 2 ** bit + 2 ** other, custom_events: null },
            ],
          ],
        ]),
      }),
      [
        ev({ ts: T0, type: 'level_complete' }),
        ev({ ts: T0 + MIN, type: 'level_complete' }),
        ev({ ts: T0 + DAY, type: 'level_complete' }),
      ],
      ids(),
    )
    expect(sorted(c.gaps.filter((g) => g.kind === 'type:level_complete'))).toEqual(
      sorted([
        // D between D-4 and D+3; then D+1 between D (the batch's own day) and D+3; (D+3, D) nets to 0.
        { kind: 'type:level_complete', day: D, prevDay: D - 4, players: 1 },
        { kind: 'type:level_complete', day: D + 3, prevDay: D - 4, players: -1 },
        { kind: 'type:level_complete', day: D + 1, prevDay: D, players: 1 },
        { kind: 'type:level_complete', day: D + 3, prevDay: D + 1, players: 1 },
      ]),
    )
  })
})
