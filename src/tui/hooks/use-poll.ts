/**
 * Loads data now and again every refresh interval (with `repeat: false`, only when its deps
 * change or on reload: a costly report). A failure is reported to the status line and retried
 * with backoff (1 s doubling to 30 s, or the daemon's Retry-After); the last good data stays on
 * screen meanwhile. A permanent one (a refused key, a missing resource: `Trouble.permanent`) is
 * not retried: the poll stops until the user acts (reload, other deps, the screen shown again).
 * Nothing it does throws into the render tree.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { retryDelayMs, troubleOf, type Trouble } from '../api.js'
import { useTui } from '../context.js'

export interface Poll<T> {
  data: T | undefined
  trouble: Trouble | null
  /** Loads again now (after an action changed something). */
  reload(): void
}

export function usePoll<T>(
  source: string,
  load: () => Promise<T>,
  deps: readonly unknown[],
  opts: { repeat?: boolean } = {},
): Poll<T> {
  const repeat = opts.repeat ?? true
  const { refreshMs, report, clock } = useTui()
  const [data, setData] = useState<T | undefined>(undefined)
  const [trouble, setTrouble] = useState<Trouble | null>(null)
  const [generation, setGeneration] = useState(0)
  const loadRef = useRef(load)
  loadRef.current = load

  useEffect(() => {
    let alive = true
    let cancel: (() => void) | undefined
    let failures = 0
    const run = async () => {
      try {
        const value = await loadRef.current()
        if (!alive) return
        failures = 0
        setData(value)
        setTrouble(null)
        report(source, null)
        if (repeat) cancel = clock.after(refreshMs, () => void run())
      } catch (err) {
        if (!alive) return
        failures += 1
        const t = troubleOf(err)
        setTrouble(t)
        if (t.permanent) return report(source, t)
        const wait = retryDelayMs(failures, t)
        report(source, t, wait)
        cancel = clock.after(wait, () => void run())
      }
    }
    void run()
    return () => {
      alive = false
      cancel?.()
      report(source, null)
    }
  }, [source, refreshMs, clock, report, generation, repeat, ...deps])

  const reload = useCallback(() => setGeneration((g) => g + 1), [])
  return { data, trouble, reload }
}
