/**
 * The TUI's clock in the screen tests: time stands still until a test moves it, so a refresh or a
 * retry happens when the test says and never in the middle of what it counts or reads.
 */
import type { TuiClock } from '../../src/tui/clock.js'
import { T0 } from './fake-data.js'

interface Timer {
  at: number
  seq: number
  fn: () => void
}

export class ManualClock implements TuiClock {
  private timers: Timer[] = []
  private seq = 0

  /** A day after the fake data's T0: what it made reads "1 day ago". */
  constructor(private t = Date.parse(T0) + 86_400_000) {}

  now(): number {
    return this.t
  }

  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.t + ms, seq: this.seq++, fn }
    this.timers.push(timer)
    return () => void (this.timers = this.timers.filter((t) => t !== timer))
  }

  /** Moves time on by `ms`, running the timers that fall due on the way, in order. */
  advance(ms: number): void {
    const end = this.t + ms
    for (;;) {
      const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0]
      if (!next) break
      this.timers = this.timers.filter((t) => t !== next)
      this.t = Math.max(this.t, next.at)
      next.fn()
    }
    this.t = end
  }

  /** Timers waiting (the polls of what is on screen, retries). */
  get pending(): number {
    return this.timers.length
  }
}
