import { describe, expect, it } from 'vitest'
import { AppError } from '../../../daemon/http/errors.js'
import { parseExpiry } from '../../../daemon/http/expiry.js'

const NOW = Date.parse('2026-11-21T10:00:00Z')

function refusal(value: string): AppError {
  try {
    parseExpiry(value, NOW)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error(`${value} was accepted`)
}

describe('parseExpiry (the one expiry parser of links and API keys)', () => {
  it('accepts a future ISO 8601 date-time; null and undefined pass through', () => {
    expect(parseExpiry('2026-11-21T10:00:00.001Z', NOW)).toBe(NOW + 1)
    expect(parseExpiry('2026-11-21T13:00:00+02:00', NOW)).toBe(NOW + 3_600_000)
    expect(parseExpiry(null, NOW)).toBeNull()
    expect(parseExpiry(undefined, NOW)).toBeUndefined()
  })

  it('refuses now, the past and what is not a date, as a ValidationError on expiresAt', () => {
    for (const past of ['2026-11-21T10:00:00Z', '2020-01-01T00:00:00Z']) {
      const err = refusal(past)
      expect(err.type).toBe('ValidationError')
      expect(err.details).toEqual([{ field: 'expiresAt', message: 'must be in the future' }])
    }
    const err = refusal('next tuesday')
    expect(err.type).toBe('ValidationError')
    expect(err.details).toEqual([{ field: 'expiresAt', message: 'must be an ISO 8601 date-time' }])
  })
})
