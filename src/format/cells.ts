/**
 * How values look in a cell of linkctl's tables and the TUI's screens: the one place both take
 * them from. Control characters are escaped (visible.ts) wherever text comes from data.
 */
import type { FraudEvent } from '../contract/fraud.js'
import { round } from '../contract/numbers.js'
import { visible } from './visible.js'

/** `s` cut to `width` characters, the last one an ellipsis when something was cut; controls escaped. */
export function truncate(s: string, width: number): string {
  const chars = [...visible(s)]
  if (chars.length <= width) return chars.join('')
  return width <= 0 ? '' : `${chars.slice(0, width - 1).join('')}…`
}

/**
 * A line of `width` characters at most: `head` (a title, a name) cut with an ellipsis so that
 * `tail` (the ids and figures after it) stays whole.
 */
export function fitHead(head: string, tail: string, width: number): string {
  return truncate(head, Math.max(8, width - [...visible(tail)].length)) + tail
}

/** Masked form of a key, as the daemon shows it: lk_••• and the last four characters. */
export function maskKey(key: string | undefined): string {
  if (!key) return ''
  return `lk_•••${key.slice(-4)}`
}

/** The units, smallest first, each with how many of it make the next. */
const UNITS: readonly [name: string, ms: number, next: number][] = [
  ['minute', 60_000, 60],
  ['hour', 3_600_000, 24],
  ['day', 86_400_000, 30],
  ['month', 30 * 86_400_000, 12],
  ['year', 365 * 86_400_000, Infinity],
]

/**
 * `then` relative to `now`: "3 minutes ago", "in 2 days", "just now" (under a minute). The
 * duration rounds to the nearest unit, in the smallest unit whose rounded count stays below the
 * next one: 7 days less a second is "in 7 days", 23 h 30 min "in 1 day".
 */
export function relativeTime(then: number, now: number): string {
  const diff = then - now
  const size = Math.abs(diff)
  if (size < 60_000) return 'just now'
  for (const [name, ms, next] of UNITS) {
    const n = Math.round(size / ms)
    if (n >= next) continue
    const text = `${n} ${name}${n === 1 ? '' : 's'}`
    return diff < 0 ? `${text} ago` : `in ${text}`
  }
  return 'just now'
}

/** A country as the CLI and the TUI show it: its ISO code, or `Unknown` when it is not known. */
export function countryName(code: string | null | undefined): string {
  return code || 'Unknown'
}

/** A bar of full blocks, `width` long for `max` (empty when `max` is 0). */
export function bar(value: number, max: number, width: number): string {
  return max > 0 ? '█'.repeat(Math.round((value / max) * width)) : ''
}

/** A percentage as text: `12.5%`; rounded to `digits` decimals when given. */
export function percent(n: number, digits?: number): string {
  return `${digits === undefined ? n : round(n, digits)}%`
}

/**
 * An amount of money with a fixed number of decimals (2 unless told), followed by its currency
 * code when the API names one (`12.30 USD`). Tables show money with 2 decimals and the currency
 * on a terminal; piped, the bare number (the header names the currency).
 */
export function money(n: number, decimals = 2, currency?: string): string {
  return currency ? `${n.toFixed(decimals)} ${currency}` : n.toFixed(decimals)
}

/** A resolver's DNS error code (ECONNREFUSED, ETIMEOUT, …) in words. */
export function dnsErrorText(code: string): string {
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ETIMEOUT: 'timed out',
    ESERVFAIL: 'server failure',
    EREFUSED: 'query refused',
  }
  return words[code] ?? code
}

/** The rules an event triggered: the names kept (the first 10) and how many more there were. */
export function ruleNames(e: Pick<FraudEvent, 'triggeredRules' | 'triggeredRuleCount'>): string {
  const more = e.triggeredRuleCount - e.triggeredRules.length
  return e.triggeredRules.join(', ') + (more > 0 ? ` +${more} more` : '')
}
