/**
 * Domain squatting under the spec's rule that a host is unique across organizations: adding a
 * host another organization added is 409, but an unverified claim gives way to an organization
 * that proves control of the host (its own claim token in the TXT challenge record, on every
 * resolver); a verified host never does; two claims from a race: the first to verify wins;
 * unverified claims are deleted 7 days after they were added. DNS is a real dnsmasq (two, as
 * LINKD_DNS_RESOLVERS lists two resolvers).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Domain } from '../../../src/contract/domains.js'
import { claimTokens } from '../../../daemon/modules/domains/claims.js'
import { createDomainStore } from '../../../daemon/modules/domains/index.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { missingBinaries } from '../../support/binaries.js'
import { startDnsServer, type DnsRecords, type DnsServer } from '../../support/dns-server.js'
import { captureEvents } from '../../support/redirect.js'
import { expectError } from '../../support/responses.js'

const CNAME = 'links.linkd.test'
const HOST = 'go.claimed.test'
const TOKEN = /^linkd-verify=[A-Za-z0-9]{32}$/

describe('claim tokens', () => {
  it('are per organization and host, stable, and depend on the master key', () => {
    const key = randomBytes(32)
    const token = claimTokens(key)
    expect(token('org_a', HOST)).toMatch(TOKEN)
    expect(token('org_a', HOST)).toBe(claimTokens(Buffer.from(key))('org_a', HOST))
    expect(token('org_b', HOST)).not.toBe(token('org_a', HOST))
    expect(token('org_a', `www.${HOST}`)).not.toBe(token('org_a', HOST))
    expect(claimTokens(randomBytes(32))('org_a', HOST)).not.toBe(token('org_a', HOST))
  })
})

describe.skipIf(missingBinaries('dnsmasq'))(
  'one organization per host; proof of control takes an unverified claim over',
  () => {
    let t: TestApp
    let dnsA: DnsServer
    let dnsB: DnsServer
    let squatter: { orgId: string; ownerKey: string }
    let owner: { orgId: string; ownerKey: string }
    let third: { orgId: string; ownerKey: string }
    /** The token each organization's 409 named for HOST. */
    const tokens = new Map<string, string>()

    beforeAll(async () => {
      dnsA = await startDnsServer({ a: [[CNAME, '127.0.0.1']] })
      dnsB = await startDnsServer({ a: [[CNAME, '127.0.0.1']] })
      t = await createTestApp({ cnameTarget: CNAME, dnsResolvers: `${dnsA.address},${dnsB.address}` })
      squatter = await t.createOrg('squatter', 'enterprise')
      owner = await t.createOrg('owner', 'enterprise')
      third = await t.createOrg('third', 'enterprise')
    })
    afterAll(async () => {
      await t?.close()
      await dnsA?.stop()
      await dnsB?.stop()
    })

    const add = (key: string, domain = HOST) => t.call('POST', '/api/domains', { key, body: { domain } })
    const get = (key: string, id: string) => t.call('GET', `/api/domains/${id}`, { key })
    const verify = (key: string, id: string) => t.call('POST', `/api/domains/${id}/verify`, { key })
    /** DNS of `host` with the CNAME and these TXT challenge values. */
    const zone = (host: string, ...values: string[]): DnsRecords => ({
      txt: values.map((v) => [`_linkd-challenge.${host}`, v]),
      cname: [[host, CNAME]],
      a: [[CNAME, '127.0.0.1']],
    })
    const both = (r: DnsRecords) => Promise.all([dnsA.restart(r), dnsB.restart(r)])

    it('adding a host another organization added is 409 naming the TXT record of its own claim token', async () => {
      const added = await add(squatter.ownerKey)
      expect(added.statusCode, added.body).toBe(201)
      const claim = added.json<Domain>()
      expect(claim.dnsRecords[0]!.value).toMatch(TOKEN)

      for (const org of [owner, third]) {
        const refused = expectError(await add(org.ownerKey), 409, 'Conflict', '/api/domains')
        const token = refused.details!.find((d) => d.field === 'txtRecord.value')!.message
        expect(token).toMatch(TOKEN)
        expect(refused.message).toBe(
          `domain ${HOST} has been added by another organization and is not verified: publish TXT _linkd-challenge.${HOST} with value "${token}" and add it again; an unverified claim gives way to an organization that proves control of the domain`,
        )
        expect(refused.details).toEqual([
          { field: 'domain', message: 'added by another organization, not verified' },
          { field: 'txtRecord.name', message: `_linkd-challenge.${HOST}` },
          { field: 'txtRecord.value', message: token },
          { field: 'txtRecord', message: 'returned by 0 of 2 resolvers; every one must return it' },
        ])
        // The same token every time for this organization.
        expect((await add(org.ownerKey)).json().details[2].message).toBe(token)
        tokens.set(org.orgId, token)
      }
      // Each organization its own: none can publish another's (nor the claim's) for it.
      expect(new Set([...tokens.values(), claim.dnsRecords[0]!.value]).size).toBe(3)
      // Nothing was added, and within one organization the host is added once.
      expect((await t.call('GET', '/api/domains', { key: owner.ownerKey })).json().total).toBe(0)
      expect(expectError(await add(squatter.ownerKey), 409, 'Conflict').message).toBe(
        `domain ${HOST} has already been added`,
      )
    })

    it('the TXT record on every resolver takes the claim over: deleted (domain.deleted, taken_over), verified at once', async () => {
      const mine = tokens.get(owner.orgId)!
      const [claim] = (await t.call('GET', '/api/domains', { key: squatter.ownerKey })).json<{
        data: Domain[]
      }>().data
      // Another organization's token proves nothing; one resolver of two is not enough.
      await dnsA.restart(zone(HOST, mine))
      await dnsB.restart(zone(HOST, tokens.get(third.orgId)!))
      const partial = expectError(await add(owner.ownerKey), 409, 'Conflict')
      expect(partial.details!.at(-1)).toEqual({
        field: 'txtRecord',
        message: 'returned by 1 of 2 resolvers; every one must return it',
      })
      expect((await get(squatter.ownerKey, claim!.id)).statusCode).toBe(200)

      await both(zone(HOST, mine))
      const events = captureEvents(t, 'domain.deleted', 'domain.created')
      const added = await add(owner.ownerKey)
      expect(added.statusCode, added.body).toBe(201)
      const d = added.json<Domain>()
      expect(d).toMatchObject({ domain: HOST, verificationStatus: 'pending' })
      expect(d.dnsRecords[0]!.value).toBe(mine)

      // The squatter's claim is gone, and its organization is told why.
      expect((await get(squatter.ownerKey, claim!.id)).statusCode).toBe(404)
      expect(events.map((e) => [e.type, e.organizationId])).toEqual([
        ['domain.deleted', squatter.orgId],
        ['domain.created', owner.orgId],
      ])
      expect(events[0]!.data).toEqual({
        id: claim!.id,
        domain: HOST,
        deletedAt: expect.any(String),
        reason: 'taken_over',
      })

      // The record just published verifies it.
      const v = await verify(owner.ownerKey, d.id)
      expect(v.json<Domain>()).toMatchObject({ verificationStatus: 'verified', sslStatus: 'pending' })
      expect(t.app.linkd.services.directory.organizationOfHost(HOST)).toBe(owner.orgId)
      // The squatter adding it again is now the 409 of a verified host.
      expect(expectError(await add(squatter.ownerKey), 409, 'Conflict').message).toBe(
        `domain ${HOST} is verified by another organization`,
      )
    })

    it('a verified host never gives way: 409 with no TXT record, even with the record published', async () => {
      await both(zone(HOST, tokens.get(owner.orgId)!, tokens.get(third.orgId)!))
      const refused = expectError(await add(third.ownerKey), 409, 'Conflict')
      expect(refused).toMatchObject({
        message: `domain ${HOST} is verified by another organization`,
        details: [{ field: 'domain', message: 'verified by another organization' }],
      })
      expect((await t.call('GET', '/api/domains', { key: third.ownerKey })).json().total).toBe(0)
    })

    it('two claims from a race: the first to verify wins, the other fails saying why', async () => {
      // Two adds at once each see no other claim; the store's copy stands for the second.
      const host = 'www.claimed.test'
      const a = (await add(owner.ownerKey, host)).json<Domain>()
      const store = createDomainStore(t.db.kysely)
      const copy = { ...(await store.byIdAnyOrg(a.id))!, id: 'dom_race', organizationId: third.orgId }
      await store.insert({ ...copy, challengeToken: tokens.get(third.orgId)! })
      await both(zone(host, a.dnsRecords[0]!.value, tokens.get(third.orgId)!))

      expect((await verify(owner.ownerKey, a.id)).json<Domain>().verificationStatus).toBe('verified')
      const lost = (await get(third.ownerKey, 'dom_race')).json<Domain>()
      expect(lost.verificationStatus).toBe('failed')
      expect(lost.warnings[0]).toMatch(
        /^another organization verified www\.claimed\.test first \(.+\): this claim cannot be verified/,
      )
      expect((await verify(third.ownerKey, 'dom_race')).json<Domain>().verificationStatus).toBe('failed')

      // A takeover racing a verification deletes nothing once the host is verified.
      const late = { ...copy, id: 'dom_late', organizationId: squatter.orgId }
      expect(await store.replaceClaims(late)).toBeUndefined()
      expect((await store.byHost(host)).map((d) => d.id).sort()).toEqual([a.id, 'dom_race'].sort())
    })

    it('unverified claims are deleted 7 days after they were added (reason expired); the host is then free', async () => {
      const old = (await add(squatter.ownerKey, 'old.claimed.test')).json<Domain>()
      expect((await add(third.ownerKey, 'old.claimed.test')).statusCode).toBe(409)
      const deleted = captureEvents(t, 'domain.deleted')
      t.clock.advance(7 * 86_400_000 - 1)
      expect(await t.app.linkd.scheduler.runNow('expire-domain-claims')).toMatchObject({ status: 'ok' })
      expect((await get(squatter.ownerKey, old.id)).statusCode).toBe(200)
      t.clock.advance(1)
      expect(await t.app.linkd.scheduler.runNow('expire-domain-claims')).toMatchObject({ status: 'ok' })
      expect((await get(squatter.ownerKey, old.id)).statusCode).toBe(404)
      expect(deleted.find((e) => e.data.id === old.id)).toMatchObject({
        organizationId: squatter.orgId,
        data: { domain: 'old.claimed.test', reason: 'expired' },
      })
      // The race's lost claim went too; the verified hosts stay their owner's.
      expect((await get(third.ownerKey, 'dom_race')).statusCode).toBe(404)
      const verified = await t.call('GET', '/api/domains?verificationStatus=verified', {
        key: owner.ownerKey,
      })
      expect(
        verified
          .json<{ data: Domain[] }>()
          .data.map((d) => d.domain)
          .sort(),
      ).toEqual([HOST, 'www.claimed.test'])

      // Nobody holds the host now: another organization adds it without proof; deleting says so.
      const free = await add(third.ownerKey, 'old.claimed.test')
      expect(free.statusCode, free.body).toBe(201)
      expect(
        (await t.call('DELETE', `/api/domains/${free.json<Domain>().id}`, { key: third.ownerKey }))
          .statusCode,
      ).toBe(204)
      expect(deleted.at(-1)).toMatchObject({ organizationId: third.orgId, data: { reason: 'deleted' } })
    })
  },
)
