/**
 * Group commit for hot paths: `push` never waits; the buffer is written every `maxItems` or
 * `intervalMs`, on `flush()` and `stop()`. A failed write keeps its items for the next, up to
 * `maxRetained`; beyond, the oldest are dropped and reported through `onDrop`.
 */
export interface Batcher<T> {
  push(item: T): void
  flush(): Promise<void>
  start(): void
  /** Writes what is buffered; never rejects (what cannot be written is dropped and reported). */
  stop(): Promise<void>
  readonly pending: number
  /** Items dropped since creation. */
  readonly dropped: number
  /** The error of the last write when it failed; undefined once a write succeeds. */
  readonly failure: unknown
}

export function createBatcher<T>(opts: {
  maxItems: number
  intervalMs: number
  maxRetained: number
  /** Writes one batch; must commit all of it or nothing (one transaction). */
  write(items: T[]): Promise<void>
  onError(err: unknown): void
  /** Items given up: `count` since the last report, `err` the write failure behind it. */
  onDrop?(count: number, err: unknown): void
}): Batcher<T> {
  let buffer: T[] = []
  let timer: NodeJS.Timeout | undefined
  let writing: Promise<void> = Promise.resolve()
  let failure: unknown
  let failing = false
  let dropped = 0
  let unreported = 0

  function drop(n: number): void {
    dropped += n
    unreported += n
  }
  function report(err: unknown): void {
    if (unreported === 0) return
    const n = unreported
    unreported = 0
    opts.onDrop?.(n, err)
  }

  function flush(): Promise<void> {
    writing = writing
      .catch(() => {})
      .then(async () => {
        if (buffer.length === 0) return report(failure)
        const items = buffer
        buffer = []
        try {
          await opts.write(items)
          failing = false
          report(failure)
          failure = undefined
        } catch (err) {
          failing = true
          failure = err
          buffer = items.concat(buffer)
          const over = buffer.length - opts.maxRetained
          if (over > 0) {
            buffer = buffer.slice(over)
            drop(over)
          }
          report(err)
          throw err
        }
      })
    return writing
  }
  const flushInBackground = () => void flush().catch(opts.onError)

  return {
    push(item) {
      buffer.push(item)
      if (!failing) {
        if (buffer.length >= opts.maxItems) flushInBackground()
      } else if (buffer.length >= opts.maxRetained + opts.maxItems) {
        // Trimmed in steps of maxItems so that a push stays O(1) on average.
        const over = buffer.length - opts.maxRetained
        buffer = buffer.slice(over)
        drop(over)
      }
    },
    flush,
    start() {
      timer ??= setInterval(flushInBackground, opts.intervalMs)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      try {
        await flush()
      } catch (err) {
        drop(buffer.length)
        buffer = []
        report(err)
        opts.onError(err)
      }
    },
    get pending() {
      return buffer.length
    },
    get dropped() {
      return dropped
    },
    get failure() {
      return failure
    },
  }
}
