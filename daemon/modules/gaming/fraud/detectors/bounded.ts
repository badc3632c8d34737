/**
 * The bounded building blocks of the detector state: an LRU map that remembers which entries
 * changed since the last save, a fixed-capacity window of distinct members, and running
 * statistics. All of them are plain data, serializable to JSON for the state store.
 */

interface LruNode<V> {
  key: string
  value: V
  older: LruNode<V> | null
  newer: LruNode<V> | null
}

/**
 * A Map capped at `cap` entries, least recently used dropped first, with a dirty-key set. The
 * order is a doubly linked list: V8's Map keeps deleted slots until a rehash, so evicting with
 * `keys().next()` rescans them, O(cap) per eviction under churn (measured: 156 µs per event at
 * 1M distinct keys, against ~14 µs with the list).
 */
export class LruMap<V> {
  private readonly nodes = new Map<string, LruNode<V>>()
  private readonly dirty = new Set<string>()
  private oldest: LruNode<V> | null = null
  private newest: LruNode<V> | null = null

  constructor(readonly cap: number) {}

  get size(): number {
    return this.nodes.size
  }

  private unlink(node: LruNode<V>): void {
    if (node.older) node.older.newer = node.newer
    else this.oldest = node.newer
    if (node.newer) node.newer.older = node.older
    else this.newest = node.older
    node.older = node.newer = null
  }

  private append(node: LruNode<V>): void {
    node.older = this.newest
    node.newer = null
    if (this.newest) this.newest.newer = node
    else this.oldest = node
    this.newest = node
  }

  /** The entry, moved to the young end of the LRU order. */
  get(key: string): V | undefined {
    const node = this.nodes.get(key)
    if (node === undefined) return undefined
    if (node !== this.newest) {
      this.unlink(node)
      this.append(node)
    }
    return node.value
  }

  /** Stores (or replaces) an entry as the youngest and marks it changed. */
  set(key: string, value: V): void {
    const node = this.nodes.get(key)
    if (node) {
      node.value = value
      this.get(key)
    } else {
      const created: LruNode<V> = { key, value, older: null, newer: null }
      this.nodes.set(key, created)
      this.append(created)
    }
    this.dirty.add(key)
    while (this.nodes.size > this.cap && this.oldest) this.delete(this.oldest.key)
  }

  /** The entry or a new one from `create`; the entry is marked changed (callers mutate it). */
  upsert(key: string, create: () => V): V {
    let value = this.get(key)
    if (value === undefined) {
      value = create()
      this.set(key, value)
    } else this.dirty.add(key)
    return value
  }

  delete(key: string): void {
    const node = this.nodes.get(key)
    if (!node) return
    this.unlink(node)
    this.nodes.delete(key)
    this.dirty.delete(key)
  }

  /** Entries changed since the last call (still present ones only), and forgets them as changed. */
  takeDirty(): [string, V][] {
    const out: [string, V][] = []
    for (const key of this.dirty) {
      const node = this.nodes.get(key)
      if (node !== undefined) out.push([key, node.value])
    }
    this.dirty.clear()
    return out
  }

  /** Puts the changes of a failed save back, so the next save retries them. */
  markDirty(keys: Iterable<string>): void {
    for (const key of keys) if (this.nodes.has(key)) this.dirty.add(key)
  }

  /** The entry is as saved (loaded from the store). */
  markClean(key: string): void {
    this.dirty.delete(key)
  }

  /** The entry, without making it the most recently used. */
  peek(key: string): V | undefined {
    return this.nodes.get(key)?.value
  }

  /** Keys from the least to the most recently used. */
  *keys(): IterableIterator<string> {
    for (let node = this.oldest; node; node = node.newer) yield node.key
  }
}

/** Removes a member (and its time) from a window; whether it was there. */
export function dropMember(window: DistinctWindow, member: number): boolean {
  const at = window.members.indexOf(member)
  if (at < 0) return false
  window.members.splice(at, 1)
  window.seenAt.splice(at, 1)
  return true
}

/** 32-bit FNV-1a of a string: members of a distinct window are kept as hashes, not strings. */
export function hash32(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * The distinct members (player-id hashes) seen on one key (an IP, a device) with the time each was
 * last seen, at most `cap` of them: a full window replaces its least recently seen member. 12
 * bytes per member; arrays start small and double up to the cap (most keys have one member).
 */
export interface DistinctWindow {
  members: number[]
  seenAt: number[]
}

export function touchMember(window: DistinctWindow, member: number, at: number, cap: number): void {
  const { members, seenAt } = window
  let oldest = 0
  for (let i = 0; i < members.length; i++) {
    if (members[i] === member) {
      if (at > seenAt[i]!) seenAt[i] = at
      return
    }
    if (seenAt[i]! < seenAt[oldest]!) oldest = i
  }
  if (members.length < cap) {
    members.push(member)
    seenAt.push(at)
  } else {
    members[oldest] = member
    seenAt[oldest] = at
  }
}

/** Members seen at or after `since`. */
export function countSince(window: DistinctWindow, since: number): number {
  let count = 0
  for (const t of window.seenAt) if (t >= since) count++
  return count
}

/** Welford's running mean and variance (population of every value seen). */
export interface RunningStats {
  n: number
  mean: number
  m2: number
}

export const emptyStats = (): RunningStats => ({ n: 0, mean: 0, m2: 0 })

export function addSample(stats: RunningStats, x: number): void {
  stats.n++
  const delta = x - stats.mean
  stats.mean += delta / stats.n
  stats.m2 += delta * (x - stats.mean)
}

export function stdDev(stats: RunningStats): number {
  return stats.n > 1 ? Math.sqrt(stats.m2 / (stats.n - 1)) : 0
}

/**
 * Exponentially weighted mean and variance: recent values weigh most (about the last 1/alpha of
 * them); the first values use weight 1/n so the start is the exact mean and variance.
 */
export interface EwStats {
  n: number
  mean: number
  variance: number
}

export function addEw(stats: EwStats, x: number, alpha: number): void {
  stats.n++
  const weight = Math.max(1 / stats.n, alpha)
  const diff = x - stats.mean
  const increment = weight * diff
  stats.mean += increment
  stats.variance = (1 - weight) * (stats.variance + diff * increment)
}

/**
 * A graded score: 0.5 when `value` equals `threshold`, towards 1 as it grows past it and towards
 * 0 below (a log-logistic curve; `steepness` 4 gives 0.94 at twice the threshold, 0.06 at half).
 */
export function aboveScore(value: number, threshold: number, steepness = 4): number {
  if (!(value > 0)) return 0
  return 1 / (1 + (threshold / value) ** steepness)
}

/** The mirror of aboveScore: 0.5 at the threshold, towards 1 as `value` falls below it. */
export function belowScore(value: number, threshold: number, steepness = 4): number {
  if (!(value > 0)) return 1
  return 1 / (1 + (value / threshold) ** steepness)
}
