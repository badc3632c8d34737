/** uptime, the one wording of the daemon's uptime in `linkctl status` and the TUI's Home: its two largest units. */
import { describe, expect, it } from 'vitest'
import { uptime } from '../../src/format/uptime.js'

describe('uptime', () => {
  it('names the two largest units, seconds alone under a minute, fractions dropped', () => {
    expect(uptime(0)).toBe('0s')
    expect(uptime(42.9)).toBe('42s')
    expect(uptime(5 * 60 + 3)).toBe('5m 3s')
    expect(uptime(2 * 3600 + 5 * 60 + 59)).toBe('2h 5m')
    expect(uptime(3 * 86400 + 4 * 3600 + 59 * 60)).toBe('3d 4h')
  })
})
