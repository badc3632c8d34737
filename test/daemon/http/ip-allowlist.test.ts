import { describe, expect, it } from 'vitest'
import {
  formatAllowEntry,
  ipAllowed,
  parseAllowEntry,
  type AllowEntry,
} from '../../../daemon/http/ip-allowlist.js'

const entries = (...list: string[]): AllowEntry[] =>
  list.map((s) => {
    const e = parseAllowEntry(s)
    if (!e) throw new Error(`invalid test entry ${s}`)
    return e
  })

const canonical = (s: string) => {
  const e = parseAllowEntry(s)
  return e && formatAllowEntry(e)
}

describe('ip allowlist entries', () => {
  it('parses and formats addresses and ranges canonically', () => {
    expect(canonical('1.2.3.4')).toBe('1.2.3.4')
    expect(canonical(' 10.0.0.0/8 ')).toBe('10.0.0.0/8')
    expect(canonical('1.2.3.4/32')).toBe('1.2.3.4')
    expect(canonical('2001:0db8:0000:0000::/32')).toBe('2001:db8::/32')
    expect(canonical('::1')).toBe('::1')
    expect(canonical('::1/128')).toBe('::1')
    expect(canonical('::ffff:1.2.3.4')).toBe('1.2.3.4')
    expect(canonical('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8')
    expect(canonical('::ffff:0:0/96')).toBe('0.0.0.0/0')
  })

  it('rejects what is not an address or range', () => {
    for (const bad of [
      '',
      'localhost',
      '1.2.3',
      '127.1',
      '0x7f.0.0.1',
      '2130706433',
      '010.0.0.1',
      '256.1.1.1',
      '1.2.3.4/33',
      '10.0.0.0/-1',
      '::1/129',
      '2001:db8::/abc',
      '1.2.3.4/',
      'http://1.2.3.4',
    ])
      expect(parseAllowEntry(bad), bad).toBeUndefined()
  })

  it('keeps an IPv4-mapped range shorter than /96 as an IPv6 range, and it round-trips', () => {
    const e = parseAllowEntry('::ffff:1.2.3.4/64')
    expect(e).toBeDefined()
    expect(e!.addr.kind()).toBe('ipv6')
    expect(e!.bits).toBe(64)
    const text = formatAllowEntry(e!)
    expect(text).toBe('::ffff:102:304/64')
    const again = parseAllowEntry(text)
    expect(again).toBeDefined()
    expect(again!.addr.kind()).toBe('ipv6')
    expect(again!.bits).toBe(64)
    expect(formatAllowEntry(again!)).toBe(text)
    expect(ipAllowed('8.8.8.8', [e!])).toBe(false)
  })

  it('matches single addresses, CIDR ranges and both families', () => {
    const list = entries('203.0.113.7', '10.0.0.0/8', '2001:db8::/32')
    expect(ipAllowed('203.0.113.7', list)).toBe(true)
    expect(ipAllowed('203.0.113.6', list)).toBe(false)
    expect(ipAllowed('10.200.0.1', list)).toBe(true)
    expect(ipAllowed('11.0.0.0', list)).toBe(false)
    expect(ipAllowed('2001:db8:1:2::3', list)).toBe(true)
    expect(ipAllowed('2001:db9::1', list)).toBe(false)
    expect(ipAllowed('::ffff:10.9.8.7', list)).toBe(true)
    expect(ipAllowed('::ffff:203.0.113.7', list)).toBe(true)
  })

  it('an empty list allows everything; an unparsable client address is refused', () => {
    expect(ipAllowed('198.51.100.1', [])).toBe(true)
    expect(ipAllowed('not-an-ip', entries('0.0.0.0/0'))).toBe(false)
    expect(ipAllowed('', entries('0.0.0.0/0'))).toBe(false)
  })

  it('0.0.0.0/0 and ::/0 match their whole family only', () => {
    expect(ipAllowed('198.51.100.1', entries('0.0.0.0/0'))).toBe(true)
    expect(ipAllowed('2001:db8::1', entries('0.0.0.0/0'))).toBe(false)
    expect(ipAllowed('2001:db8::1', entries('::/0'))).toBe(true)
    expect(ipAllowed('198.51.100.1', entries('::/0'))).toBe(false)
  })
})
