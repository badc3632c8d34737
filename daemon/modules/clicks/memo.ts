/** A function of a string key that remembers its results, for at most `max` distinct keys. */
export interface Memo<T> {
  (key: string): T
  /** Keys remembered now (never more than `max`). */
  readonly size: number
}

/**
 * Remembers `fn`'s result per key; when `max` keys are held the whole map is dropped and refilled
 * (cheaper than an LRU's bookkeeping on the click flush, and just as bounded). `fn` must be pure.
 */
export function boundedMemo<T>(fn: (key: string) => T, max: number): Memo<T> {
  const results = new Map<string, T>()
  const memo = (key: string): T => {
    const hit = results.get(key)
    if (hit !== undefined) return hit
    const value = fn(key)
    if (results.size >= max) results.clear()
    results.set(key, value)
    return value
  }
  return Object.defineProperty(memo, 'size', { get: () => results.size }) as Memo<T>
}
