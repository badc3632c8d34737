/**
 * Signature utilities (shared by linkd and linkctl) and the SSRF guard's address checks and
 * connection pinning, against a real receiver on loopback.
 */
import { createHmac } from 'node:crypto'
import { Agent, request } from 'undici'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { signPayload, verifySignature } from '../../../src/contract/webhook-signature.js'
import {
  addressAllowed,
  pinnedLookup,
  vetTarget,
  type Resolver,
} from '../../../daemon/modules/webhooks/ssrf.js'
import { parseAddress } from '../../../daemon/addresses.js'
import { isLoopbackHost } from '../../../daemon/addresses.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'

describe('signature utilities', () => {
  const body = Buffer.from('{"id":"evt_1","data":{"name":"Zoë"}}')
  const ts = 1_795_000_000_000

  it('signs <timestamp>.<raw body> with HMAC-SHA256, hex, sha256= prefix', () => {
    const expected = createHmac('sha256', 's3cret').update(`${ts}.`).update(body).digest('hex')
    expect(signPayload('s3cret', ts, body)).toBe(`sha256=${expected}`)
    expect(signPayload('s3cret', String(ts), body.toString('utf8'))).toBe(`sha256=${expected}`)
  })

  it('verifies, or names the reason: malformed, mismatch, stale (5 minutes either way)', () => {
    const signature = signPayload('s3cret', ts, body)
    const v = (over: Partial<Parameters<typeof verifySignature>[0]>) =>
      verifySignature({ secret: 's3cret', payload: body, signature, timestamp: String(ts), now: ts, ...over })
    expect(v({})).toEqual({ valid: true })
    expect(v({ signature: signature.toUpperCase().replace('SHA256=', 'sha256=') })).toEqual({ valid: true })
    expect(v({ now: ts + 300_000 })).toEqual({ valid: true })
    expect(v({ now: ts + 300_001 })).toEqual({ valid: false, reason: 'stale' })
    expect(v({ now: ts - 300_001 })).toEqual({ valid: false, reason: 'stale' })
    expect(v({ secret: 'other' })).toEqual({ valid: false, reason: 'mismatch' })
    expect(v({ payload: Buffer.concat([body, Buffer.from(' ')]) })).toEqual({
      valid: false,
      reason: 'mismatch',
    })
    expect(v({ timestamp: String(ts + 1) })).toEqual({ valid: false, reason: 'mismatch' })
    for (const bad of [
      undefined,
      '',
      'sha256=',
      signature.slice(7),
      `sha1=${signature.slice(7)}`,
      `${signature}00`,
    ])
      expect(v({ signature: bad })).toEqual({ valid: false, reason: 'malformed' })
    for (const bad of [undefined, '', '12.5', '-1', 'now'])
      expect(v({ timestamp: bad })).toEqual({ valid: false, reason: 'malformed' })
  })
})

