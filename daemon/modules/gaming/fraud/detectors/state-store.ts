/**
 * Saving and loading the detector state (table fraud_detector_state, migration 0012): the entries
 * that changed are upserted periodically, the newest entries of each kind (up to the map's cap)
 * are loaded at start, and entries not updated for `retentionMs` are deleted. The composition
 * creates the saver, awaits `load()` before serving, starts it, and awaits `stop()` (a last
 * save) at shutdown.
 */
import type { Kysely } from 'kysely'
import type { Clock } from '../../../../clock.js'
import type { Database } from '../../../../db/schema.js'
import { dropMember, hash32, type DistinctWindow } from './bounded.js'
import {
  STATE_KINDS,
  forgetPlayer,
  loadEntries,
  restoreChanges,
  takeChanges,
  type DetectorState,
  type StateEntry,
  type StateKind,
} from './state.js'

export interface DetectorStateStore {
  save(entries: readonly StateEntry[], now: number): Promise<void>
  /** The newest `limit` entries of a kind, oldest first. */
  loadRecent(kind: StateKind, limit: number): Promise<StateEntry[]>
  /** Deletes entries not updated since `before`; returns how many. */
  prune(before: number): Promise<number>
  /**
   * Deletes a player's saved window and its membership of the game's saved IP and device windows
   * (a window left empty is deleted); how many rows were deleted or rewritten.
   */
  deletePlayer(gameId: string, playerId: string): Promise<number>
}

/** Rows per INSERT statement (5 parameters a row stays far below every driver's limit). */
const SAVE_CHUNK = 200

