import type { Clock } from '../../daemon/clock.js'

/** A clock tests move by hand. */
export class FakeClock implements Clock {
  constructor(private t = Date.parse('2026-11-21T10:00:00.000Z')) {}
  now(): number {
    return this.t
  }
  advance(ms: number): void {
    this.t += ms
  }
  set(iso: string | number): void {
    this.t = typeof iso === 'number' ? iso : Date.parse(iso)
  }
}
