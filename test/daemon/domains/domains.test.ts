import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { missingBinaries } from '../../support/binaries.js'
import { startDnsServer, type DnsServer } from '../../support/dns-server.js'
import type { Domain } from '../../../src/contract/domains.js'
import { expectError } from '../../support/responses.js'

const CNAME = 'links.linkd.test'

describe('custom domain API without DNS', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ cnameTarget: CNAME })
  })
  afterAll(() => t.close())

  it('applies the input rules with the error body', async () => {
    for (const [domain, msg] of [
      ['https://go.example.test', /protocol/],
      ['go.example.test/', /path or trailing slash/],
      ['go.example.test/x', /path/],
      ['Go.Example.test', /lowercase/],
      ['go_x.example.test', /only lowercase letters, digits, hyphens and dots/],
      ['localhost', /two labels/],
      ['-bad.example.test', /hyphen/],
      ['10.0.0.1', /IP address/],
    ] as const) {
      const res = await t.call('POST', '/api/domains', { body: { domain } })
      expect(res.statusCode, domain).toBe(400)
      expect(res.json()).toMatchObject({ error: 'ValidationError', message: expect.stringMatching(msg) })
      expect(res.json().details[0].field).toBe('domain')
    }
  })

  it('an internationalized name is refused with its punycode form to add instead', async () => {
    for (const domain of ['bücher.example.test', 'Bücher.Example.test'] as const) {
      const res = await t.call('POST', '/api/domains', { body: { domain } })
      expect(expectError(res, 400, 'ValidationError').message, domain).toBe(
        'domain is an internationalized name: add its punycode form, xn--bcher-kva.example.test',
      )
      expect(res.json().details).toEqual([
        {
          field: 'domain',
          message: 'is an internationalized name: add its punycode form, xn--bcher-kva.example.test',
        },
      ])
    }
  })

  it('refuses apex domains without LINKD_A_RECORD_IP and the service own domain (422)', async () => {
    const apex = await t.call('POST', '/api/domains', { body: { domain: 'example.test' } })
    expect(apex.statusCode).toBe(422)
    expect(apex.json().message).toMatch(/LINKD_A_RECORD_IP/)
    expect((await t.call('POST', '/api/domains', { body: { domain: CNAME } })).statusCode).toBe(422)
  })

  it('adds a subdomain with its records; 409 twice and from another organization; which sees 404', async () => {
    const res = await t.call('POST', '/api/domains', { body: { domain: 'go.example.test' } })
    expect(res.statusCode).toBe(201)
    const d = res.json<Domain>()
    expect(d).toMatchObject({
      id: expect.stringMatching(/^dom_/),
      domain: 'go.example.test',
      verificationStatus: 'pending',
      sslStatus: null,
      isDefault: false,
      verificationMethod: 'CNAME',
      verifiedAt: null,
      sslExpiresAt: null,
    })
    expect(d.dnsRecords).toEqual([
      {
        type: 'TXT',
        name: '_linkd-challenge.go.example.test',
        value: expect.stringMatching(/^linkd-verify=[A-Za-z0-9]{32}$/),
        status: 'Pending',
      },
      { type: 'CNAME', name: 'go.example.test', value: CNAME, status: 'Pending' },
    ])
    const dup = await t.call('POST', '/api/domains', { body: { domain: 'go.example.test' } })
    expect(dup.statusCode).toBe(409)
    expect(dup.json()).toMatchObject({
      error: 'Conflict',
      details: [{ field: 'domain', message: 'already added to this organization' }],
    })
    // Globally unique (spec 2.11): another organization adding it is 409 too; the details name
    // the TXT record that would prove its control (none is reachable here).
    const other = await t.createOrg('other', 'enterprise')
    const taken = expectError(
      await t.call('POST', '/api/domains', { body: { domain: 'go.example.test' }, key: other.ownerKey }),
      409,
      'Conflict',
    )
    expect(taken.details).toEqual([
      { field: 'domain', message: 'added by another organization, not verified' },
      { field: 'txtRecord.name', message: '_linkd-challenge.go.example.test' },
      { field: 'txtRecord.value', message: expect.stringMatching(/^linkd-verify=[A-Za-z0-9]{32}$/) },
      {
        field: 'txtRecord',
        message: 'returned by 0 of 1 resolvers; every one must return it (not reached: 127.0.0.1:1)',
      },
    ])
    expect(taken.details![2]!.message).not.toBe(d.dnsRecords[0]!.value)
    // Bad input is a 400 before any claim is looked at.
    const badMethod = await t.call('POST', '/api/domains', {
      body: { domain: 'go.example.test', verificationMethod: 'TXT' },
      key: other.ownerKey,
    })
    expect(expectError(badMethod, 400, 'ValidationError').details).toEqual([
      {
        field: 'verificationMethod',
        message: expect.stringMatching(/^TXT is not a method for go\.example\.test/),
      },
    ])
    expect((await t.call('GET', '/api/domains', { key: other.ownerKey })).json().total).toBe(0)
    expect((await t.call('GET', `/api/domains/${d.id}`, { key: other.ownerKey })).statusCode).toBe(404)
    expect((await t.call('DELETE', `/api/domains/${d.id}`, { key: other.ownerKey })).statusCode).toBe(404)

    const list = await t.call('GET', '/api/domains?limit=10')
    expect(list.json()).toMatchObject({ total: 1, page: 1, perPage: 10, hasMore: false })
    expect(list.json().data[0].id).toBe(d.id)
    expect((await t.call('GET', '/api/domains?limit=7')).statusCode).toBe(400)
  })

  it('check-propagation tells a resolver it cannot reach apart from one without the records', async () => {
    const d = (await t.call('GET', '/api/domains')).json<{ data: Domain[] }>().data[0]!
    const res = await t.call('POST', `/api/domains/${d.id}/check-propagation`)
    expect(res.statusCode).toBe(200)
    // The test app's only resolver is 127.0.0.1:1, where nothing listens.
    expect(res.json()).toMatchObject({ propagated: false, resolvers: ['127.0.0.1:1'] })
    for (const r of res.json().records)
      expect(r.resolvers).toEqual([
        { resolver: '127.0.0.1:1', status: 'Pending', found: [], reachable: false, error: 'ECONNREFUSED' },
      ])
  })

  it('enforces plan limits: free none, starter one', async () => {
    const free = await t.createOrg('free-org', 'free')
    const r = await t.call('POST', '/api/domains', { body: { domain: 'a.free.test' }, key: free.ownerKey })
    expect(r.statusCode).toBe(403)
    expect(r.json().message).toMatch(/free plan does not include custom domains/)
    const starter = await t.createOrg('starter-org', 'starter')
    expect(
      (await t.call('POST', '/api/domains', { body: { domain: 'a.starter.test' }, key: starter.ownerKey }))
        .statusCode,
    ).toBe(201)
    const second = await t.call('POST', '/api/domains', {
      body: { domain: 'b.starter.test' },
      key: starter.ownerKey,
    })
    expect(second.statusCode).toBe(403)
    expect(second.json().message).toMatch(/allows 1 custom domain/)
  })

  it('needs domains:read / domains:write / domains:delete', async () => {
    const reader = await t.createKey({ permissions: ['domains:read'] })
    expect((await t.call('GET', '/api/domains', { key: reader.key })).statusCode).toBe(200)
    expect((await t.call('GET', '/api/domains/stats', { key: reader.key })).statusCode).toBe(200)
    expect(
      (await t.call('POST', '/api/domains', { body: { domain: 'x.example.test' }, key: reader.key }))
        .statusCode,
    ).toBe(403)
    const list = (await t.call('GET', '/api/domains')).json<{ data: Domain[] }>()
    expect((await t.call('DELETE', `/api/domains/${list.data[0]!.id}`, { key: reader.key })).statusCode).toBe(
      403,
    )
    expect((await t.call('GET', '/api/domains', { key: null })).statusCode).toBe(401)
  })

  it('set-default needs a verified domain (422); links cannot use an unverified domain (422)', async () => {
    const d = (await t.call('GET', '/api/domains')).json<{ data: Domain[] }>().data[0]!
    const res = await t.call('POST', `/api/domains/${d.id}/set-default`)
    expect(res.statusCode).toBe(422)
    const link = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com', customDomainId: d.id },
    })
    expect(link.statusCode).toBe(422)
    const byName = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com', domain: 'go.example.test' },
    })
    expect(byName.statusCode).toBe(422)
  })
})

