/** Milliseconds of the duration units accepted by `30d`, `12h`, `90m`, `2w`. */
export const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/**
 * Expiry as people write it (linkctl flags, import files): an ISO date or date-time, a duration
 * from now (`90m`, `12h`, `30d`, `2w`), or `never` (no expiry). Returns ISO 8601 UTC with
 * milliseconds, or null; throws an Error that says what is expected.
 */
export function parseExpiry(value: string, now: number): string | null {
  if (value === 'never' || value === 'none') return null
  const rel = /^(\d+)([mhdw])$/.exec(value)
  if (rel) return new Date(now + Number(rel[1]) * (UNIT_MS[rel[2] ?? 'd'] ?? 0)).toISOString()
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    const t = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)
    if (Number.isFinite(t)) return new Date(t).toISOString()
  }
  throw new Error('expected an ISO date (2026-12-31 or 2026-12-31T12:00:00Z), 30d/12h/90m/2w, or never')
}

/**
 * A point in time as other shorteners export it: ISO 8601 (`2024-03-01T10:00:00+0000` too), or
 * `YYYY-MM-DD HH:MM:SS` without a zone (YOURLS, spreadsheets), read as UTC. Undefined when it
 * is none of these.
 */
export function parseExportedTime(value: string): string | undefined {
  let s = value.trim().replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, '$1T$2')
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s)) return undefined
  if (s.length === 10) s += 'T00:00:00Z'
  else if (!/(Z|[+-]\d{2}:?\d{2})$/.test(s)) s += 'Z'
  s = s.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')
  const t = Date.parse(s)
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined
}
