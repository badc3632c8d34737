/** Option-argument parsers. They throw commander's InvalidArgumentError, which exits 2. */
import { InvalidArgumentError } from 'commander'
import { parseExpiry as sharedExpiry, UNIT_MS } from '../import/when.js'

export function intArg(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value)
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`)
    }
    return n
  }
}

/** A UTC day, YYYY-MM-DD, that exists (2026-02-30 does not). */
export function dayArg(value: string): string {
  const t = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN
  if (!Number.isFinite(t) || new Date(t).toISOString().slice(0, 10) !== value)
    throw new InvalidArgumentError('expected a day as YYYY-MM-DD, such as 2026-11-24')
  return value
}

/** An amount of money: a plain decimal number from 0 (or above 0 with `positive`) to `max`. */
export function moneyArg(max: number, positive = false) {
  return (value: string): number => {
    const n = Number(value)
    if (!/^\d+(\.\d+)?$/.test(value) || n > max || (positive && n === 0))
      throw new InvalidArgumentError(`expected an amount from ${positive ? 'above ' : ''}0 to ${max}`)
    return n
  }
}

/** Repeatable option: each occurrence adds one value. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value]
}

/** Repeatable `--tag`: each occurrence adds its tag, trimmed, unless empty or already there. */
export function collectTag(value: string, previous: string[] | undefined): string[] {
  const tag = value.trim()
  return tag === '' || previous?.includes(tag) ? (previous ?? []) : [...(previous ?? []), tag]
}

/** Repeatable option restricted to `choices`. */
export function collectChoice(choices: readonly string[]) {
  return (value: string, previous: string[] | undefined): string[] => {
    if (!choices.includes(value)) throw new InvalidArgumentError(`unknown value "${value}"`)
    return collect(value, previous)
  }
}

/** Comma-separated list, each item checked against `choices`; repeatable. */
export function commaChoices(choices: readonly string[]) {
  return (value: string, previous: string[] | undefined): string[] => {
    const items = value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
    const bad = items.filter((s) => !choices.includes(s))
    if (bad.length > 0) throw new InvalidArgumentError(`unknown value(s): ${bad.join(', ')}`)
    return [...(previous ?? []), ...items]
  }
}

/**
 * Expiry: an ISO date or date-time, a duration from now (`90m`, `12h`, `30d`, `2w`),
 * or `never` (no expiry). Returns ISO 8601 UTC with milliseconds, or null.
 */
export function parseExpiry(value: string, now: number = Date.now()): string | null {
  try {
    return sharedExpiry(value, now)
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message)
  }
}

/** `--expires-at`'s parser: an ISO date-time, or '' for `never` (commander makes a parser's null ''). */
export function expiryArg(value: string): string {
  return parseExpiry(value) ?? ''
}

/**
 * A flag whose parser may say "none" (`--expires-at never`, `--max-clicks none`), for a body:
 * commander makes a parser's null '', which is null here; undefined when the flag was not given.
 */
export function noneOf<T>(flag: T | '' | null | undefined): T | null | undefined {
  return flag === '' ? null : flag
}

/**
 * A point in time for analytics ranges: an ISO date or date-time, `now`, or a duration ago
 * (`7d`, `12h`, `90m`, `2w`). A plain date as the end of a range means the end of that day.
 */
export function parseInstant(value: string, edge: 'start' | 'end', now: number = Date.now()): string {
  if (value === 'now') return new Date(now).toISOString()
  const rel = /^(\d+)([mhdw])$/.exec(value)
  if (rel) return new Date(now - Number(rel[1]) * (UNIT_MS[rel[2] ?? 'd'] ?? 0)).toISOString()
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const t = Date.parse(`${value}T00:00:00Z`)
    if (Number.isFinite(t)) return new Date(edge === 'end' ? t + 86_400_000 - 1 : t).toISOString()
  } else if (/^\d{4}-\d{2}-\d{2}[T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?$/.test(value)) {
    const t = Date.parse(value)
    if (Number.isFinite(t)) return new Date(t).toISOString()
  }
  throw new InvalidArgumentError('expected an ISO date or date-time, now, or 7d/12h/90m/2w ago')
}
