/**
 * The plan both gaming stores run (daemon/modules/gaming/storage/snapshot-plan.ts), without a
 * database: the keys a batch reads, the Snapshot made of rows built by hand, and the rows each
 * save step writes, in order.
 */
import { describe, expect, it } from 'vitest'
import {
  ADD_STEPS,
  WRITE_ORDER,
  WRITE_STEPS,
  mergeAdds,
  mergeByGame,
  addsOf,
  type Adds,
  compileSteps,
  runWrites,
  valuesOf,
  writesOf,
  type WriteStep,
} from '../../../../daemon/modules/gaming/storage/snapshot-plan.js'
import {
  batchKeys,
  dayRowOf,
  neighboursIn,
  sessionKeys,
  snapshotOf,
} from '../../../../daemon/modules/gaming/storage/snapshot-read.js'
import {
  MONEY_SUM_MAX_MICROS,
  NO_DAY,
  pairKey,
  type AcceptedBatch,
  type AcceptedEvent,
  type Changes,
  type GameEvent,
  type PlayerDayRow,
  type ProfileRow,
  type SessionRow,
} from '../../../../daemon/modules/gaming/storage/types.js'

const DAY = 86_400_000

function ev(over: Partial<GameEvent> & { eventId: string; playerId: string; day: number }): AcceptedEvent {
  return {
    verdict: 'accept',
    event: {
      type: 'level_start',
      typeBit: 0,
      custom: false,
      ts: over.day * DAY,
      sessionId: null,
      platform: 'ios',
      dataJson: null,
      revenueType: null,
      revenueMicros: 0,
      currency: null,
      costMicros: 0,
      commissionMicros: 0,
      country: null,
      deviceFingerprint: null,
      attribution: { affiliate: null, campaign: null, source: null, medium: null },
      ...over,
    },
  }
}

const profile = (playerId: string, over: Partial<ProfileRow> = {}): ProfileRow => ({
  player_id: playerId,
  first_seen_at: 0,
  install_day: 100,
  last_active_at: 0,
  last_active_day: 100,
  platform: 'ios',
  country: null,
  device_fingerprint: null,
  affiliate: null,
  campaign: null,
  source: null,
  medium: null,
  link_id: null,
  click_id: null,
  session_count: 1,
  event_count: 1,
  transactions: 0,
  revenue_iap_micros: 0,
  revenue_ad_micros: 0,
  revenue_subscription_micros: 0,
  revenue_total_micros: 0,
  first_purchase_at: null,
  current_session_id: null,
  ...over,
})

const dayRow = (playerId: string, day: number, revenue = 0): PlayerDayRow => ({
  player_id: playerId,
  day,
  install_day: 100,
  events: 1,
  revenue_micros: revenue,
  event_types: 1,
  custom_events: null,
})

const session = (id: string, playerId: string, sessionId: string): SessionRow => ({
  id,
  player_id: playerId,
  session_id: sessionId,
  started_at: 0,
  last_event_at: 0,
  ended_at: 0,
  events: 1,
})