describe('SSRF guard', () => {
  /** The defaults (public addresses, loopback for localhost), and LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS. */
  const PUBLIC = { allowPrivateNetworks: false, allowLoopback: true }
  const LAN = { allowPrivateNetworks: true, allowLoopback: true }
  it('public addresses pass; loopback only for localhost and 127.0.0.1; the rest only when allowed', () => {
    expect(addressAllowed('93.184.216.34', 'example.com', PUBLIC)).toBe(true)
    expect(addressAllowed('2606:2800:220:1:248:1893:25c8:1946', 'example.com', PUBLIC)).toBe(true)
    expect(addressAllowed('127.0.0.1', 'localhost', PUBLIC)).toBe(true)
    expect(addressAllowed('::1', 'localhost', PUBLIC)).toBe(true)
    expect(addressAllowed('127.0.0.1', '127.0.0.1', PUBLIC)).toBe(true)
    for (const a of [
      '127.0.0.1',
      '10.1.1.1',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      'fd12::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '0.0.0.0',
    ])
      expect(addressAllowed(a, 'evil.example.com', PUBLIC), a).toBe(false)
    expect(addressAllowed('10.1.1.1', 'lan.example.com', LAN)).toBe(true)
    expect(addressAllowed('0.0.0.0', 'lan.example.com', LAN)).toBe(false)
    expect(addressAllowed('224.0.0.1', 'lan.example.com', LAN)).toBe(false)
  })

  it('every spelling of an address is that address (numeric IPv4 forms, IPv4-mapped and IPv4-compatible IPv6)', () => {
    for (const [text, address] of [
      ['127.0.0.1', '127.0.0.1'],
      ['2130706433', '127.0.0.1'],
      ['0x7f.1', '127.0.0.1'],
      ['0177.0.0.1', '127.0.0.1'],
      ['127.1', '127.0.0.1'],
      ['::ffff:127.0.0.1', '127.0.0.1'],
      ['::ffff:7f00:1', '127.0.0.1'],
      ['[::ffff:7f00:1]', '127.0.0.1'],
      ['::7f00:1', '127.0.0.1'],
      ['::127.0.0.1', '127.0.0.1'],
      ['0:0:0:0:0:0:7f00:1', '127.0.0.1'],
      ['::a00:1', '10.0.0.1'],
      ['::0.0.0.2', '0.0.0.2'],
      ['::1', '::1'],
      ['::', '::'],
      // Not IPv4 spellings: translated through a gateway, classified as their own ranges.
      ['64:ff9b::7f00:1', '64:ff9b::7f00:1'],
      ['::ffff:0:7f00:1', '::ffff:0:7f00:1'],
      ['2606:4700::1', '2606:4700::1'],
    ] as const)
      expect(parseAddress(text)?.toString(), text).toBe(address)
    expect(parseAddress('example.com')).toBeUndefined()
    expect(parseAddress('localhost')).toBeUndefined()
    // Host names of hex digits and dots only are still checked as IPv4 spellings.
    for (const host of ['cafe.be', 'deadbeef', 'a.b.c.d', 'bad.example'])
      expect(parseAddress(host), host).toBeUndefined()
    expect(parseAddress('0XA.0x1')?.toString()).toBe('10.0.0.1')
  })

  it('loopback: allowed for this machine by name or literal unless LINKD_WEBHOOK_ALLOW_LOOPBACK=false, whatever the spelling', () => {
    const OFF = { allowPrivateNetworks: false, allowLoopback: false }
    const LAN_OFF = { allowPrivateNetworks: true, allowLoopback: false }
    for (const a of [
      '127.0.0.1',
      '127.0.0.2',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::7f00:1',
      '::127.0.0.1',
    ]) {
      expect(addressAllowed(a, 'localhost', PUBLIC), a).toBe(true)
      expect(addressAllowed(a, `[${a}]`, PUBLIC), a).toBe(true)
      expect(addressAllowed(a, 'evil.example.com', PUBLIC), a).toBe(false)
      expect(addressAllowed(a, 'lan.example.com', LAN), a).toBe(true)
      for (const host of ['localhost', `[${a}]`, 'lan.example.com']) {
        expect(addressAllowed(a, host, OFF), `${a} ${host}`).toBe(false)
        expect(addressAllowed(a, host, LAN_OFF), `${a} ${host}`).toBe(false)
      }
    }
    // Reaching this machine through "no address" is never allowed.
    for (const a of ['0.0.0.0', '::', '::0.0.0.0', '::ffff:0.0.0.0'])
      expect(addressAllowed(a, 'localhost', LAN), a).toBe(false)
    // Private ranges in IPv6 spellings are private.
    for (const a of ['::a00:1', '::ffff:a00:1', '::a9fe:a9fe', '::c0a8:101', '::6440:1'])
      expect(addressAllowed(a, 'evil.example.com', PUBLIC), a).toBe(false)
    expect(addressAllowed('::808:808', 'dns.example.com', PUBLIC)).toBe(true)
    // NAT64 stays refused unless private networks are allowed.
    expect(addressAllowed('64:ff9b::808:808', 'nat64.example.com', PUBLIC)).toBe(false)
    for (const host of ['localhost', 'LOCALHOST.', 'app.localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]'])
      expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['example.com', 'localhost.example.com', '10.0.0.1', '[::a00:1]', 'mylocalhost'])
      expect(isLoopbackHost(host), host).toBe(false)
  })

  it('one refused address among several refuses the host', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ]
    await expect(vetTarget(new URL('https://mixed.example.com/'), { resolve, ...PUBLIC })).rejects.toThrow(
      /10\.0\.0\.1, a private address/,
    )
  })

  describe('pinning', () => {
    let rx: Receiver
    beforeEach(async () => {
      rx = await startReceiver()
    })
    afterEach(() => rx.close())

    it('the connection goes to the vetted address, never to a second DNS answer', async () => {
      // First answer (vetted): loopback, allowed on a LAN setup. Any later lookup would fail.
      let calls = 0
      const resolve: Resolver = async () => {
        calls++
        return calls === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }]
      }
      const url = new URL(`http://rebind.invalid:${rx.port}/hooks`)
      const target = await vetTarget(url, { resolve, ...LAN })
      const agent = new Agent({ connect: { lookup: pinnedLookup(target) } })
      try {
        const res = await request(url, { method: 'POST', body: '{}', dispatcher: agent })
        await res.body.dump()
        expect(res.statusCode).toBe(200)
      } finally {
        await agent.close()
      }
      expect(calls).toBe(1)
      expect(rx.received[0]!.headers.host).toBe(`rebind.invalid:${rx.port}`)
    })
  })
})
