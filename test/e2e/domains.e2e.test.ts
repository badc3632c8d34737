/**
 * End to end, custom domains with the real binaries: a loopback dnsmasq serving the records that
 * `linkctl domains add` printed, a loopback pebble (ACME test CA) validating HTTP-01 against the
 * built `linkd`'s HTTP listener, and a TLS client connecting by SNI to linkd's HTTPS listener,
 * validating the chain against pebble's issuing root and following a short link created with
 * `linkctl links create --domain`. Pebble issues certificates valid for 7 days, so every one of
 * them is within the 30-day renewal window: a linkd restart (renewal runs once at start-up) must
 * replace the certificate, served on the same port, with no other action.
 * Needs `npm run build` first (`npm test` does it); skipped without dnsmasq/pebble/openssl, except
 * in CI where they are required.
 */
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Domain, SslDetails } from '../../src/contract/domains.js'
import type { Link } from '../../src/contract/links.js'
import { aasaProblems, assetLinksProblems, fetchFile, fingerprint } from '../support/app-links.js'
import { missingBinaries } from '../support/binaries.js'
import { startDnsServer, type DnsRecords, type DnsServer } from '../support/dns-server.js'
import { startPebble, type Pebble } from '../support/pebble.js'
import {
  freePort,
  LINKCTL,
  LINKD,
  OWNER_KEY_RE,
  runBin,
  startLinkd,
  type RunningLinkd,
} from '../support/processes.js'

const CNAME_TARGET = 'links.linkd.test'
const HOST = 'go.e2e.test'
const DAY = 86_400_000
/** Pebble's certificate validity: well inside the 30-day renewal window. */
const VALIDITY_S = 7 * 86_400

const skip = missingBinaries('dnsmasq', 'pebble', 'openssl')

interface TlsAnswer {
  status: number
  location: string | undefined
  serial: string
  /** Leaf subject alternative names as presented by the server. */
  altNames: string | undefined
}

/** GET https://HOST/path on the HTTPS listener, SNI = HOST, the chain checked against `root` only. */
function httpsGet(port: number, path: string, root: string): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        servername: HOST,
        headers: { host: HOST },
        ca: root,
        agent: false,
        rejectUnauthorized: true,
        timeout: 10_000,
      },
      (res) => {
        const peer = (res.socket as TLSSocket).getPeerX509Certificate()
        res.resume()
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            serial: new X509Certificate(peer!.raw).serialNumber,
            altNames: peer?.subjectAltName,
          }),
        )
      },
    )
    req.on('timeout', () => req.destroy(new Error('HTTPS request timed out')))
    req.on('error', reject)
    req.end()
  })
}

/** GET http://HOST/path on linkd's plain HTTP listener. */
function httpGet(port: number, path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, headers: { host: HOST }, timeout: 10_000 }, (res) => {
      res.resume()
      resolve({ status: res.statusCode ?? 0, location: res.headers.location })
    })
      .on('error', reject)
      .end()
  })
}

