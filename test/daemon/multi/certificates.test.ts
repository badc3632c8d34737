/**
 * Certificates with two processes on one database: the recheck-domains job of one process does
 * not order a second certificate for a domain another process has just verified (its order is
 * running there); an order left pending for 10 minutes (the process died) is ordered again, and
 * a dead process's claim on a domain's order holds until it expires.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { postgresOnly } from '../../support/postgres.js'
import { createSharedApps, type SharedApps } from '../../support/shared-database.js'
import type { TestApp } from '../../support/app.js'
import type { Domain } from '../../../src/contract/domains.js'

let shared: SharedApps
afterEach(() => shared.close())

/** A "CA" that answers 404 to everything: an order that starts fails at once, as its status shows. */
async function brokenCa(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(404).end())
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/directory`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

describe.runIf(postgresOnly())('certificate orders with two processes on one PostgreSQL database', () => {
  it('a domain verified a moment ago is left to the order running elsewhere; after 10 min it is ordered again', async () => {
    const ca = await brokenCa()
    onTestFinished(() => ca.close())
    shared = await createSharedApps(2, { acmeDirectory: ca.url, acmePrecheck: false })
    const [a, b] = shared.apps as [TestApp, TestApp]
    const created = await a.call('POST', '/api/domains', { body: { domain: 'shop.example.org' } })
    expect(created.statusCode, created.body).toBe(201)
    const id = created.json<Domain>().id
    // Process a verified it just now and is ordering its certificate (ssl pending).
    await a.db.kysely
      .updateTable('custom_domains')
      .set({ verification_status: 'verified', verified_at: a.clock.now(), ssl_status: 'pending' })
      .set({ updated_at: a.clock.now() })
      .where('id', '=', id)
      .execute()
    const sslStatus = async (t: TestApp) => {
      await t.app.linkd.services.domains.settled()
      return (await t.call('GET', `/api/domains/${id}`, { key: a.ownerKey })).json<Domain>().sslStatus
    }

    b.clock.advance(5 * 60_000)
    expect((await b.app.linkd.scheduler.runNow('recheck-domains')).ran).toBe(true)
    expect(await sslStatus(b)).toBe('pending') // no second order

    b.clock.advance(6 * 60_000)
    await b.app.linkd.scheduler.runNow('recheck-domains')
    expect(await sslStatus(b)).toBe('failed') // ordered again (this CA never answers)
  })

  it("an order's claim held by a process that died blocks every other order until it expires", async () => {
    const ca = await brokenCa()
    onTestFinished(() => ca.close())
    shared = await createSharedApps(2, { acmeDirectory: ca.url, acmePrecheck: false })
    const [a, b] = shared.apps as [TestApp, TestApp]
    const created = await a.call('POST', '/api/domains', { body: { domain: 'claimed.example.org' } })
    const id = created.json<Domain>().id
    // Process a verified it 20 minutes ago and claimed its order until 3 minutes from now, then died.
    const t = a.clock.now()
    await a.db.kysely
      .updateTable('custom_domains')
      .set({ verification_status: 'verified', verified_at: t - 20 * 60_000, ssl_status: 'pending' })
      .set({ updated_at: t - 20 * 60_000, cert_order_until: t + 3 * 60_000 })
      .where('id', '=', id)
      .execute()
    const sslStatus = async () => {
      await b.app.linkd.services.domains.settled()
      return (await b.call('GET', `/api/domains/${id}`, { key: a.ownerKey })).json<Domain>().sslStatus
    }

    await b.app.linkd.scheduler.runNow('recheck-domains')
    expect(await sslStatus()).toBe('pending') // the claim holds: no order

    b.clock.advance(4 * 60_000)
    await b.app.linkd.scheduler.runNow('recheck-domains')
    expect(await sslStatus()).toBe('failed') // expired: ordered (this CA never answers)
  })
})
