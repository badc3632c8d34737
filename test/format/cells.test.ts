/**
 * relativeTime, the one relative-time wording of linkctl and the TUI: durations round to the
 * nearest unit, and the unit is the largest one the rounded value reaches, so a 7-day invitation
 * read a moment after it was made "expires in 7 days" (not 6).
 */
import { describe, expect, it } from 'vitest'
import { relativeTime } from '../../src/format/cells.js'

const S = 1000
const M = 60 * S
const H = 60 * M
const D = 24 * H
const now = Date.parse('2026-11-21T10:00:00.000Z')
const ahead = (ms: number) => relativeTime(now + ms, now)
const ago = (ms: number) => relativeTime(now - ms, now)

describe('relativeTime', () => {
  it('a fresh 7-day expiry reads "in 7 days", from the first millisecond to the first minutes', () => {
    expect(ahead(7 * D)).toBe('in 7 days')
    expect(ahead(7 * D - 1)).toBe('in 7 days')
    expect(ahead(7 * D - S)).toBe('in 7 days')
    expect(ahead(7 * D - 5 * M)).toBe('in 7 days')
  })

  it('rounds to the nearest unit: half a unit up, less down', () => {
    expect(ahead(6 * D + 12 * H)).toBe('in 7 days')
    expect(ahead(6 * D + 12 * H - 1)).toBe('in 6 days')
    expect(ahead(90 * S)).toBe('in 2 minutes')
    expect(ahead(90 * S - 1)).toBe('in 1 minute')
    expect(ago(2 * H + 29 * M)).toBe('2 hours ago')
    expect(ago(2 * H + 30 * M)).toBe('3 hours ago')
  })

  it('moves to the next unit when the rounded value reaches it', () => {
    expect(ahead(59 * M + 29 * S)).toBe('in 59 minutes')
    expect(ahead(59 * M + 30 * S)).toBe('in 1 hour')
    expect(ahead(23 * H + 29 * M)).toBe('in 23 hours')
    expect(ahead(23 * H + 30 * M)).toBe('in 1 day')
    expect(ago(29 * D + 11 * H)).toBe('29 days ago')
    expect(ago(29 * D + 12 * H)).toBe('1 month ago')
    expect(ago(345 * D)).toBe('1 year ago')
    expect(ago(800 * D)).toBe('2 years ago')
  })

  it('under a minute is "just now", either way', () => {
    expect(ago(0)).toBe('just now')
    expect(ago(59 * S)).toBe('just now')
    expect(ahead(59_999)).toBe('just now')
    expect(ago(60 * S)).toBe('1 minute ago')
    expect(ahead(60 * S)).toBe('in 1 minute')
  })
})