describe('what a batch reads', () => {
  it('reads each event id and player id once, in the order the batch names them', () => {
    const events = [
      ev({ eventId: 'e1', playerId: 'b', day: 100 }),
      ev({ eventId: 'e2', playerId: 'a', day: 100 }),
      ev({ eventId: 'e1', playerId: 'b', day: 101 }),
    ]
    expect(batchKeys(events)).toEqual({ eventIds: ['e1', 'e2'], playerIds: ['b', 'a'] })
  })

  it('reads the current session of each known profile and each (player, session id) pair of known players once', () => {
    const profiles = new Map([
      ['a', profile('a', { current_session_id: 'sa' })],
      ['b', profile('b')],
    ])
    const events = [
      ev({ eventId: 'e1', playerId: 'a', day: 100, sessionId: 's1' }),
      ev({ eventId: 'e2', playerId: 'a', day: 100, sessionId: 's1' }),
      ev({ eventId: 'e3', playerId: 'b', day: 100, sessionId: 's1' }),
      ev({ eventId: 'e4', playerId: 'b', day: 100 }),
      ev({ eventId: 'e5', playerId: 'new', day: 100, sessionId: 's9' }),
    ]
    expect(sessionKeys(events, profiles)).toEqual({
      currentIds: ['sa'],
      pairs: [
        ['a', 's1'],
        ['b', 's1'],
      ],
    })
  })

  it('finds the neighbours of a day among a player days, all or paying only', () => {
    const days = [
      dayRow('a', 90, 5),
      dayRow('a', 95),
      dayRow('a', 100),
      dayRow('a', 110, 7),
      dayRow('a', 120),
    ]
    expect(neighboursIn(days, 97, false)).toEqual({ prev: 95, next: 100 })
    expect(neighboursIn(days, 97, true)).toEqual({ prev: 90, next: 110 })
    expect(neighboursIn(days, 100, false)).toEqual({ prev: 95, next: 110 })
    expect(neighboursIn(days, 80, false)).toEqual({ prev: NO_DAY, next: 90 })
    expect(neighboursIn(days, 130, true)).toEqual({ prev: 110, next: null })
    expect(neighboursIn([], 100, false)).toEqual({ prev: NO_DAY, next: null })
  })

  it('finds the row of a day, if any', () => {
    const days = [dayRow('a', 90), dayRow('a', 100)]
    expect(dayRowOf(days, 100)).toBe(days[1])
    expect(dayRowOf(days, 95)).toBeUndefined()
    expect(dayRowOf(days, 101)).toBeUndefined()
  })

  it('makes the snapshot of the rows read: day rows, neighbours of missing and paying days, all days before the install', () => {
    const aDays = [dayRow('a', 98, 3), dayRow('a', 100), dayRow('a', 104)]
    const profiles = new Map([['a', profile('a', { install_day: 98, current_session_id: 'sa' })]])
    const events = [
      ev({ eventId: 'e1', playerId: 'a', day: 100, revenueMicros: 5 }), // a stored day, now paying
      ev({ eventId: 'e2', playerId: 'a', day: 102 }), // a new day
      ev({ eventId: 'e3', playerId: 'a', day: 97 }), // before the install day
      ev({ eventId: 'e4', playerId: 'n', day: 100, revenueMicros: 5 }), // an unknown player
    ]
    const current = session('sa', 'a', 's1')
    const latest = session('x2', 'a', 's2')
    const read: string[] = []
    const snapshot = snapshotOf(events, {
      storedEventIds: ['e1'],
      profiles,
      days: (p) => (read.push(p), p === 'a' ? aDays : []),
      currentSessions: [current],
      latestSessions: [latest],
    })
    expect(snapshot.storedEventIds).toEqual(new Set(['e1']))
    expect(snapshot.profiles).toBe(profiles)
    expect(snapshot.playerDays).toEqual(new Map([[pairKey('a', 100), aDays[1]]]))
    expect(snapshot.activeNeighbours.get(pairKey('a', 102))).toEqual({ prev: 100, next: 104 })
    expect(snapshot.activeNeighbours.get(pairKey('a', 97))).toEqual({ prev: NO_DAY, next: 98 })
    expect(snapshot.activeNeighbours.get(pairKey('a', 100))).toBeUndefined() // it has a row
    expect(snapshot.payingNeighbours.get(pairKey('a', 100))).toEqual({ prev: 98, next: null })
    expect(snapshot.payingNeighbours.get(pairKey('n', 100))).toBeUndefined()
    expect(snapshot.allDays.get('a')).toEqual([98, 100, 104])
    expect(snapshot.sessionsById).toEqual(new Map([['sa', current]]))
    expect(snapshot.sessionsBySid).toEqual(new Map([[pairKey('a', 's2'), latest]]))
    expect(snapshot.typeDays.get('a')).toEqual(aDays)
    expect(snapshot.typeDays.get('n')).toBeUndefined()
    expect(read).toEqual(['a']) // a history is read once, and only a known player's
  })

  it("reads no history when a store gives the day's row and nothing asks for more", () => {
    const aDays = [dayRow('a', 98), dayRow('a', 100)]
    const profiles = new Map([['a', profile('a', { install_day: 98 })]])
    const read: string[] = []
    const snapshot = snapshotOf([ev({ eventId: 'e1', playerId: 'a', day: 100 })], {
      storedEventIds: [],
      profiles,
      days: (p) => (read.push(p), aDays),
      dayRow: (p, day) => dayRowOf(aDays, day),
      currentSessions: [],
      latestSessions: [],
    })
    expect(snapshot.playerDays.get(pairKey('a', 100))).toBe(aDays[1])
    expect(read).toEqual([])
    expect(snapshot.typeDays.get('a')).toBe(aDays)
    expect(read).toEqual(['a'])
  })
})

