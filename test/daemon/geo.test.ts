import { describe, expect, it } from 'vitest'
import { isPublicIp, openGeo } from '../../daemon/geo.js'

describe('geo (bundled CC0 country database)', () => {
  const geo = openGeo()

  it('maps public IPv4, IPv6 and IPv4-mapped addresses to ISO countries', () => {
    expect(geo.country('8.8.8.8')).toBe('US')
    expect(geo.country('::ffff:8.8.8.8')).toBe('US')
    expect(geo.country('2a00:1450:4001::1')).toMatch(/^[A-Z]{2}$/)
  })

  it('gives no country to private, loopback, CGNAT or malformed addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.1.5', '100.64.0.1', '::1', 'fd00::1', 'nonsense'])
      expect(geo.country(ip), ip).toBeNull()
    expect(isPublicIp('192.168.1.5')).toBe(false)
    expect(isPublicIp('1.1.1.1')).toBe(true)
  })

  it('reads every spelling of an address as the address it is (IPv4-compatible included)', () => {
    for (const ip of ['::7f00:1', '::a00:1', '::127.0.0.1', '::ffff:10.0.0.1', '[::ffff:192.168.1.5]'])
      expect(isPublicIp(ip), ip).toBe(false)
    expect(geo.country('::808:808')).toBe('US')
    expect(geo.country('::8.8.8.8')).toBe('US')
  })
})