const skip = missingBinaries('dnsmasq')

describe.skipIf(skip)('custom domain verification against real DNS servers', () => {
  let t: TestApp
  let dnsA: DnsServer
  let dnsB: DnsServer
  let domain: Domain

  beforeAll(async () => {
    dnsA = await startDnsServer({ a: [[CNAME, '127.0.0.1']] })
    dnsB = await startDnsServer({ a: [[CNAME, '127.0.0.1']] })
    t = await createTestApp({ cnameTarget: CNAME, dnsResolvers: `${dnsA.address},${dnsB.address}` })
    domain = (await t.call('POST', '/api/domains', { body: { domain: 'go.example.test' } })).json<Domain>()
  })
  afterAll(async () => {
    await t?.close()
    await dnsA?.stop()
    await dnsB?.stop()
  })

  const records = (d: Domain) => ({
    txt: [[d.dnsRecords[0]!.name, d.dnsRecords[0]!.value]] as Array<[string, string]>,
    cname: [['go.example.test', CNAME]] as Array<[string, string]>,
    a: [[CNAME, '127.0.0.1']] as Array<[string, string]>,
  })

  it('records missing everywhere: verify fails with per-record Failed', async () => {
    const res = await t.call('POST', `/api/domains/${domain.id}/verify`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ verificationStatus: 'failed' })
    expect(res.json<Domain>().dnsRecords.map((r) => r.status)).toEqual(['Failed', 'Failed'])
  })

  it('one resolver disagreeing: not verified; propagation shows it per resolver', async () => {
    await dnsA.restart(records(domain))
    const prop = await t.call('POST', `/api/domains/${domain.id}/check-propagation`)
    expect(prop.statusCode).toBe(200)
    const p = prop.json()
    expect(p).toMatchObject({
      domain: 'go.example.test',
      propagated: false,
      resolvers: [dnsA.address, dnsB.address],
    })
    expect(p.records[0].status).toBe('Pending')
    expect(p.records[0].resolvers.map((r: { status: string }) => r.status)).toEqual(['Verified', 'Failed'])
    const v = await t.call('POST', `/api/domains/${domain.id}/verify`)
    expect(v.json()).toMatchObject({ verificationStatus: 'failed' })
    expect(v.json<Domain>().dnsRecords.map((r) => r.status)).toEqual(['Pending', 'Pending'])
  })

  it('all resolvers agree: verified (failed → verified), event emitted, SSL pending', async () => {
    const events: unknown[] = []
    t.app.linkd.services.events.on('domain.verified', (e) => void events.push(e.data))
    await dnsB.restart(records(domain))
    const v = await t.call('POST', `/api/domains/${domain.id}/verify`)
    expect(v.json()).toMatchObject({
      verificationStatus: 'verified',
      sslStatus: 'pending',
      verifiedAt: new Date(t.clock.now()).toISOString(),
    })
    expect(v.json<Domain>().dnsRecords.map((r) => r.status)).toEqual(['Verified', 'Verified'])
    expect(events).toEqual([
      {
        id: domain.id,
        domain: 'go.example.test',
        verifiedAt: new Date(t.clock.now()).toISOString(),
        sslStatus: 'pending',
        sslExpiresAt: null,
      },
    ])
    const ssl = await t.call('GET', `/api/domains/${domain.id}/ssl`)
    expect(ssl.json()).toMatchObject({ sslStatus: 'pending', issuer: null, validTo: null })
  })

  it('links on the verified domain: shortUrl on the domain, served on that host only', async () => {
    const res = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/target', customDomainId: domain.id, customSlug: 'promo' },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ shortUrl: 'https://go.example.test/promo', customDomainId: domain.id })
    const byName = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/other', domain: 'go.example.test' },
    })
    expect(byName.json().customDomainId).toBe(domain.id)
    const onDomain = await t.app.inject({
      method: 'GET',
      url: '/promo',
      headers: { host: 'go.example.test' },
    })
    expect(onDomain.statusCode).toBe(302)
    expect(onDomain.headers.location).toBe('https://example.com/target')
    const shared = await t.app.inject({
      method: 'GET',
      url: '/promo',
      headers: { host: t.config.shortDomain },
    })
    expect(shared.statusCode).toBe(404)
    const stranger = await t.app.inject({ method: 'GET', url: '/promo', headers: { host: 'a.example.test' } })
    expect(stranger.statusCode).toBe(404)
    const stats = await t.call('GET', '/api/domains/stats')
    expect(stats.json()).toMatchObject({ totalDomains: 1, activeDomains: 0, domainsWithSsl: 0 })
  })

  it('set-default: exactly one; new links go on it; the default cannot be deleted', async () => {
    const res = await t.call('POST', `/api/domains/${domain.id}/set-default`)
    expect(res.json()).toMatchObject({ isDefault: true })
    const link = await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/d' } })
    expect(link.json().shortUrl).toMatch(/^https:\/\/go\.example\.test\//)
    const del = await t.call('DELETE', `/api/domains/${domain.id}`)
    expect(del.statusCode).toBe(422)
    expect(del.json().message).toMatch(/default/)
    const patched = await t.call('PATCH', `/api/domains/${domain.id}`, {
      body: { isDefault: false, rootRedirectUrl: 'https://example.com/home' },
    })
    expect(patched.json()).toMatchObject({ isDefault: false, rootRedirectUrl: 'https://example.com/home' })
    const root = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'go.example.test' } })
    expect(root.statusCode).toBe(302)
    expect(root.headers.location).toBe('https://example.com/home')
  })

  it('bulk create: each item goes on the domain it names, else the default; an unknown one fails that item only', async () => {
    await t.call('POST', `/api/domains/${domain.id}/set-default`)
    const res = await t.call('POST', '/api/use/links/bulk', {
      body: {
        links: [
          { destinationUrl: 'https://example.com/0' },
          { destinationUrl: 'https://example.com/1', domain: 'nope.example.test' },
          { destinationUrl: 'https://example.com/2', customDomainId: domain.id },
          { destinationUrl: 'https://example.com/3' },
          { destinationUrl: 'https://example.com/4', domain: 'nope.example.test' },
        ],
      },
    })
    const results = res.json().results as Array<{
      status: string
      link?: { id: string; shortUrl: string }
      error?: unknown
    }>
    expect(results.map((r) => r.status)).toEqual(['created', 'failed', 'created', 'created', 'failed'])
    for (const i of [0, 2, 3]) expect(results[i]!.link!.shortUrl).toMatch(/^https:\/\/go\.example\.test\//)
    for (const i of [1, 4])
      expect(results[i]!.error).toMatchObject({ error: 'Unprocessable', details: [{ field: 'domain' }] })
    // The next tests expect no default and these links gone.
    await t.call('PATCH', `/api/domains/${domain.id}`, { body: { isDefault: false } })
    for (const i of [0, 2, 3]) await t.call('DELETE', `/api/use/links/${results[i]!.link!.id}`)
  })

  it('rootRedirectUrl: no user-info, no loopback host, never the domain itself (400 naming the field)', async () => {
    for (const [url, msg] of [
      ['http://paypal.com@evil.example/', /user name or password/],
      ['http://localhost:3000/', /loopback host/],
      ['http://[::1]/', /loopback host/],
      ['https://user:pw@example.com/', /user name or password/],
      ['https://go.example.test/home', /itself/],
      ['https://GO.example.test./', /itself/],
    ] as const) {
      const res = await t.call('PATCH', `/api/domains/${domain.id}`, { body: { rootRedirectUrl: url } })
      expect(res.statusCode, url).toBe(400)
      expect(res.json()).toMatchObject({ error: 'ValidationError', message: expect.stringMatching(msg) })
      expect(res.json().details[0].field).toBe('rootRedirectUrl')
    }
    const kept = await t.call('GET', `/api/domains/${domain.id}`)
    expect(kept.json().rootRedirectUrl).toBe('https://example.com/home')
  })

  it('delete: links fall back to the shared domain (a clashing code gets a new one)', async () => {
    const shared = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/shared', customSlug: 'promo' },
    })
    expect(shared.statusCode).toBe(201)
    const del = await t.call('DELETE', `/api/domains/${domain.id}`)
    expect(del.statusCode).toBe(204)
    const links = (await t.call('GET', '/api/use/links?limit=100')).json<{
      data: Array<{
        shortUrl: string
        customDomainId: string | null
        destinationUrl: string
        shortCode: string
      }>
    }>().data
    expect(links.every((l) => l.customDomainId === null && l.shortUrl.startsWith(t.config.publicUrl))).toBe(
      true,
    )
    const moved = links.find((l) => l.destinationUrl === 'https://example.com/target')!
    expect(moved.shortCode).not.toBe('promo')
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/${moved.shortCode}`,
          headers: { host: t.config.shortDomain },
        })
      ).statusCode,
    ).toBe(302)
    expect(
      (await t.app.inject({ method: 'GET', url: '/promo', headers: { host: 'go.example.test' } })).statusCode,
    ).toBe(404)
    expect((await t.call('GET', `/api/domains/${domain.id}`)).statusCode).toBe(404)
  })

  it('the re-check job verifies pending domains once DNS arrives, and fails them after 48 h', async () => {
    const a = (await t.call('POST', '/api/domains', { body: { domain: 'a.example.test' } })).json<Domain>()
    const b = (await t.call('POST', '/api/domains', { body: { domain: 'b.example.test' } })).json<Domain>()
    const recs = records(a)
    recs.cname = [['a.example.test', CNAME]]
    await dnsA.restart(recs)
    await dnsB.restart(recs)
    expect(await t.app.linkd.scheduler.runNow('recheck-domains')).toMatchObject({ ran: true, status: 'ok' })
    expect((await t.call('GET', `/api/domains/${a.id}`)).json().verificationStatus).toBe('verified')
    expect((await t.call('GET', `/api/domains/${b.id}`)).json().verificationStatus).toBe('pending')
    t.clock.advance(48 * 3_600_000 + 1)
    await t.app.linkd.scheduler.runNow('recheck-domains')
    expect((await t.call('GET', `/api/domains/${b.id}`)).json().verificationStatus).toBe('failed')
  })
})
