import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../../../daemon/db/open.js'
import { loadMigrations, migrate } from '../../../../../daemon/db/migrate.js'
import { LruMap } from '../../../../../daemon/modules/gaming/fraud/detectors/bounded.js'
import { detect } from '../../../../../daemon/modules/gaming/fraud/detectors/detect.js'
import {
  DEFAULT_CAPS,
  createDetectorState,
  stateKey,
} from '../../../../../daemon/modules/gaming/fraud/detectors/state.js'
import {
  createDetectorStateStore,
  createStateSaver,
} from '../../../../../daemon/modules/gaming/fraud/detectors/state-store.js'
import { T0, context, gameEvent } from './traffic.js'

describe('detector state: bounded', () => {
  it('drops the least recently used entry first (a read makes an entry young again)', () => {
    const map = new LruMap<number>(3)
    for (const key of ['a', 'b', 'c']) map.set(key, 1)
    map.get('a')
    map.set('d', 1)
    expect([...map.keys()]).toEqual(['c', 'a', 'd'])
    for (let i = 0; i < 100; i++) map.set(`x${i}`, i)
    map.get('x97')
    map.set('y', 1)
    expect([...map.keys()]).toEqual(['x99', 'x97', 'y'])
    // Evicted entries are no longer reported as changed.
    expect(
      map
        .takeDirty()
        .map(([key]) => key)
        .sort(),
    ).toEqual(['x97', 'x99', 'y'])
  })

  // 200k distinct of each is 4-40 times every cap: enough to show the bound, and a few seconds
  // rather than the 60+ s 1M took on a loaded 2-core CI machine.
  it('holds its caps under 200k distinct players, IPs and devices', { timeout: 60_000 }, () => {
    const state = createDetectorState()
    const events = 200_000
    for (let i = 0; i < events; i++) {
      detect(
        gameEvent({ playerId: `p${i}`, deviceFingerprint: `fp${i}`, ts: T0 + i }),
        context({ gameId: `gam_${i % 20_000}`, ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }),
        state,
        T0 + i,
      )
    }
    expect(state.players.size).toBe(DEFAULT_CAPS.players)
    expect(state.ips.size).toBe(DEFAULT_CAPS.ips)
    expect(state.devices.size).toBe(DEFAULT_CAPS.devices)
    expect(state.games.size).toBe(DEFAULT_CAPS.games)
    // The newest entries are the ones kept.
    expect(state.players.get(stateKey(`gam_${(events - 1) % 20_000}`, `p${events - 1}`))).toBeDefined()
    expect(state.players.get(stateKey('gam_0', 'p0'))).toBeUndefined()
  })

  it('keeps at most membersPerWindow players per IP window (the farm still scores ~1)', () => {
    const state = createDetectorState({ membersPerWindow: 64 })
    let last = detect(gameEvent(), context(), state, T0)
    for (let i = 0; i < 1000; i++)
      last = detect(gameEvent({ playerId: `farm-${i}` }), context(), state, T0 + i)
    const window = state.ips.get(stateKey('gam_1', '203.0.113.7'))!
    expect(window.members.length).toBe(64)
    expect(last.scores.device_farm).toBeGreaterThan(0.99)
  })
})

