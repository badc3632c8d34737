/**
 * The periodic save of the fraud detectors' state isolates an entry the database refuses: the
 * entry is skipped and reported, every other game's entries are saved (one player id holding a
 * NUL made every save of every game fail on PostgreSQL until a restart). A database that refuses
 * everything still keeps the changes for the next save.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { detect } from '../../../../daemon/modules/gaming/fraud/detectors/detect.js'
import {
  createDetectorState,
  type StateEntry,
} from '../../../../daemon/modules/gaming/fraud/detectors/state.js'
import {
  createDetectorStateStore,
  createStateSaver,
  type DetectorStateStore,
} from '../../../../daemon/modules/gaming/fraud/detectors/state-store.js'
import { createTestApp, sqlRows, type TestApp } from '../../../support/app.js'
import { onPostgres } from '../../../support/postgres.js'
import { T0, context, gameEvent } from './detectors/traffic.js'

let t: TestApp
beforeEach(async () => (t = await createTestApp()))
afterEach(() => t.close())

const clock = { now: () => T0 }
type Skipped = Omit<StateEntry, 'value'>

/** Players of three games seen by the detectors, one of them `bad` in game gam_b. */
function seen(bad: string) {
  const state = createDetectorState()
  for (const [gameId, playerId] of [
    ['gam_a', 'a1'],
    ['gam_b', 'b1'],
    ['gam_b', bad],
    ['gam_c', 'c1'],
  ] as const)
    detect(gameEvent({ playerId }), context({ gameId, ip: null }), state, T0)
  return state
}

const savedPlayers = async () =>
  (
    await sqlRows<{ game_id: string; entry_key: string }>(
      t,
      "SELECT game_id, entry_key FROM fraud_detector_state WHERE kind = 'player' ORDER BY game_id, entry_key",
    )
  ).map((r) => `${r.game_id}/${r.entry_key}`)

describe('fraud detector state: one bad entry', () => {
  it('a player id the database refuses is skipped and reported; the other games are saved', async () => {
    const bad = 'nul\u0000player'
    const state = seen(bad)
    const skipped: Skipped[] = []
    const saver = createStateSaver(state, createDetectorStateStore(t.db.kysely), clock, {
      onSkipped: (entry) => skipped.push(entry),
    })
    // Three game statistics and four players, saved in one go or entry by entry.
    expect(await saver.saveNow()).toBe(7)
    if (onPostgres) {
      // PostgreSQL's text cannot hold NUL: that one entry is skipped, not retried.
      expect(skipped).toEqual([{ gameId: 'gam_b', kind: 'player', key: bad }])
      expect(await savedPlayers()).toEqual(['gam_a/a1', 'gam_b/b1', 'gam_c/c1'])
    } else {
      expect(skipped).toEqual([])
      expect(await savedPlayers()).toEqual(['gam_a/a1', 'gam_b/b1', `gam_b/${bad}`, 'gam_c/c1'])
    }
    expect(await saver.saveNow()).toBe(0)
    // Later changes save as usual.
    detect(gameEvent({ playerId: 'a2' }), context({ gameId: 'gam_a', ip: null }), state, T0)
    expect(await saver.saveNow()).toBe(2)
    expect(await savedPlayers()).toContain('gam_a/a2')
  })

  it('an entry refused on either engine is isolated the same way; the rest of its game is saved', async () => {
    const real = createDetectorStateStore(t.db.kysely)
    // A store that refuses any statement holding the entry of player `refused`.
    const store: DetectorStateStore = {
      ...real,
      async save(entries, now) {
        if (entries.some((e) => e.key === 'refused')) throw new Error('value too long for the column')
        return real.save(entries, now)
      },
    }
    const skipped: Skipped[] = []
    const saver = createStateSaver(seen('refused'), store, clock, { onSkipped: (e) => skipped.push(e) })
    expect(await saver.saveNow()).toBe(7)
    expect(skipped).toEqual([{ gameId: 'gam_b', kind: 'player', key: 'refused' }])
    expect(await savedPlayers()).toEqual(['gam_a/a1', 'gam_b/b1', 'gam_c/c1'])
    const games = await sqlRows<{ game_id: string }>(
      t,
      "SELECT game_id FROM fraud_detector_state WHERE kind = 'game' ORDER BY game_id",
    )
    expect(games.map((g) => g.game_id)).toEqual(['gam_a', 'gam_b', 'gam_c'])
  })

  it('a database refusing every entry keeps the changes for the next save (nothing skipped)', async () => {
    const real = createDetectorStateStore(t.db.kysely)
    let down = true
    const store: DetectorStateStore = {
      ...real,
      async save(entries, now) {
        if (down) throw new Error('connection refused')
        return real.save(entries, now)
      },
    }
    const skipped: Skipped[] = []
    const saver = createStateSaver(seen('b2'), store, clock, { onSkipped: (e) => skipped.push(e) })
    await expect(saver.saveNow()).rejects.toThrow(/connection refused/)
    down = false
    expect(await saver.saveNow()).toBe(7)
    expect(skipped).toEqual([])
    expect(await savedPlayers()).toEqual(['gam_a/a1', 'gam_b/b1', 'gam_b/b2', 'gam_c/c1'])
  })
})