function changes(over: Partial<Changes> = {}): Changes {
  return {
    newEvents: [],
    stored: 0,
    duplicates: 0,
    flagged: 0,
    sessions: [],
    profiles: [],
    installDayMoves: [],
    playerDays: [],
    daily: [],
    dims: [],
    gaps: [],
    cohorts: [],
    cohortDims: [],
    cohortEvents: [],
    acquisition: [],
    dimPayingGaps: [],
    ...over,
  }
}

const batch: AcceptedBatch = { gameId: 'g', batchId: 'b1', receivedAt: 7, ip: '192.0.2.1', events: [] }

describe('what a batch writes', () => {
  it('writes the raw layer first, then the players rows, then the aggregate rows every batch shares', () => {
    expect(WRITE_ORDER).toEqual([
      'insertEvents',
      'moveInstallDays',
      'insertPlayers',
      'updatePlayersAll',
      'updatePlayersActivity',
      'insertPlayerDays',
      'updatePlayerDays',
      'insertSessions',
      'updateSessionsStart',
      'updateSessions',
      'daily',
      'dims',
      'gaps',
      'cohorts',
      'cohortDims',
      'cohortEvents',
      'acquisition',
      'dimPayingGaps',
      'playerTotals',
    ])
  })

  it('splits the changes into the rows of each step, by kind of write', () => {
    const e = ev({ eventId: 'e1', playerId: 'a', day: 100 })
    const [pa, pb, pc] = [profile('a'), profile('b'), profile('c')]
    const [s1, s2, s3] = [session('1', 'a', 's'), session('2', 'a', 't'), session('3', 'b', 's')]
    const [d1, d2] = [dayRow('a', 100), dayRow('b', 100)]
    const daily = { day: 100, ...Object.fromEntries(WRITE_STEPS.daily.columns.map(([n]) => [n, 1])) }
    const writes = writesOf(
      batch,
      changes({
        newEvents: [e],
        profiles: [
          { row: pa, write: 'insert' },
          { row: pb, write: 'activity' },
          { row: pc, write: 'insert' },
        ],
        sessions: [
          { row: s1, write: 'update' },
          { row: s2, write: 'insert' },
          { row: s3, write: 'start' },
        ],
        playerDays: [
          { row: d1, isNew: false },
          { row: d2, isNew: true },
        ],
        installDayMoves: [{ playerId: 'a', installDay: 99 }],
        daily: [daily as Changes['daily'][number]],
      }),
    )
    expect(writes.insertEvents).toEqual([{ ...e, receivedAt: 7, batchId: 'b1', ip: '192.0.2.1' }])
    expect(writes.moveInstallDays).toEqual([{ playerId: 'a', installDay: 99 }])
    expect(writes.insertPlayers).toEqual([pa, pc])
    expect(writes.updatePlayersAll).toEqual([])
    expect(writes.updatePlayersActivity).toEqual([pb])
    expect(writes.insertPlayerDays).toEqual([d2])
    expect(writes.updatePlayerDays).toEqual([d1])
    expect(writes.insertSessions).toEqual([s2])
    expect(writes.updateSessionsStart).toEqual([s3])
    expect(writes.updateSessions).toEqual([s1])
    expect(writes.daily).toEqual([daily])
    expect(writes.playerTotals).toEqual([{ players: 2 }])
    expect(writesOf(batch, changes()).playerTotals).toEqual([])
  })

  it('names each step its table, keys and columns, and reads their values from a row', () => {
    const names = (step: WriteStep<never>) => ({
      table: step.table,
      write: step.write,
      keys: step.keys.map(([n]) => n),
      columns: step.columns.map(([n]) => n),
    })
    expect(names(WRITE_STEPS.updatePlayersActivity as WriteStep<never>)).toEqual({
      table: 'game_players',
      write: 'update',
      keys: ['player_id'],
      columns: ['last_active_at', 'last_active_day', 'session_count', 'event_count', 'current_session_id'],
    })
    expect(names(WRITE_STEPS.gaps as WriteStep<never>)).toEqual({
      table: 'game_day_gaps',
      write: 'add',
      keys: ['kind', 'day', 'prev_day'],
      columns: ['players'],
    })
    const gap = { kind: 'active' as const, day: 100, prevDay: 98, players: 3 }
    expect(valuesOf(gap, WRITE_STEPS.gaps.keys)).toEqual(['active', 100, 98])
    const row = { ...ev({ eventId: 'e1', playerId: 'a', day: 100 }), receivedAt: 7, batchId: 'b1', ip: null }
    expect(valuesOf(row, WRITE_STEPS.insertEvents.keys)).toEqual(['e1'])
    expect(WRITE_STEPS.insertEvents.columns.map(([n]) => n)).toContain('received_at')
  })

  it('runs each step statement once on its rows, in write order', async () => {
    const calls: string[] = []
    const statements = compileSteps<string, void>((step) => (db, gameId, rows) => {
      calls.push(`${db} ${gameId} ${step.table} ${step.write} ${rows.length}`)
    })
    const writes = writesOf(batch, changes({ profiles: [{ row: profile('a'), write: 'insert' }] }))
    await runWrites('db', 'g', writes, statements)
    expect(calls).toHaveLength(WRITE_ORDER.length)
    expect(calls[0]).toBe('db g game_events insert 0')
    expect(calls[2]).toBe('db g game_players insert 1')
    expect(calls.at(-1)).toBe('db g game_player_totals add 1')
  })
})

