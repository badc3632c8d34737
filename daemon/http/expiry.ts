import { AppError, validation } from './errors.js'

/**
 * Parses the `expiresAt` of a request body (links, API keys): an ISO 8601 date-time that must
 * lie in the future. null (no expiry) and undefined (not given) pass through.
 */
export function parseExpiry(value: string | null | undefined, now: number): number | null | undefined {
  if (value === undefined || value === null) return value
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) throw validation('expiresAt', 'must be an ISO 8601 date-time')
  if (ms <= now)
    throw new AppError('ValidationError', 'expiresAt must be in the future', [
      { field: 'expiresAt', message: 'must be in the future' },
    ])
  return ms
}
