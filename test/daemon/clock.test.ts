import { describe, expect, it } from 'vitest'
import { DAY_MS, floorTo, HOUR_MS, utcDayNumber, utcMonthStart } from '../../daemon/clock.js'

const at = (s: string) => Date.parse(s)

describe('clock helpers (day/hour units and UTC month boundaries)', () => {
  it('floorTo gives the start of the hour, the day, or a week counted from a Monday', () => {
    expect(floorTo(at('2026-03-14T15:42:07.123Z'), HOUR_MS)).toBe(at('2026-03-14T15:00:00Z'))
    expect(floorTo(at('2026-03-14T15:42:07.123Z'), DAY_MS)).toBe(at('2026-03-14T00:00:00Z'))
    expect(floorTo(at('2026-03-14T15:42:07Z'), 7 * DAY_MS, 4 * DAY_MS)).toBe(at('2026-03-09T00:00:00Z'))
    // before 1970 too (a negative remainder)
    expect(floorTo(at('1969-12-31T23:30:00Z'), DAY_MS)).toBe(at('1969-12-31T00:00:00Z'))
    expect(floorTo(at('2026-03-14T00:00:00Z'), DAY_MS)).toBe(at('2026-03-14T00:00:00Z'))
  })

  it('utcDayNumber counts UTC days since 1970-01-01', () => {
    expect(utcDayNumber(0)).toBe(0)
    expect(utcDayNumber(at('1970-01-01T23:59:59.999Z'))).toBe(0)
    expect(utcDayNumber(at('2026-03-14T10:00:00Z'))).toBe(20526)
    expect(utcDayNumber(at('1969-12-31T12:00:00Z'))).toBe(-1)
  })

  it('utcMonthStart gives the first of the month, months later or earlier, across years', () => {
    expect(utcMonthStart(at('2026-03-14T15:42:07Z'))).toBe(at('2026-03-01T00:00:00Z'))
    expect(utcMonthStart(at('2026-03-01T00:00:00Z'))).toBe(at('2026-03-01T00:00:00Z'))
    expect(utcMonthStart(at('2026-12-31T23:59:59Z'), 1)).toBe(at('2027-01-01T00:00:00Z'))
    expect(utcMonthStart(at('2026-01-31T12:00:00Z'), -1)).toBe(at('2025-12-01T00:00:00Z'))
    expect(utcMonthStart(at('2024-02-29T12:00:00Z'), 12)).toBe(at('2025-02-01T00:00:00Z'))
  })
})
