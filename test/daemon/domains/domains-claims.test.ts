/**
 * Domain squatting: a host an organization adds without owning it must not block its owner.
 * Several organizations may hold unverified claims of a host; the first to verify wins (the
 * others' claims fail, saying why, and no organization can add it again); within one
 * organization a host is added once; unverified claims are deleted 7 days after they were added.
 * Verification runs against a real DNS server (dnsmasq).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Domain } from '../../../src/contract/domains.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { missingBinaries } from '../../support/binaries.js'
import { startDnsServer, type DnsServer } from '../../support/dns-server.js'
import { captureEvents } from '../../support/redirect.js'
import { expectError } from '../../support/responses.js'

const CNAME = 'links.linkd.test'
const HOST = 'go.claimed.test'

describe.skipIf(missingBinaries('dnsmasq'))('claims of one host by several organizations', () => {
  let t: TestApp
  let dns: DnsServer
  let squatter: { orgId: string; ownerKey: string }
  let owner: { orgId: string; ownerKey: string }

  beforeAll(async () => {
    dns = await startDnsServer({ a: [[CNAME, '127.0.0.1']] })
    t = await createTestApp({ cnameTarget: CNAME, dnsResolvers: dns.address })
    squatter = await t.createOrg('squatter', 'enterprise')
    owner = await t.createOrg('owner', 'enterprise')
  })
  afterAll(async () => {
    await t?.close()
    await dns?.stop()
  })

  const add = (key: string, domain = HOST) => t.call('POST', '/api/domains', { key, body: { domain } })
  const get = (key: string, id: string) => t.call('GET', `/api/domains/${id}`, { key })
  /** DNS as the host's real owner sets it: the CNAME and the TXT challenge of `d`. */
  const provedBy = (d: Domain) =>
    dns.restart({
      txt: [[d.dnsRecords[0]!.name, d.dnsRecords[0]!.value]],
      cname: [[HOST, CNAME]],
      a: [[CNAME, '127.0.0.1']],
    })

  it('a pending or failed claim does not block another organization; the first to verify wins', async () => {
    const squatted = await add(squatter.ownerKey)
    expect(squatted.statusCode, squatted.body).toBe(201)
    const claim = squatted.json<Domain>()
    // The squatter cannot prove it: failed.
    const failed = await t.call('POST', `/api/domains/${claim.id}/verify`, { key: squatter.ownerKey })
    expect(failed.json<Domain>().verificationStatus).toBe('failed')

    // The owner adds the same host (201, not 409) and proves it.
    const added = await add(owner.ownerKey)
    expect(added.statusCode, added.body).toBe(201)
    const mine = added.json<Domain>()
    expect(mine.dnsRecords[0]!.value).not.toBe(claim.dnsRecords[0]!.value) // its own challenge
    // Within one organization the host is added once.
    expect(expectError(await add(owner.ownerKey), 409, 'Conflict').message).toBe(
      `domain ${HOST} has already been added`,
    )
    const verified = captureEvents(t, 'domain.verified')
    await provedBy(mine)
    const v = await t.call('POST', `/api/domains/${mine.id}/verify`, { key: owner.ownerKey })
    expect(v.json<Domain>()).toMatchObject({ verificationStatus: 'verified', sslStatus: 'pending' })
    expect(verified.map((e) => e.organizationId)).toEqual([owner.orgId])

    // The squatter's claim failed, saying why; verifying it again changes nothing.
    const lost = (await get(squatter.ownerKey, claim.id)).json<Domain>()
    expect(lost.verificationStatus).toBe('failed')
    expect(lost.warnings[0]).toMatch(
      new RegExp(`^another organization verified ${HOST} first \\(.+\\): this claim cannot be verified`),
    )
    const again = await t.call('POST', `/api/domains/${claim.id}/verify`, { key: squatter.ownerKey })
    expect(again.json<Domain>().verificationStatus).toBe('failed')

    // The host serves the owner's links: a link on it is the owner's, not the squatter's.
    const link = await t.call('POST', '/api/use/links', {
      key: owner.ownerKey,
      body: { destinationUrl: 'https://example.com/', customDomainId: mine.id, customSlug: 'hello' },
    })
    expect(link.statusCode, link.body).toBe(201)
    const visit = await t.app.inject({ method: 'GET', url: '/hello', headers: { host: HOST } })
    expect(visit.statusCode).toBe(302)
    expect(t.app.linkd.services.directory.organizationOfHost(HOST)).toBe(owner.orgId)

    // Nobody else can add a verified host.
    const third = await t.createOrg('third', 'enterprise')
    const refused = expectError(await add(third.ownerKey), 409, 'Conflict')
    expect(refused.message).toBe(`domain ${HOST} is verified by another organization`)
  })

  it('a claim that verifies while the host is verified elsewhere fails (even with the right records)', async () => {
    // The squatter copies the verified owner's public records into "its" DNS: the TXT value is
    // the owner's token, not its own, so it never proves its claim; and with its own token it
    // still loses, the host being verified elsewhere.
    const other = await t.createOrg('copycat', 'enterprise')
    const host = 'www.claimed.test'
    const a = (await add(owner.ownerKey, host)).json<Domain>()
    const b = (await add(other.ownerKey, host)).json<Domain>()
    await dns.restart({
      txt: [
        [a.dnsRecords[0]!.name, a.dnsRecords[0]!.value],
        [b.dnsRecords[0]!.name, b.dnsRecords[0]!.value],
      ],
      cname: [[host, CNAME]],
      a: [[CNAME, '127.0.0.1']],
    })
    const first = await t.call('POST', `/api/domains/${a.id}/verify`, { key: owner.ownerKey })
    expect(first.json<Domain>().verificationStatus).toBe('verified')
    const second = await t.call('POST', `/api/domains/${b.id}/verify`, { key: other.ownerKey })
    expect(second.json<Domain>().verificationStatus).toBe('failed')
    expect(second.json<Domain>().warnings[0]).toMatch(
      /^another organization verified www\.claimed\.test first/,
    )
  })

  it('unverified claims are deleted 7 days after they were added (domain.deleted); verified ones stay', async () => {
    const squat = (await add(squatter.ownerKey, 'old.claimed.test')).json<Domain>()
    const deleted = captureEvents(t, 'domain.deleted')
    t.clock.advance(7 * 86_400_000 - 1)
    expect(await t.app.linkd.scheduler.runNow('expire-domain-claims')).toMatchObject({
      ran: true,
      status: 'ok',
    })
    expect((await get(squatter.ownerKey, squat.id)).statusCode).toBe(200)
    t.clock.advance(1)
    expect(await t.app.linkd.scheduler.runNow('expire-domain-claims')).toMatchObject({
      ran: true,
      status: 'ok',
    })
    expect((await get(squatter.ownerKey, squat.id)).statusCode).toBe(404)
    expect(deleted.map((e) => e.data.id)).toContain(squat.id)
    // The verified host stays its owner's.
    const list = await t.call('GET', '/api/domains?verificationStatus=verified', { key: owner.ownerKey })
    expect(
      list
        .json<{ data: Domain[] }>()
        .data.map((d) => d.domain)
        .sort(),
    ).toEqual([HOST, 'www.claimed.test'])
    // The squatter's lost claims (older than 7 days) are gone too.
    const left = await t.call('GET', '/api/domains', { key: squatter.ownerKey })
    expect(left.json<{ data: Domain[] }>().data).toEqual([])
  })
})