describe.skipIf(skip)('custom domains with the real binaries, dnsmasq and pebble', () => {
  let work = ''
  let dataDir = ''
  let dns: DnsServer | undefined
  let pebble: Pebble | undefined
  let daemon: RunningLinkd | undefined
  let linkdEnv: Record<string, string> = {}
  let cliEnv: Record<string, string> = {}
  let httpPort = 0
  let httpsPort = 0
  let root = ''
  let domain: Domain
  let firstSsl: SslDetails

  const linkctl = (...args: string[]) => runBin(LINKCTL, args, cliEnv)
  const json = async <T>(...args: string[]): Promise<T> => {
    const r = await linkctl(...args, '--json')
    expect(r.code, `linkctl ${args.join(' ')}: ${r.stderr}`).toBe(0)
    return JSON.parse(r.stdout) as T
  }

  /**
   * Polls `linkctl domains ssl` until `done` holds (bounded). A failed order (first issuance:
   * status failed; renewal: the error recorded while the old certificate stays active) fails at once.
   */
  async function sslUntil(done: (s: SslDetails) => boolean, what: string): Promise<SslDetails> {
    const until = Date.now() + 120_000
    for (;;) {
      const s = await json<SslDetails>('domains', 'ssl', domain.id)
      if (done(s)) return s
      if (s.error || s.sslStatus === 'failed' || s.sslStatus === 'expired')
        throw new Error(`certificate ${s.sslStatus}: ${s.error}\n${daemon?.output()}`)
      if (Date.now() > until)
        throw new Error(`no ${what} within 120 s: ${JSON.stringify(s)}\n${daemon?.output()}`)
      await new Promise((r) => setTimeout(r, 250))
    }
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'linkd-domains-e2e-'))
    dataDir = join(work, 'data')
    // The default organization's key, on a plan that includes a custom domain (free has none).
    const init = await runBin(LINKD, ['init'], { LINKD_DATA_DIR: dataDir, LINKD_LOG_LEVEL: 'warn' })
    expect(init.code, init.stderr).toBe(0)
    const ownerKey = OWNER_KEY_RE.exec(init.stdout)?.[0] ?? ''
    const plan = await runBin(LINKD, ['org', 'set-plan', 'default', 'starter'], {
      LINKD_DATA_DIR: dataDir,
      LINKD_LOG_LEVEL: 'warn',
    })
    expect(plan.code, plan.stderr).toBe(0)

    // Only the service's own CNAME target resolves until the user creates the domain's records.
    dns = await startDnsServer({ a: [[CNAME_TARGET, '127.0.0.1']] })
    httpPort = await freePort()
    httpsPort = await freePort()
    pebble = await startPebble({
      httpPort,
      dnsServer: dns.address,
      certificateValidityPeriod: VALIDITY_S,
    })
    root = await pebble.issuingRoot()
    linkdEnv = {
      LINKD_PORT: String(httpPort),
      LINKD_HTTPS_PORT: String(httpsPort),
      LINKD_DNS_RESOLVERS: dns.address,
      LINKD_CNAME_TARGET: CNAME_TARGET,
      LINKD_ACME_DIRECTORY: pebble.directoryUrl,
      LINKD_ACME_CA_FILE: pebble.endpointCaFile,
      LINKD_ACME_PRECHECK: 'false',
    }
    daemon = await startLinkd(dataDir, linkdEnv)
    cliEnv = {
      LINKCTL_URL: daemon.url,
      LINKCTL_API_KEY: ownerKey,
      LINKCTL_CONFIG_DIR: join(work, 'config'),
    }
  }, 120_000)

  afterAll(async () => {
    // Each one stopped even when another fails to.
    const stops: Array<() => Promise<unknown> | undefined> = [
      () => daemon?.stop('SIGKILL'),
      () => pebble?.stop(),
      () => dns?.stop(),
    ]
    for (const stop of stops)
      await Promise.resolve()
        .then(stop)
        .catch(() => undefined)
    if (work) rmSync(work, { recursive: true, force: true })
  }, 60_000)

  it('domains add prints the records; served by DNS, domains verify verifies the domain', async () => {
    domain = await json<Domain>('domains', 'add', HOST)
    expect(domain).toMatchObject({ domain: HOST, verificationStatus: 'pending', sslStatus: null })
    const types = domain.dnsRecords.map((r) => r.type).sort()
    expect(types).toEqual(['CNAME', 'TXT'])

    // Before the records exist, verification fails (the names are unknown to the DNS).
    const early = await linkctl('domains', 'verify', domain.id, '--json')
    expect(early.code).toBe(1)
    expect(JSON.parse(early.stdout)).toMatchObject({ verificationStatus: 'failed', sslStatus: null })

    // The DNS now serves exactly the records linkctl printed.
    const records: DnsRecords = { a: [[CNAME_TARGET, '127.0.0.1']], cname: [], txt: [] }
    for (const r of domain.dnsRecords)
      if (r.type === 'TXT') records.txt!.push([r.name, r.value])
      else if (r.type === 'CNAME') records.cname!.push([r.name, r.value])
      else records.a!.push([r.name, r.value])
    expect(records.cname).toEqual([[HOST, CNAME_TARGET]])
    await dns!.restart(records)

    const verified = await json<Domain>('domains', 'verify', domain.id)
    expect(verified.verificationStatus).toBe('verified')
    expect(verified.dnsRecords.map((r) => r.status)).toEqual(['Verified', 'Verified'])
    expect(verified.sslStatus === 'pending' || verified.sslStatus === 'active').toBe(true)
  }, 60_000)

  it('pebble issues the certificate over HTTP-01 and domains ssl shows it active', async () => {
    firstSsl = await sslUntil((s) => s.sslStatus === 'active', 'active certificate')
    expect(firstSsl).toMatchObject({
      domain: HOST,
      issuer: expect.stringMatching(/Pebble Intermediate CA/),
      serialNumber: expect.stringMatching(/^[0-9A-F]+$/),
      renewedAt: null,
      error: null,
    })
    const validFor = Date.parse(firstSsl.validTo!) - Date.parse(firstSsl.validFrom!)
    expect(validFor).toBeLessThanOrEqual(VALIDITY_S * 1000 + 1000)
    // Inside the 30-day window already: the next renewal is due now, not 30 days before expiry.
    expect(Date.parse(firstSsl.nextRenewalAt!)).toBeGreaterThan(Date.parse(firstSsl.validTo!) - 30 * DAY)
  }, 150_000)

  it('a short link on the domain redirects over HTTPS (SNI, chain valid against pebble root); HTTP gets 308', async () => {
    const link = await json<Link>(
      'links',
      'create',
      'https://example.com/from-custom-domain',
      '--domain',
      HOST,
      '--slug',
      'e2e',
    )
    expect(link.shortUrl).toBe(`https://${HOST}/e2e`)
    const res = await httpsGet(httpsPort, '/e2e', root)
    expect(res).toMatchObject({
      status: 302,
      location: 'https://example.com/from-custom-domain',
      serial: firstSsl.serialNumber,
      altNames: `DNS:${HOST}`,
    })
    expect(await httpGet(httpPort, '/e2e')).toEqual({ status: 308, location: `https://${HOST}/e2e` })
    // Trusting anything but pebble's root, the handshake is refused.
    const otherRoot = pebble!.endpointCa
    await expect(httpsGet(httpsPort, '/e2e', otherRoot)).rejects.toThrow()
  }, 60_000)

  it('linkctl domains app-links sets the files the domain serves over HTTPS and HTTP, never redirected', async () => {
    const AASA = '/.well-known/apple-app-site-association'
    const ASSETLINKS = '/.well-known/assetlinks.json'
    const empty = await linkctl('domains', 'app-links', HOST)
    expect(empty.code, empty.stderr).toBe(0)
    expect(empty.stdout).toBe('IOS APP IDS\tIOS PATHS\tANDROID PACKAGE\tANDROID FINGERPRINTS\n\t\t\t\n')
    expect((await fetchFile(httpsPort, HOST, AASA, root)).status).toBe(404)

    const set = await linkctl(
      ...['domains', 'app-links', HOST, '--ios-app-id', 'ABCDE12345.com.example.game'],
      ...['--ios-path', 'NOT /admin/*', '--ios-path', '/*', '--android-package', 'com.example.game'],
      ...['--android-fingerprint', fingerprint('9f')],
    )
    expect(set.code, set.stderr).toBe(0)
    expect(set.stdout.split('\n')[1]).toBe(
      `ABCDE12345.com.example.game\tNOT /admin/*, /*\tcom.example.game\t${fingerprint('9F')}`,
    )
    for (const ca of [root, undefined]) {
      const port = ca ? httpsPort : httpPort
      const aasa = await fetchFile(port, HOST, AASA, ca)
      expect(aasa).toMatchObject({ status: 200, type: 'application/json', location: undefined })
      expect(aasaProblems(aasa.body)).toEqual([])
      const links = await fetchFile(port, HOST, ASSETLINKS, ca)
      expect(links).toMatchObject({ status: 200, type: 'application/json', location: undefined })
      expect(assetLinksProblems(links.body)).toEqual([])
    }

    // One platform cleared, the other kept; its file is then 404 (not redirected to HTTPS).
    const cleared = await json<{ ios: unknown; android: { packageName: string } | null }>(
      ...['domains', 'app-links', domain.id, '--clear-ios'],
    )
    expect(cleared).toMatchObject({ ios: null, android: { packageName: 'com.example.game' } })
    expect(await fetchFile(httpPort, HOST, AASA)).toMatchObject({ status: 404, location: undefined })
    expect((await fetchFile(httpPort, HOST, ASSETLINKS)).status).toBe(200)

    const bad = await linkctl('domains', 'app-links', HOST, '--android-fingerprint', 'AB:CD')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/--android-fingerprint AB:CD.*32 hex pairs/)
    const usage = await linkctl('domains', 'app-links', HOST, '--clear-ios', '--ios-path', '/*')
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/--clear-ios cannot be combined/)
  }, 60_000)

  it('a restart renews the near-expiry certificate (start-up renewal run), served on the same port', async () => {
    expect(await daemon!.stop('SIGTERM')).toBe(0)
    daemon = await startLinkd(dataDir, linkdEnv)
    const renewed = await sslUntil(
      (s) => s.sslStatus === 'active' && s.serialNumber !== firstSsl.serialNumber,
      'renewed certificate',
    )
    expect(renewed).toMatchObject({
      issuer: expect.stringMatching(/Pebble Intermediate CA/),
      renewedAt: expect.any(String),
      error: null,
    })
    expect(Date.parse(renewed.validTo!)).toBeGreaterThanOrEqual(Date.parse(firstSsl.validTo!))
    const res = await httpsGet(httpsPort, '/e2e', root)
    expect(res).toMatchObject({
      status: 302,
      location: 'https://example.com/from-custom-domain',
      serial: renewed.serialNumber,
    })
    expect(res.serial).not.toBe(firstSsl.serialNumber)
  }, 150_000)
})
