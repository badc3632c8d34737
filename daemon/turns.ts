/**
 * The event loop time ingestion's CPU-heavy work (parsing and judging batches, writing a group)
 * gets in one turn, all of it together, before the I/O that arrived meanwhile (ms).
 */
export const INGEST_TURN_MS = 1

/** Waits for a turn; `first`: ahead of the callers already waiting (work begun that others wait for). */
export type Turn = (first?: boolean) => Promise<void>

/**
 * Turns of the event loop for CPU-heavy work that arrives in bursts (gaming batches): each caller
 * waits for its turn, in order (a `first` caller ahead of the others); within one turn callers go
 * one after another, each up to its first wait, until `turnMs` is used; the others wait for the
 * next turn, which comes after the I/O that arrived meanwhile (redirects, reads) has been handled.
 */
export function createTurns(turnMs: number): Turn {
  const waiting: Array<() => void> = []
  let scheduled = false
  let started = 0
  const next = (): void => {
    const go = waiting.shift()
    if (!go) {
      scheduled = false
      return
    }
    go()
    // Queued after the caller's continuation: runs once it has reached its first wait.
    queueMicrotask(() => {
      if (!waiting.length) scheduled = false
      else if (performance.now() - started < turnMs) next()
      else setImmediate(turn)
    })
  }
  const turn = (): void => {
    started = performance.now()
    next()
  }
  return (first = false) =>
    new Promise<void>((resolve) => {
      if (first) waiting.unshift(resolve)
      else waiting.push(resolve)
      if (!scheduled) {
        scheduled = true
        setImmediate(turn)
      }
    })
}
