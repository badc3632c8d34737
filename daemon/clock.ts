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