describe('the additions of a group of batches', () => {
  const daily = (day: number, over: Record<string, number> = {}) => ({
    day,
    active_players: 1,
    new_players: 0,
    paying_players: 0,
    sessions: 1,
    session_seconds: 10,
    events: 3,
    flagged_events: 0,
    transactions: 0,
    revenue_iap_micros: 0,
    revenue_ad_micros: 0,
    revenue_subscription_micros: 0,
    ...over,
  })
  const none = (): Adds => ({
    daily: [],
    dims: [],
    gaps: [],
    cohorts: [],
    cohortDims: [],
    cohortEvents: [],
    acquisition: [],
    dimPayingGaps: [],
    playerTotals: [],
  })

  it('addsOf gives a batch’s counter steps, the rows writesOf gives them', () => {
    const daily = { day: 100, ...Object.fromEntries(WRITE_STEPS.daily.columns.map(([n]) => [n, 1])) }
    const c = changes({
      profiles: [
        { row: profile('a'), write: 'insert' },
        { row: profile('b'), write: 'all' },
        { row: profile('c'), write: 'insert' },
      ],
      daily: [daily as Changes['daily'][number]],
    })
    const adds = addsOf(c)
    const writes = writesOf(batch, c)
    expect(Object.keys(adds).sort()).toEqual([...ADD_STEPS].sort())
    for (const name of ADD_STEPS) expect(adds[name], name).toEqual(writes[name])
    expect(adds.playerTotals).toEqual([{ players: 2 }])
    expect(addsOf(changes()).playerTotals).toEqual([])
  })

  it('mergeAdds sums the counters of rows with the same key, keeps the others, money saturating', () => {
    const a = {
      ...none(),
      daily: [daily(10), daily(11)],
      gaps: [{ kind: 'active' as const, day: 11, prevDay: 10, players: 2 }],
    }
    const b = {
      ...none(),
      daily: [daily(10, { events: 5, revenue_iap_micros: MONEY_SUM_MAX_MICROS - 1 })],
      gaps: [
        { kind: 'active' as const, day: 11, prevDay: 10, players: 1 },
        { kind: 'active' as const, day: 11, prevDay: 9, players: 1 },
      ],
      playerTotals: [{ players: 3 }],
    }
    const c = { ...none(), daily: [daily(10, { revenue_iap_micros: 5 })], playerTotals: [{ players: 2 }] }
    const m = mergeAdds([a, b, c])
    expect(m.daily).toEqual([
      daily(10, {
        active_players: 3,
        sessions: 3,
        session_seconds: 30,
        events: 11,
        revenue_iap_micros: MONEY_SUM_MAX_MICROS,
      }),
      daily(11),
    ])
    expect(m.gaps).toEqual([
      { kind: 'active', day: 11, prevDay: 10, players: 3 },
      { kind: 'active', day: 11, prevDay: 9, players: 1 },
    ])
    expect(m.playerTotals).toEqual([{ players: 5 }])
    // The parts are left as they were.
    expect(a.daily[0]).toEqual(daily(10))
  })

  it('mergeByGame keeps each game’s additions apart', () => {
    const m = mergeByGame([
      { gameId: 'g1', adds: { ...none(), playerTotals: [{ players: 1 }] } },
      { gameId: 'g2', adds: { ...none(), playerTotals: [{ players: 4 }] } },
      { gameId: 'g1', adds: { ...none(), playerTotals: [{ players: 2 }] } },
    ])
    expect([...m].map(([g, adds]) => [g, adds.playerTotals])).toEqual([
      ['g1', [{ players: 3 }]],
      ['g2', [{ players: 4 }]],
    ])
  })
})
