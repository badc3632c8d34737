import { X509Certificate } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { request } from 'node:https'
import type { TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listenHttps } from '../../../daemon/modules/domains/tls.js'
import type { Domain } from '../../../src/contract/domains.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { aasaProblems, assetLinksProblems, fetchFile, fingerprint } from '../../support/app-links.js'
import { missingBinaries } from '../../support/binaries.js'
import { startDnsServer, type DnsServer } from '../../support/dns-server.js'
import { pebbleAppConfig, startPebble, type Pebble } from '../../support/pebble.js'
import { freePort } from '../../support/processes.js'

const CNAME = 'links.linkd.test'
const HOST = 'tls.example.test'
const DAY = 86_400_000

/** GET over TLS to the listener with SNI = HOST, validating the chain against `ca`. */
function httpsGet(
  port: number,
  path: string,
  ca: string,
): Promise<{ status: number; location: string | undefined; serial: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, servername: HOST, headers: { host: HOST }, ca, agent: false },
      (res) => {
        const serial = new X509Certificate((res.socket as TLSSocket).getPeerX509Certificate()!.raw)
          .serialNumber
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, serial }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const skip = missingBinaries('dnsmasq', 'pebble', 'openssl')

describe.skipIf(skip)('HTTPS for custom domains with a certificate from a real pebble', () => {
  let dns: DnsServer
  let pebble: Pebble
  let t: TestApp
  let https: Awaited<ReturnType<typeof listenHttps>>
  let domain: Domain
  let root: string
  let httpPort: number

  beforeAll(async () => {
    dns = await startDnsServer({ a: [[CNAME, '127.0.0.1']] })
    const port = await freePort()
    httpPort = port
    pebble = await startPebble({ httpPort: port, dnsServer: dns.address })
    root = await pebble.issuingRoot()
    t = await createTestApp(pebbleAppConfig(pebble, { port, dnsServer: dns.address, cnameTarget: CNAME }))
    t.clock.set(Date.now())
    await t.app.listen({ host: '127.0.0.1', port })
    https = await listenHttps(t.app, t.app.linkd.services.directory, { host: '127.0.0.1', port: 0 })
    domain = (await t.call('POST', '/api/domains', { body: { domain: HOST } })).json<Domain>()
    await dns.restart({
      a: [[CNAME, '127.0.0.1']],
      cname: [[HOST, CNAME]],
      txt: [[domain.dnsRecords[0]!.name, domain.dnsRecords[0]!.value]],
    })
  })
  afterAll(async () => {
    await https?.close()
    await t?.close()
    await pebble?.stop()
    await dns?.stop()
  })

  it('verify → certificate issued over HTTP-01 → SSL active with its details', async () => {
    const v = await t.call('POST', `/api/domains/${domain.id}/verify`)
    expect(v.json()).toMatchObject({ verificationStatus: 'verified', sslStatus: 'pending' })
    await t.app.linkd.services.domains.settled()
    const ssl = (await t.call('GET', `/api/domains/${domain.id}/ssl`)).json()
    expect(ssl).toMatchObject({
      sslStatus: 'active',
      issuer: expect.stringMatching(/Pebble Intermediate CA/),
      serialNumber: expect.stringMatching(/^[0-9A-F]+$/),
      error: null,
      renewedAt: null,
    })
    expect(Date.parse(ssl.validTo)).toBeGreaterThan(Date.now() + 30 * DAY)
    expect(Date.parse(ssl.nextRenewalAt)).toBe(Date.parse(ssl.validTo) - 30 * DAY)
    const row = await t.db.kysely
      .selectFrom('custom_domains')
      .select('cert_key_enc')
      .executeTakeFirstOrThrow()
    expect(row.cert_key_enc).not.toMatch(/PRIVATE KEY/)
    expect((await t.call('GET', '/api/domains/stats')).json()).toMatchObject({
      activeDomains: 1,
      domainsWithSsl: 1,
    })
  })

  it('serves the short link over HTTPS by SNI (chain valid against pebble root); HTTP gets 308', async () => {
    const link = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/tls', customDomainId: domain.id, customSlug: 'secure' },
    })
    expect(link.json().shortUrl).toBe(`https://${HOST}/secure`)
    const res = await httpsGet(https.port, '/secure', root)
    expect(res).toMatchObject({ status: 302, location: 'https://example.com/tls' })

    const plain = await t.app.inject({ method: 'GET', url: '/secure?a=1', headers: { host: HOST } })
    expect(plain.statusCode).toBe(308)
    expect(plain.headers.location).toBe(`https://${HOST}/secure?a=1`)
    // Over the real HTTP listener too, with the link now hot in the redirect cache (the redirect
    // fast path must leave custom domains to the hook that upgrades them).
    for (let i = 0; i < 2; i++) {
      const overHttp = await new Promise<{ status: number; location: string | undefined }>(
        (resolve, reject) =>
          httpRequest(
            { host: '127.0.0.1', port: httpPort, path: '/secure', headers: { host: HOST } },
            (r) => {
              r.resume()
              resolve({ status: r.statusCode ?? 0, location: r.headers.location })
            },
          )
            .on('error', reject)
            .end(),
      )
      expect(overHttp).toEqual({ status: 308, location: `https://${HOST}/secure` })
    }
    const acme = await t.app.inject({
      method: 'GET',
      url: '/.well-known/acme-challenge/abc',
      headers: { host: HOST },
    })
    expect(acme.statusCode).toBe(404)
    // An unknown name gets no certificate.
    await expect(
      new Promise((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: https.port,
            path: '/',
            servername: 'nope.example.test',
            ca: root,
            agent: false,
          },
          resolve,
        )
        req.on('error', reject)
        req.end()
      }),
    ).rejects.toThrow()
  })

  it('serves the app-link files over HTTPS and over plain HTTP (not upgraded), as application/json', async () => {
    const set = await t.call('PUT', `/api/domains/${domain.id}/app-links`, {
      body: {
        ios: { appIds: ['ABCDE12345.com.example.game'], paths: ['/*'] },
        android: { packageName: 'com.example.game', sha256CertFingerprints: [fingerprint('c4')] },
      },
    })
    expect(set.statusCode, set.body).toBe(200)
    for (const ca of [root, undefined]) {
      const port = ca ? https.port : httpPort
      const aasa = await fetchFile(port, HOST, '/.well-known/apple-app-site-association', ca)
      expect(aasa).toMatchObject({ status: 200, type: 'application/json', location: undefined })
      expect(aasaProblems(aasa.body)).toEqual([])
      const links = await fetchFile(port, HOST, '/.well-known/assetlinks.json', ca)
      expect(links).toMatchObject({ status: 200, type: 'application/json', location: undefined })
      expect(assetLinksProblems(links.body)).toEqual([])
      expect(JSON.parse(links.body)[0].target.sha256_cert_fingerprints).toEqual([fingerprint('C4')])
    }
    // Anything else on plain HTTP still goes to HTTPS.
    expect((await fetchFile(httpPort, HOST, '/secure')).status).toBe(308)
  })

  it('the renewal job renews a certificate within 30 days of expiry and serves it without restart', async () => {
    const before = (await t.call('GET', `/api/domains/${domain.id}/ssl`)).json()
    expect(await t.app.linkd.scheduler.runNow('renew-certificates')).toEqual({ ran: true, status: 'ok' })
    expect((await t.call('GET', `/api/domains/${domain.id}/ssl`)).json().serialNumber).toBe(
      before.serialNumber,
    )

    t.clock.set(Date.parse(before.validTo) - 29 * DAY)
    const run = await t.app.linkd.scheduler.runNow('renew-certificates')
    expect(run).toMatchObject({ ran: true, status: 'ok', summary: '1 certificate renewed, 0 failed' })
    const after = (await t.call('GET', `/api/domains/${domain.id}/ssl`)).json()
    expect(after.sslStatus).toBe('active')
    expect(after.serialNumber).not.toBe(before.serialNumber)
    expect(after.renewedAt).toBe(new Date(t.clock.now()).toISOString())
    expect((await httpsGet(https.port, '/secure', root)).serial).toBe(after.serialNumber)
  })

  it('a renewal that fails leaves the certificate active until it expires, then expired', async () => {
    const before = (await t.call('GET', `/api/domains/${domain.id}/ssl`)).json()
    // The domain's CNAME is gone (the customer moved DNS away): the CA cannot reach us for HTTP-01
    // and the order fails at once. Pebble would still reuse the account's valid authorization for
    // the name in 1% of orders even with PEBBLE_AUTHZREUSE=0 (it reuses unless
    // rand.Intn(100) > percent), renewing the certificate after all; so the renewal runs under a
    // new ACME account (linkd creates one when its key is gone), which has no authorization to reuse.
    await dns.restart({ a: [[CNAME, '127.0.0.1']] })
    await t.db.kysely.deleteFrom('acme_accounts').execute()
    const failedRenewal = async () => {
      const run = await t.app.linkd.scheduler.runNow('renew-certificates')
      expect(run).toMatchObject({ ran: true, status: 'ok', summary: '0 certificates renewed, 1 failed' })
      return (await t.call('GET', `/api/domains/${domain.id}/ssl`)).json()
    }

    // 10 days before expiry: the failure is recorded, the certificate stays active and served.
    t.clock.set(Date.parse(before.validTo) - 10 * DAY)
    const stillValid = await failedRenewal()
    expect(stillValid).toMatchObject({
      sslStatus: 'active',
      serialNumber: before.serialNumber,
      renewedAt: before.renewedAt,
      error: expect.stringMatching(/\S/),
    })
    expect((await httpsGet(https.port, '/secure', root)).serial).toBe(before.serialNumber)

    // Past expiry the next failed run makes it expired: no longer served over HTTPS, and plain
    // HTTP is no longer upgraded to it.
    t.clock.set(Date.parse(before.validTo) + 1)
    const expired = await failedRenewal()
    expect(expired).toMatchObject({
      sslStatus: 'expired',
      serialNumber: before.serialNumber,
      error: expect.stringMatching(/\S/),
      daysRemaining: -1,
    })
    await expect(httpsGet(https.port, '/secure', root)).rejects.toThrow()
    const plain = await t.app.inject({ method: 'GET', url: '/secure', headers: { host: HOST } })
    expect(plain.statusCode).toBe(302)
    expect((await t.call('GET', '/api/domains/stats')).json()).toMatchObject({
      activeDomains: 0,
      domainsWithSsl: 0,
    })
  })
})
