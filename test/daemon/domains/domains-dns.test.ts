import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createDnsChecker,
  expectedRecords,
  isApex,
  parseResolvers,
} from '../../../daemon/modules/domains/dns.js'
import { missingBinaries } from '../../support/binaries.js'
import { startDnsServer, type DnsServer } from '../../support/dns-server.js'

const targets = { cnameTarget: 'links.linkd.test', aRecordIp: '127.0.0.1' }

describe('domain DNS records', () => {
  it('asks a subdomain for TXT + CNAME and an apex domain for TXT + A', () => {
    expect(expectedRecords('go.example.test', 'tok', targets)).toEqual([
      { type: 'TXT', name: '_linkd-challenge.go.example.test', value: 'tok' },
      { type: 'CNAME', name: 'go.example.test', value: 'links.linkd.test' },
    ])
    expect(expectedRecords('example.test', 'tok', targets)[1]).toEqual({
      type: 'A',
      name: 'example.test',
      value: '127.0.0.1',
    })
    expect(isApex('example.co.uk')).toBe(true)
    expect(isApex('go.example.co.uk')).toBe(false)
  })

  it('parses LINKD_DNS_RESOLVERS and rejects what is not ip[:port]', () => {
    expect(parseResolvers('1.1.1.1, 127.0.0.1:5353,[::1]:53,2606:4700::1111')).toEqual([
      '1.1.1.1',
      '127.0.0.1:5353',
      '[::1]:53',
      '2606:4700::1111',
    ])
    for (const bad of ['dns.google', '1.1.1.1:99999', '', '300.1.1.1'])
      expect(() => parseResolvers(bad)).toThrow()
  })
})

describe('a resolver that cannot be reached', () => {
  it('is reported unreachable with its error, inconclusive (Pending) rather than missing', async () => {
    // Nothing listens on UDP port 1 of the loopback: the query is refused at once.
    const checks = await createDnsChecker({ resolvers: ['127.0.0.1:1'], timeoutMs: 300 }).check(
      expectedRecords('go.example.test', 'tok', targets),
    )
    expect(checks.map((c) => c.status)).toEqual(['Pending', 'Pending'])
    expect(checks[0]!.resolvers).toEqual([
      { resolver: '127.0.0.1:1', status: 'Pending', found: [], reachable: false, error: 'ECONNREFUSED' },
    ])
  })
})

const skip = missingBinaries('dnsmasq')

describe.skipIf(skip)('checking records against real DNS servers', () => {
  let good: DnsServer
  let other: DnsServer
  const records = expectedRecords('go.example.test', 'challenge-token-1', targets)
  const full = {
    txt: [['_linkd-challenge.go.example.test', 'challenge-token-1']] as Array<[string, string]>,
    cname: [['go.example.test', 'links.linkd.test']] as Array<[string, string]>,
    a: [['links.linkd.test', '127.0.0.1']] as Array<[string, string]>,
  }

  beforeAll(async () => {
    good = await startDnsServer(full)
    other = await startDnsServer({ a: [['links.linkd.test', '127.0.0.1']] })
  })
  afterAll(async () => {
    await good?.stop()
    await other?.stop()
  })

  it('verifies a record only when every resolver returns it', async () => {
    const one = await createDnsChecker({ resolvers: [good.address] }).check(records)
    expect(one.map((r) => r.status)).toEqual(['Verified', 'Verified'])

    // The second resolver does not have the records yet: propagating, not verified.
    const both = await createDnsChecker({ resolvers: [good.address, other.address] }).check(records)
    expect(both.map((r) => r.status)).toEqual(['Pending', 'Pending'])
    expect(both[0]!.resolvers).toEqual([
      { resolver: good.address, status: 'Verified', found: ['challenge-token-1'], reachable: true },
      { resolver: other.address, status: 'Failed', found: [], reachable: true },
    ])
  })

  it('fails a record that is missing everywhere or has another value', async () => {
    await other.restart({
      txt: [['_linkd-challenge.go.example.test', 'someone-else']],
      cname: [['go.example.test', 'elsewhere.test']],
      a: [['elsewhere.test', '10.0.0.1']],
    })
    const checks = await createDnsChecker({ resolvers: [other.address] }).check(records)
    expect(checks.map((r) => [r.status, r.resolvers[0]!.found])).toEqual([
      ['Failed', ['someone-else']],
      ['Failed', ['elsewhere.test']],
    ])
    const apex = await createDnsChecker({ resolvers: [good.address] }).check(
      expectedRecords('nothing.test', 'x', targets),
    )
    expect(apex.map((r) => r.status)).toEqual(['Failed', 'Failed'])
  })

  it('all resolvers agreeing verifies, after the second one catches up', async () => {
    await other.restart(full)
    const checks = await createDnsChecker({ resolvers: [good.address, other.address] }).check(records)
    expect(checks.map((r) => r.status)).toEqual(['Verified', 'Verified'])
  })

  it('counts an unreachable resolver as inconclusive (Pending), not as missing', async () => {
    const checks = await createDnsChecker({
      resolvers: [good.address, '127.0.0.1:1'],
      timeoutMs: 300,
    }).check(records)
    expect(checks[0]!.status).toBe('Pending')
    expect(checks[0]!.resolvers[1]!.status).toBe('Pending')
    expect(checks[0]!.resolvers[1]!).toMatchObject({
      reachable: false,
      error: expect.stringMatching(/^E[A-Z]+$/),
    })
    expect(checks[0]!.resolvers[0]!.reachable).toBe(true)
  })
})
