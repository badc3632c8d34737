/**
 * The TUI's time: what "now" is (relative dates, the ranges it asks for) and when a poll runs
 * again (the refresh, a retry's backoff). `linkctl tui` runs on the system clock; the screen tests
 * pass a clock they move by hand, so no test waits for wall-clock time to pass or races a refresh.
 */
export interface TuiClock {
  /** Unix ms. */
  now(): number
  /** Calls `fn` once, `ms` from now; the function returned cancels it. */
  after(ms: number, fn: () => void): () => void
}

export const systemClock: TuiClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms)
    return () => clearTimeout(timer)
  },
}
