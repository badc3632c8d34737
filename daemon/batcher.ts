/**
 * Group commit for hot paths: `push` never waits; the buffer is written every `maxItems` items or
 * `intervalMs` (once started), on `flush()` (reads call it first) and on `stop()` (graceful
 * shutdown). Writes are serialized; a failed write keeps its items for the next try, bounded to
 * `maxRetained` so a database outage cannot grow memory without limit.
 */
export interface Batcher<T> {
  push(item: T): void
  flush(): Promise<void>
  start(): void
  stop(): Promise<void>
  readonly pending: number
}

export function createBatcher<T>(opts: {
  maxItems: number
  intervalMs: number
  maxRetained: number
  /** Writes one batch; must commit all of it or nothing (one transaction). */
  write(items: T[]): Promise<void>
  onError(err: unknown): void
}): Batcher<T> {
  let buffer: T[] = []
  let timer: NodeJS.Timeout | undefined
  let writing: Promise<void> = Promise.resolve()

  function flush(): Promise<void> {
    writing = writing
      .catch(() => {})
      .then(async () => {
        if (buffer.length === 0) return
        const items = buffer
        buffer = []
        try {
          await opts.write(items)
        } catch (err) {
          buffer = items.concat(buffer).slice(-opts.maxRetained)
          throw err
        }
      })
    return writing
  }
  const flushInBackground = () => void flush().catch(opts.onError)

  return {
    push(item) {
      buffer.push(item)
      if (buffer.length >= opts.maxItems) flushInBackground()
    },
    flush,
    start() {
      timer ??= setInterval(flushInBackground, opts.intervalMs)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      await flush()
    },
    get pending() {
      return buffer.length
    },
  }
}
