/**
 * One certificate order per domain, whichever paths and processes start one at once: starting an
 * order is a claim on the domain's row (store.claimCertificateOrder). Two apps (processes) on one
 * PostgreSQL database, or one app on either engine; a real pebble counting the orders it
 * receives, and the test DNS server the verification reads.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Domain } from '../../../src/contract/domains.js'
import type { TestApp } from '../../support/app.js'
import { missingBinaries } from '../../support/binaries.js'
import { startDnsServer, type DnsServer } from '../../support/dns-server.js'
import { pebbleAppConfig, startPebble, type Pebble } from '../../support/pebble.js'
import { onPostgres } from '../../support/postgres.js'
import { freePort } from '../../support/processes.js'
import { createSharedApps, type SharedApps } from '../../support/shared-database.js'

const CNAME = 'links.linkd.test'
const skip = missingBinaries('dnsmasq', 'pebble', 'openssl')

describe.skipIf(skip)('one certificate order per domain (a real pebble)', () => {
  let dns: DnsServer
  let pebble: Pebble
  let port: number
  let shared: SharedApps | undefined
  let warmUps = 0

  beforeAll(async () => {
    dns = await startDnsServer({ a: [[CNAME, '127.0.0.1']] })
    port = await freePort()
    pebble = await startPebble({ httpPort: port, dnsServer: dns.address })
  })
  afterEach(async () => {
    await shared?.close()
    shared = undefined
  })
  afterAll(async () => {
    await pebble?.stop()
    await dns?.stop()
  })

  /** `count` apps on one database; the first listens where pebble validates HTTP-01. */
  async function apps(count: number): Promise<TestApp[]> {
    shared = await createSharedApps(
      count,
      pebbleAppConfig(pebble, { port, dnsServer: dns.address, cnameTarget: CNAME }),
    )
    for (const t of shared.apps) t.clock.set(Date.now())
    const [first] = shared.apps as [TestApp]
    await first.app.listen({ host: '127.0.0.1', port })
    // A first certificate, so that the installation's ACME account exists before the race.
    const warmUp = await addDomain(first, `warm-up-${++warmUps}.example.test`)
    await verify(first, first, warmUp.id)
    await settled(shared.apps)
    expect((await ssl(first, first, warmUp.id)).sslStatus).toBe('active')
    return shared.apps
  }

  /** Adds `host` through `t` and publishes its records on the test DNS server. */
  async function addDomain(t: TestApp, host: string): Promise<Domain> {
    const created = await t.call('POST', '/api/domains', { body: { domain: host } })
    expect(created.statusCode, created.body).toBe(201)
    const domain = created.json<Domain>()
    const txt = domain.dnsRecords
      .filter((r) => r.type === 'TXT')
      .map((r): [string, string] => [r.name, r.value])
    await dns.restart({ a: [[CNAME, '127.0.0.1']], cname: [[host, CNAME]], txt })
    return domain
  }

  const verify = (t: TestApp, owner: TestApp, id: string) =>
    t.call('POST', `/api/domains/${id}/verify`, { key: owner.ownerKey })

  async function settled(all: TestApp[]): Promise<void> {
    await Promise.all(all.map((t) => t.app.linkd.services.domains.settled()))
  }

  async function ssl(
    t: TestApp,
    owner: TestApp,
    id: string,
  ): Promise<{ sslStatus: string; serialNumber: string | null }> {
    return (await t.call('GET', `/api/domains/${id}/ssl`, { key: owner.ownerKey })).json()
  }

  it.runIf(onPostgres)(
    'two verifies at once on two processes: one order at the CA, both answered, one certificate',
    async () => {
      const [a, b] = (await apps(2)) as [TestApp, TestApp]
      const domain = await addDomain(a, 'twice.example.test')
      const before = pebble.orders()
      const answers = await Promise.all([verify(a, a, domain.id), verify(b, a, domain.id)])
      for (const r of answers) {
        expect(r.statusCode, r.body).toBe(200)
        expect(r.json<Domain>().verificationStatus).toBe('verified')
        expect(['pending', 'active']).toContain(r.json<Domain>().sslStatus)
      }
      await settled([a, b])
      expect(pebble.orders() - before).toBe(1)
      const issued = await ssl(a, a, domain.id)
      expect(issued.sslStatus).toBe('active')
      expect((await ssl(b, a, domain.id)).serialNumber).toBe(issued.serialNumber)
    },
  )

  it.runIf(onPostgres)(
    'a pending certificate: verifies on both processes and the recheck job at once make one order',
    async () => {
      const [a, b] = (await apps(2)) as [TestApp, TestApp]
      const domain = await addDomain(a, 'pending.example.test')
      // Verified 11 minutes ago, its order cut short (the process died): every path may order it.
      const long = a.clock.now() - 11 * 60_000
      await a.db.kysely
        .updateTable('custom_domains')
        .set({ verification_status: 'verified', verified_at: long, ssl_status: 'pending', updated_at: long })
        .where('id', '=', domain.id)
        .execute()
      const before = pebble.orders()
      const [va, vb] = await Promise.all([
        verify(a, a, domain.id),
        verify(b, a, domain.id),
        b.app.linkd.scheduler.runNow('recheck-domains'),
        a.app.linkd.scheduler.runNow('recheck-domains'),
      ])
      expect([va.statusCode, vb.statusCode]).toEqual([200, 200])
      await settled([a, b])
      expect(pebble.orders() - before).toBe(1)
      expect((await ssl(b, a, domain.id)).sslStatus).toBe('active')
      // The order is over: a later verify of the active domain orders nothing more.
      expect((await verify(b, a, domain.id)).json<Domain>().sslStatus).toBe('active')
      await settled([a, b])
      expect(pebble.orders() - before).toBe(1)
    },
  )

  it('one process, two verifies at once: one order', async () => {
    const [t] = (await apps(1)) as [TestApp]
    const domain = await addDomain(t, 'once.example.test')
    const before = pebble.orders()
    const answers = await Promise.all([verify(t, t, domain.id), verify(t, t, domain.id)])
    expect(answers.map((r) => r.json<Domain>().verificationStatus)).toEqual(['verified', 'verified'])
    await settled([t])
    expect(pebble.orders() - before).toBe(1)
    expect((await ssl(t, t, domain.id)).sslStatus).toBe('active')
  })
})
