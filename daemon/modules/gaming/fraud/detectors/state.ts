/**
 * The detectors' memory: windows per player, IP and device fingerprint, and running statistics per
 * game, each map an LRU with a size cap so memory stays bounded whatever the traffic. The state
 * store (state-store.ts) saves the entries that changed and loads the recent ones at start.
 */
import {
  LruMap,
  dropMember,
  emptyStats,
  hash32,
  type DistinctWindow,
  type EwStats,
  type RunningStats,
} from './bounded.js'

/** What the detectors remember of one player of one game. */
export interface PlayerWindow {
  /** Timestamp of the player's latest event (event time, ms); 0 before the first. */
  lastTs: number
  /** Inter-event intervals (ms) within a session, exponentially weighted. */
  intervals: EwStats
  /** The same intervals on a log scale (cadence outliers are judged on log-intervals). */
  logIntervals: EwStats
  /** Sliding per-minute counter of the player's events (event time). */
  minute: number
  inMinute: number
  inPreviousMinute: number
}

/** Running statistics of one game: log-intervals of every player, and revenue per type. */
export interface GameStats {
  logIntervals: RunningStats
  revenue: Record<string, RunningStats>
}

/**
 * Size caps of the maps, and the heap they mean (measured, `npm run bench fraud-detect` and a
 * fill of every window): at the default caps the state holds ~65 MB when each IP and device
 * window has one player (typical traffic), ~120 MB when every window is full (64 players each).
 * Keys are per game (gameId + id); a player entry is ~500 B with its key and LRU node.
 */
export interface StateCaps {
  players: number
  ips: number
  devices: number
  games: number
  /** Distinct players kept per IP or device window (beyond it the device-farm score is ~1). */
  membersPerWindow: number
}

export const DEFAULT_CAPS: StateCaps = {
  players: 50_000,
  ips: 30_000,
  devices: 30_000,
  games: 5_000,
  membersPerWindow: 64,
}

/** The kinds of entries, as the store names them. */
export const STATE_KINDS = ['player', 'ip', 'device', 'game'] as const
export type StateKind = (typeof STATE_KINDS)[number]

export interface DetectorState {
  caps: StateCaps
  players: LruMap<PlayerWindow>
  ips: LruMap<DistinctWindow>
  devices: LruMap<DistinctWindow>
  games: LruMap<GameStats>
}

export function createDetectorState(caps: Partial<StateCaps> = {}): DetectorState {
  const all = { ...DEFAULT_CAPS, ...caps }
  return {
    caps: all,
    players: new LruMap(all.players),
    ips: new LruMap(all.ips),
    devices: new LruMap(all.devices),
    games: new LruMap(all.games),
  }
}

const SEPARATOR = '\u0000'
/** The in-memory key of an entry of a game. */
export const stateKey = (gameId: string, id: string): string => gameId + SEPARATOR + id

export const newPlayerWindow = (): PlayerWindow => ({
  lastTs: 0,
  intervals: { n: 0, mean: 0, variance: 0 },
  logIntervals: { n: 0, mean: 0, variance: 0 },
  minute: 0,
  inMinute: 0,
  inPreviousMinute: 0,
})

export const newGameStats = (): GameStats => ({ logIntervals: emptyStats(), revenue: {} })

/** One saved entry: the state store's row without its time. */
export interface StateEntry {
  gameId: string
  kind: StateKind
  key: string
  /** JSON of the entry. */
  value: string
}

function mapOf(state: DetectorState, kind: StateKind): LruMap<unknown> {
  if (kind === 'player') return state.players
  if (kind === 'ip') return state.ips
  if (kind === 'device') return state.devices
  return state.games
}

/** The entries changed since the last snapshot; they count as saved from now on. */
export function takeChanges(state: DetectorState): StateEntry[] {
  const out: StateEntry[] = []
  for (const kind of STATE_KINDS) {
    for (const [compound, value] of mapOf(state, kind).takeDirty()) {
      const at = compound.indexOf(SEPARATOR)
      out.push({
        gameId: compound.slice(0, at),
        kind,
        key: compound.slice(at + 1),
        value: JSON.stringify(value),
      })
    }
  }
  return out
}

/** Marks entries of a snapshot whose save failed as changed again. */
export function restoreChanges(state: DetectorState, entries: readonly StateEntry[]): void {
  for (const kind of STATE_KINDS) {
    mapOf(state, kind).markDirty(entries.filter((e) => e.kind === kind).map((e) => stateKey(e.gameId, e.key)))
  }
}

/**
 * Loads saved entries, oldest first (so the newest end up youngest in the LRU order). Loaded
 * entries are not marked changed; an entry that does not parse is skipped.
 */
export function loadEntries(state: DetectorState, entries: readonly StateEntry[]): number {
  let loaded = 0
  for (const entry of entries) {
    let value: unknown
    try {
      value = JSON.parse(entry.value)
    } catch {
      continue
    }
    if (!value || typeof value !== 'object') continue
    const map = mapOf(state, entry.kind)
    const key = stateKey(entry.gameId, entry.key)
    map.set(key, value)
    map.markClean(key)
    loaded++
  }
  return loaded
}

/**
 * Forgets a player (GDPR deletion): its window, and its membership of the game's IP and device
 * windows. A window left without members is deleted (its key, an address or a fingerprint, is the
 * player's data); a window still shared with others is marked changed, so the next save rewrites
 * it. The store does the same to the saved rows (`DetectorStateStore.deletePlayer`).
 */
export function forgetPlayer(state: DetectorState, gameId: string, playerId: string): void {
  state.players.delete(stateKey(gameId, playerId))
  const member = hash32(playerId)
  const prefix = stateKey(gameId, '')
  for (const map of [state.ips, state.devices]) {
    const emptied: string[] = []
    const changed: string[] = []
    for (const key of map.keys()) {
      if (!key.startsWith(prefix)) continue
      const window = map.peek(key)!
      if (!dropMember(window, member)) continue
      if (window.members.length) changed.push(key)
      else emptied.push(key)
    }
    for (const key of emptied) map.delete(key)
    map.markDirty(changed)
  }
}
