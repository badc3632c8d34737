import { randomBytes, X509Certificate } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSecretBox } from '../../../daemon/crypto.js'
import { migrate } from '../../../daemon/db/migrate.js'
import { openDatabase, type Db } from '../../../daemon/db/open.js'
import { createAcme } from '../../../daemon/modules/domains/acme.js'
import { createAcmeStore } from '../../../daemon/modules/domains/acme-store.js'
import { missingBinaries } from '../../support/binaries.js'
import { FakeClock } from '../../support/clock.js'
import { startDnsServer, type DnsServer } from '../../support/dns-server.js'
import { startPebble, type Pebble } from '../../support/pebble.js'
import { freePort } from '../../support/processes.js'

const skip = missingBinaries('dnsmasq', 'pebble', 'openssl')

describe.skipIf(skip)('ACME with a real pebble', () => {
  let dns: DnsServer
  let pebble: Pebble
  let http: Server
  let db: Db
  const clock = new FakeClock(Date.now())
  const secrets = createSecretBox(randomBytes(32))
  const served: string[] = []

  beforeAll(async () => {
    db = openDatabase('sqlite::memory:')
    await migrate(db, clock.now())
    dns = await startDnsServer({ a: [['cert.example.test', '127.0.0.1']] })
    const httpPort = await freePort()
    const acme = () => acmeFor()
    http = createServer((req, res) => {
      const token = /^\/\.well-known\/acme-challenge\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1]
      void (async () => {
        const answer = token ? await acme().challengeResponse(token) : undefined
        if (answer) served.push(token!)
        res.writeHead(answer ? 200 : 404, { 'content-type': 'text/plain' }).end(answer ?? 'not found')
      })()
    })
    await new Promise<void>((r) => http.listen(httpPort, '127.0.0.1', r))
    pebble = await startPebble({ httpPort, dnsServer: dns.address })
  })
  afterAll(async () => {
    await new Promise((r) => http?.close(r))
    await pebble?.stop()
    await dns?.stop()
    await db?.close()
  })

  const acmeFor = () =>
    createAcme({
      store: createAcmeStore(db.kysely),
      secrets,
      clock,
      directoryUrl: pebble.directoryUrl,
      email: 'ops@example.test',
      caFile: pebble.endpointCaFile,
      precheck: false,
    })

  it('issues a certificate for the domain, answering HTTP-01 from the stored token', async () => {
    const cert = await acmeFor().issue('cert.example.test')
    const leaf = new X509Certificate(cert.certPem)
    expect(leaf.subjectAltName).toBe('DNS:cert.example.test')
    expect(leaf.checkPrivateKey((await import('node:crypto')).createPrivateKey(cert.keyPem))).toBe(true)
    expect(cert.issuer).toMatch(/Pebble Intermediate CA/)
    expect(cert.notAfter).toBeGreaterThan(Date.now())
    expect(cert.serial).toMatch(/^[0-9A-F]+$/)
    expect(served.length).toBeGreaterThan(0)
    // The chain validates up to pebble's issuing root.
    const root = new X509Certificate(await pebble.issuingRoot())
    const chain = cert.certPem.split(/(?<=-----END CERTIFICATE-----)\s*/).filter((p) => p.trim())
    const intermediate = new X509Certificate(chain[1]!)
    expect(leaf.verify(intermediate.publicKey)).toBe(true)
    expect(intermediate.verify(root.publicKey)).toBe(true)
    // Tokens are removed once the order is done.
    expect(await db.kysely.selectFrom('acme_challenges').selectAll().execute()).toEqual([])
  })

  it('creates the account key once, keeps it encrypted, and reuses it', async () => {
    const before = await db.kysely.selectFrom('acme_accounts').selectAll().execute()
    expect(before).toHaveLength(1)
    expect(before[0]!.account_key_enc).not.toMatch(/PRIVATE KEY/)
    expect(secrets.decrypt(before[0]!.account_key_enc)).toMatch(/PRIVATE KEY/)
    expect(before[0]!.account_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//)
    await acmeFor().issue('cert.example.test')
    expect(await db.kysely.selectFrom('acme_accounts').selectAll().execute()).toEqual(before)
  })

  it('keeps issuing when the CA no longer knows the stored account', async () => {
    await acmeFor().issue('cert.example.test')
    // What a CA that forgot the account (or a wrong stored URL) looks like to linkd.
    await db.kysely
      .updateTable('acme_accounts')
      .set({ account_url: 'https://127.0.0.1:1/my-account/forgotten' })
      .execute()
    const cert = await acmeFor().issue('cert.example.test')
    expect(cert.certPem).toMatch(/BEGIN CERTIFICATE/)
    const [row] = await db.kysely.selectFrom('acme_accounts').selectAll().execute()
    expect(row!.account_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/my-account\//)
    expect(row!.account_url).not.toContain('forgotten')
  })

  it('fails the order when the domain does not resolve to us', async () => {
    await expect(acmeFor().issue('elsewhere.example.test')).rejects.toThrow()
  })
})
