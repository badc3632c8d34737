/** Time source. Services take it as a dependency so tests can move time without sleeping. */
export interface Clock {
  /** Unix milliseconds. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

export function iso(ms: number): string {
  return new Date(ms).toISOString()
}

export function isoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : iso(ms)
}

/** UTC day `YYYY-MM-DD` and month `YYYY-MM` of a timestamp. */
export function utcDay(ms: number): string {
  return iso(ms).slice(0, 10)
}
export function utcMonth(ms: number): string {
  return iso(ms).slice(0, 7)
}

export const MINUTE_MS = 60_000
export const HOUR_MS = 3_600_000
import { DAY_MS } from '../src/contract/numbers.js'

export { DAY_MS }

/** The start of the `size`-long period holding `ts`, periods counted from `origin` (any sign). */
export function floorTo(ts: number, size: number, origin = 0): number {
  return ts - ((((ts - origin) % size) + size) % size)
}

/** The UTC day number of a timestamp (days since 1970-01-01). */
export function utcDayNumber(ms: number): number {
  return Math.floor(ms / DAY_MS)
}

/** The UTC date `YYYY-MM-DD` of a day number (days since 1970-01-01). */
export function dateOfDay(day: number): string {
  return utcDay(day * DAY_MS)
}

/** 00:00 UTC on the first day of the month of a timestamp, `months` later (or earlier when < 0). */
export function utcMonthStart(ms: number, months = 0): number {
  const d = new Date(ms)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1)
}