export function createDetectorStateStore(db: Kysely<Database>): DetectorStateStore {
  const k = db
  return {
    async save(entries, now) {
      if (!entries.length) return
      await k.transaction().execute(async (trx) => {
        for (let i = 0; i < entries.length; i += SAVE_CHUNK) {
          const rows = entries.slice(i, i + SAVE_CHUNK).map((e) => ({
            game_id: e.gameId,
            kind: e.kind,
            entry_key: e.key,
            value: e.value,
            updated_at: now,
          }))
          await trx
            .insertInto('fraud_detector_state')
            .values(rows)
            .onConflict((oc) =>
              oc.columns(['game_id', 'kind', 'entry_key']).doUpdateSet((eb) => ({
                value: eb.ref('excluded.value'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .execute()
        }
      })
    },
    async loadRecent(kind, limit) {
      const rows = await k
        .selectFrom('fraud_detector_state')
        .select(['game_id', 'entry_key', 'value'])
        .where('kind', '=', kind)
        .orderBy('updated_at', 'desc')
        .orderBy('game_id', 'desc')
        .orderBy('entry_key', 'desc')
        .limit(limit)
        .execute()
      return rows.reverse().map((r) => ({ gameId: r.game_id, kind, key: r.entry_key, value: r.value }))
    },
    async prune(before) {
      const result = await k
        .deleteFrom('fraud_detector_state')
        .where('updated_at', '<', before)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
    async deletePlayer(gameId, playerId) {
      const member = hash32(playerId)
      return k.transaction().execute(async (trx) => {
        const r = await trx
          .deleteFrom('fraud_detector_state')
          .where('game_id', '=', gameId)
          .where('kind', '=', 'player')
          .where('entry_key', '=', playerId)
          .executeTakeFirst()
        let changed = Number(r.numDeletedRows)
        // A GDPR deletion is rare: reading the game's windows (at most the caps) is affordable.
        const windows = await trx
          .selectFrom('fraud_detector_state')
          .select(['kind', 'entry_key', 'value'])
          .where('game_id', '=', gameId)
          .where('kind', 'in', ['ip', 'device'])
          .execute()
        for (const w of windows) {
          const window = JSON.parse(w.value) as DistinctWindow
          if (!Array.isArray(window.members) || !dropMember(window, member)) continue
          if (window.members.length)
            await trx
              .updateTable('fraud_detector_state')
              .set({ value: JSON.stringify(window) })
              .where('game_id', '=', gameId)
              .where('kind', '=', w.kind)
              .where('entry_key', '=', w.entry_key)
              .execute()
          else
            await trx
              .deleteFrom('fraud_detector_state')
              .where('game_id', '=', gameId)
              .where('kind', '=', w.kind)
              .where('entry_key', '=', w.entry_key)
              .execute()
          changed++
        }
        return changed
      })
    },
  }
}

export interface StateSaverOptions {
  /** How often the changed entries are saved (default 10 s). */
  intervalMs?: number
  /**
   * Entries not updated for this long are deleted at each save (default 7 days). Game statistics
   * are updated by every event of an active game, so only idle games and players lose theirs.
   */
  retentionMs?: number
  /**
   * Hears an entry the database refused on its own (a save falls back to one game, then one
   * entry at a time when a whole save fails): it is skipped, the others are saved.
   */
  onSkipped?: (entry: Omit<StateEntry, 'value'>, err: unknown) => void
}

const PRUNE_EVERY_MS = 3_600_000

/** Saves the state's changes periodically and at stop; loads the saved state at start. */
/** Saves the detector windows that changed, every 10 s and at stop, and loads them at start. */
export interface StateSaver {
  /** Saves the entries changed since the last save; returns how many. */
  saveNow(): Promise<number>
  /** Loads the newest saved entries of each kind, up to the caps; returns how many. */
  load(): Promise<number>
  /** Starts the periodic save; `onError` hears a failed save (it is retried next time). */
  start(onError: (err: unknown) => void): void
  /** Stops the periodic save and saves what is left (a failure goes to `onError`, never thrown). */
  stop(): Promise<void>
  /** GDPR: forgets a player's window in memory and in the table; the rows deleted. */
  forgetPlayer(gameId: string, playerId: string): Promise<number>
}

export function createStateSaver(
  state: DetectorState,
  store: DetectorStateStore,
  clock: Clock,
  opts: StateSaverOptions = {},
): StateSaver {
  const intervalMs = opts.intervalMs ?? 10_000
  const retentionMs = opts.retentionMs ?? 7 * 86_400_000
  let timer: NodeJS.Timeout | null = null
  let reportError: (err: unknown) => void = () => {}
  /** The last save: saves run one after the other, never two at once. */
  let previous: Promise<unknown> = Promise.resolve()
  /** When idle entries were last deleted: once an hour is enough for a 7-day retention. */
  let prunedAt = -Infinity

  /**
   * Saves `entries` apart from one another, a game's at a time, then an entry at a time within a
   * game whose save fails. An entry refused on its own is skipped and reported; the entries not
   * saved are returned (all of them when nothing could be saved: the database, not an entry, is
   * the problem).
   */
  async function saveApart(entries: readonly StateEntry[], now: number): Promise<StateEntry[]> {
    const byGame = new Map<string, StateEntry[]>()
    for (const e of entries) {
      const game = byGame.get(e.gameId)
      if (game) game.push(e)
      else byGame.set(e.gameId, [e])
    }
    const refused: Array<{ entry: StateEntry; err: unknown }> = []
    for (const game of byGame.values()) {
      try {
        await store.save(game, now)
        continue
      } catch {
        // One of the game's entries, or the database: each entry alone tells which.
      }
      for (const entry of game)
        await store.save([entry], now).catch((err: unknown) => refused.push({ entry, err }))
    }
    if (refused.length === entries.length) return entries as StateEntry[]
    for (const { entry, err } of refused)
      opts.onSkipped?.({ gameId: entry.gameId, kind: entry.kind, key: entry.key }, err)
    return []
  }

  async function saveChanges(): Promise<number> {
    const entries = takeChanges(state)
    const now = clock.now()
    try {
      await store.save(entries, now)
    } catch (err) {
      // One entry the database refuses (PostgreSQL's text cannot hold NUL) must not keep every
      // other game's entries from being saved, save after save.
      const unsaved = entries.length > 1 ? await saveApart(entries, now) : entries
      if (unsaved.length) {
        restoreChanges(state, unsaved) // retried by the next save
        throw err
      }
    }
    if (now - prunedAt >= PRUNE_EVERY_MS) {
      await store.prune(now - retentionMs)
      prunedAt = now
    }
    return entries.length
  }

  /** Saves the entries changed since the last save; returns how many. */
  function saveNow(): Promise<number> {
    const next = previous.then(saveChanges)
    previous = next.catch(() => undefined)
    return next
  }

  return {
    saveNow,
    /** Loads the newest saved entries of each kind, up to the caps; returns how many. */
    async load(): Promise<number> {
      let loaded = 0
      for (const kind of STATE_KINDS) {
        const cap = {
          player: state.caps.players,
          ip: state.caps.ips,
          device: state.caps.devices,
          game: state.caps.games,
        }[kind]
        loaded += loadEntries(state, await store.loadRecent(kind, cap))
      }
      return loaded
    },
    /** Starts the periodic save; `onError` hears a failed save (it is retried next time). */
    start(onError: (err: unknown) => void): void {
      if (timer) return
      reportError = onError
      timer = setInterval(() => saveNow().catch(onError), intervalMs)
      timer.unref()
    },
    /**
     * Stops the periodic save and saves what is left. A last save that fails is reported to the
     * `onError` of `start`, never thrown: the shutdown goes on (the windows are rebuilt by traffic).
     */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer)
      timer = null
      await saveNow().catch(reportError)
    },
    /** GDPR: forgets a player's window in memory and in the table; the rows deleted. */
    async forgetPlayer(gameId: string, playerId: string): Promise<number> {
      forgetPlayer(state, gameId, playerId)
      return store.deletePlayer(gameId, playerId)
    },
  }
}