describe('detector state: saved and restored (real SQLite file)', () => {
  let dir: string
  let db: Db
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fraud-state-'))
    db = openDatabase(`sqlite:${join(dir, 'linkd.db')}`)
    await migrate(db, 0)
  })
  afterEach(async () => {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const clock = { now: () => T0 }

  /** A state that saw one event of `playerId`, with its store and saver on the test database. */
  function oneEventSeen(playerId: string) {
    const state = createDetectorState()
    const store = createDetectorStateStore(db.kysely)
    detect(gameEvent({ playerId }), context({ ip: null }), state, T0)
    return { state, store, saver: createStateSaver(state, store, clock) }
  }

  it('a device farm and a purchase history survive a restart', async () => {
    const before = createDetectorState()
    for (let i = 0; i < 49; i++) detect(gameEvent({ playerId: `farm-${i}` }), context(), before, T0)
    for (let i = 0; i < 100; i++)
      detect(
        gameEvent({
          playerId: `b${i}`,
          type: 'purchase',
          revenueType: 'iap',
          revenueMicros: 4_990_000 + (i % 5) * 100_000,
        }),
        context({ ip: `198.51.100.${i % 200}` }),
        before,
        T0,
      )
    const saver = createStateSaver(before, createDetectorStateStore(db.kysely), clock)
    expect(await saver.saveNow()).toBeGreaterThan(0)
    expect(await saver.saveNow()).toBe(0) // nothing changed since
    await db.close()

    // "Restart": a new process state loaded from the reopened file.
    db = openDatabase(`sqlite:${join(dir, 'linkd.db')}`)
    const after = createDetectorState()
    const loader = createStateSaver(after, createDetectorStateStore(db.kysely), clock)
    expect(await loader.load()).toBe(
      before.players.size + before.ips.size + before.devices.size + before.games.size,
    )

    const fiftieth = detect(gameEvent({ playerId: 'farm-49' }), context(), after, T0 + 1000)
    expect(fiftieth.scores.device_farm).toBeGreaterThan(0.9)
    const whale = detect(
      gameEvent({ playerId: 'whale', type: 'purchase', revenueType: 'iap', revenueMicros: 99_000_000 }),
      context({ ip: null }),
      after,
      T0 + 1000,
    )
    expect(whale.scores.revenue_anomaly).toBeGreaterThan(0.99)
    // A fresh state without the history judges neither.
    const fresh = createDetectorState()
    expect(detect(gameEvent({ playerId: 'farm-49' }), context(), fresh, T0).scores.device_farm).toBe(0)
  })

  it('saves only the entries changed since the last save, and stop() saves the rest', async () => {
    const state = createDetectorState()
    const saver = createStateSaver(state, createDetectorStateStore(db.kysely), clock)
    detect(gameEvent({ playerId: 'a' }), context({ ip: null }), state, T0)
    expect(await saver.saveNow()).toBe(2) // the player and the game statistics
    detect(gameEvent({ playerId: 'b' }), context({ ip: null }), state, T0)
    await saver.stop()
    const rows = await db.kysely
      .withTables<{ fraud_detector_state: { kind: string; entry_key: string } }>()
      .selectFrom('fraud_detector_state')
      .select(['kind', 'entry_key'])
      .orderBy('kind')
      .orderBy('entry_key')
      .execute()
    expect(rows).toEqual([
      { kind: 'game', entry_key: 'stats' },
      { kind: 'player', entry_key: 'a' },
      { kind: 'player', entry_key: 'b' },
    ])
  })

  it('loads at most the caps, newest first, and prunes entries older than the retention', async () => {
    const store = createDetectorStateStore(db.kysely)
    const window = JSON.stringify({ members: [1], seenAt: [T0] })
    await store.save(
      Array.from({ length: 10 }, (_, i) => ({
        gameId: 'gam_1',
        kind: 'ip' as const,
        key: `10.0.0.${i}`,
        value: window,
      })),
      T0 - 10 * 86_400_000,
    )
    await store.save([{ gameId: 'gam_1', kind: 'ip', key: '10.0.0.99', value: window }], T0)
    const state = createDetectorState({ ips: 1 })
    await createStateSaver(state, store, clock).load()
    expect([...state.ips.keys()]).toEqual([stateKey('gam_1', '10.0.0.99')])

    const saver = createStateSaver(createDetectorState(), store, clock, { retentionMs: 86_400_000 })
    await saver.saveNow()
    expect((await store.loadRecent('ip', 100)).map((e) => e.key)).toEqual(['10.0.0.99'])
  })

  it('keeps the changes of a failed save and saves them on the next one', async () => {
    const { store, saver } = oneEventSeen('kept')
    const [migration] = loadMigrations().filter((m) => m.name === '0012_fraud_detector_state')
    db.sqlite.exec('DROP TABLE fraud_detector_state')
    await expect(saver.saveNow()).rejects.toThrow(/fraud_detector_state/)
    db.sqlite.exec(migration!.sql)
    expect(await saver.saveNow()).toBe(2)
    expect((await store.loadRecent('player', 10)).map((e) => e.key)).toEqual(['kept'])
  })

  it('forgets a player (GDPR) in memory and in the table', async () => {
    const { state, store, saver } = oneEventSeen('gone')
    await saver.saveNow()
    await saver.forgetPlayer('gam_1', 'gone')
    expect(state.players.get(stateKey('gam_1', 'gone'))).toBeUndefined()
    expect(await store.loadRecent('player', 100)).toEqual([])
  })

  it('forgets a player’s share of IP and device windows: a window left empty goes, a shared one stays', async () => {
    const state = createDetectorState()
    const store = createDetectorStateStore(db.kysely)
    const saver = createStateSaver(state, store, clock)
    const seen = (playerId: string, fingerprint: string) =>
      detect(gameEvent({ playerId, deviceFingerprint: fingerprint }), context({ ip: '192.0.2.9' }), state, T0)
    seen('leaver', 'fp-leaver')
    seen('stayer', 'fp-stayer')
    await saver.saveNow()
    // One window evicted from memory but still saved: the table is cleaned on its own.
    state.devices.delete(stateKey('gam_1', 'fp-leaver'))
    expect(await saver.forgetPlayer('gam_1', 'leaver')).toBe(3)
    expect((await store.loadRecent('device', 10)).map((e) => e.key)).toEqual(['fp-stayer'])
    const [ip] = await store.loadRecent('ip', 10)
    expect(JSON.parse(ip!.value).members).toHaveLength(1)
    expect(state.ips.get(stateKey('gam_1', '192.0.2.9'))!.members).toHaveLength(1)
    // The shared window changed in memory too: the next save writes it (one member).
    await saver.saveNow()
    expect(JSON.parse((await store.loadRecent('ip', 10))[0]!.value).members).toHaveLength(1)
  })
})
