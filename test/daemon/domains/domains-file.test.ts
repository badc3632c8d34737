/**
 * File verification of custom domains (verificationMethod FILE): linkd fetches
 * http://<domain>/.well-known/linkd-verification/<token> from a real HTTP server on the loopback,
 * the domain resolved by a real DNS server (dnsmasq), under the webhooks' SSRF guard. The loopback
 * counts as a private network here, so the app allows private networks as the webhook tests do.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { missingBinaries } from '../../support/binaries.js'
import { startDnsServer, type DnsServer } from '../../support/dns-server.js'
import type { Domain } from '../../../src/contract/domains.js'

const CNAME = 'links.linkd.test'
const HOSTS = ['ok', 'wrong', 'missing', 'moved', 'big', 'slow', 'later', 'guarded'].map(
  (h) => `${h}.example.test`,
)

/** What the loopback web server answers, per host; every request it receives is logged. */
type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang'
const answers = new Map<string, (path: string) => Answer>()
const seen: Array<{ host: string; path: string }> = []

function startWebServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '')
    seen.push({ host, path: req.url ?? '' })
    const answer = answers.get(host)?.(req.url ?? '') ?? { status: 404, body: 'not found' }
    if (answer === 'hang') return // never answers: the check's timeout ends it
    res.writeHead(answer.status, answer.headers ?? { 'content-type': 'text/plain' })
    res.end(answer.body ?? '')
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

const skip = missingBinaries('dnsmasq')

describe.skipIf(skip)('file verification of custom domains', () => {
  let t: TestApp
  let guarded: TestApp
  let dns: DnsServer
  let web: Server

  beforeAll(async () => {
    dns = await startDnsServer({
      a: [[CNAME, '127.0.0.1'], ...HOSTS.map((h) => [h, '127.0.0.1'] as [string, string])],
    })
    web = await startWebServer()
    const domainFile = { port: (web.address() as AddressInfo).port, timeoutMs: 500 }
    const config = { cnameTarget: CNAME, dnsResolvers: dns.address }
    t = await createTestApp({ ...config, webhookAllowPrivateNetworks: true }, { domainFile })
    // The defaults: private networks refused, loopback only by name (localhost) or literal.
    guarded = await createTestApp(config, { domainFile })
  })
  afterAll(async () => {
    await t?.close()
    await guarded?.close()
    await dns?.stop()
    web?.closeAllConnections()
    await new Promise((r) => web?.close(r))
  })

  async function add(app: TestApp, domain: string): Promise<Domain> {
    const res = await app.call('POST', '/api/domains', { body: { domain, verificationMethod: 'FILE' } })
    expect(res.statusCode, res.body).toBe(201)
    return res.json<Domain>()
  }
  const verify = async (app: TestApp, d: Domain) => {
    const res = await app.call('POST', `/api/domains/${d.id}/verify`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<Domain>()
  }

  it('gives the path and body to publish; only the CNAME record is listed (it moves traffic, it does not verify)', async () => {
    const d = await add(t, 'ok.example.test')
    const token = /^linkd-verify=([A-Za-z0-9]{32})$/.exec(d.verificationFile?.body ?? '')?.[1]
    expect(token).toBeDefined()
    expect(d).toMatchObject({
      verificationMethod: 'FILE',
      verificationStatus: 'pending',
      verificationFile: {
        url: `http://ok.example.test/.well-known/linkd-verification/${token}`,
        path: `/.well-known/linkd-verification/${token}`,
        status: 'Pending',
        reason: null,
      },
      dnsRecords: [{ type: 'CNAME', name: 'ok.example.test', value: CNAME, status: 'Pending' }],
    })
    // A DNS domain has no file instructions.
    const dnsDomain = await t.call('POST', '/api/domains', { body: { domain: 'dns.example.test' } })
    expect(dnsDomain.json()).toMatchObject({ verificationMethod: 'CNAME', verificationFile: null })
  })

  it('the right body verifies (whitespace around it ignored), over plain HTTP at the given path', async () => {
    const d = (await t.call('GET', '/api/domains?limit=10'))
      .json<{ data: Domain[] }>()
      .data.find((x) => x.domain === 'ok.example.test')!
    const file = d.verificationFile!
    answers.set('ok.example.test', (path) =>
      path === file.path ? { status: 200, body: `${file.body}\n` } : { status: 404 },
    )
    const v = await verify(t, d)
    expect(v).toMatchObject({
      verificationStatus: 'verified',
      sslStatus: 'pending',
      verificationFile: { status: 'Verified', reason: null },
    })
    expect(seen).toContainEqual({ host: 'ok.example.test', path: file.path })
    // Verified: the method no longer changes.
    const switched = await t.call('PATCH', `/api/domains/${d.id}`, { body: { verificationMethod: 'CNAME' } })
    expect(switched.statusCode).toBe(422)
    expect(switched.json().message).toBe(
      'domain ok.example.test is already verified; its verification method no longer changes',
    )
  })

  it('a wrong body fails and says what the file holds', async () => {
    const d = await add(t, 'wrong.example.test')
    answers.set('wrong.example.test', () => ({ status: 200, body: 'linkd-verify=somebody-else' }))
    const v = await verify(t, d)
    expect(v.verificationStatus).toBe('failed')
    expect(v.verificationFile).toMatchObject({ status: 'Failed' })
    expect(v.verificationFile!.reason).toBe(
      `${d.verificationFile!.url} holds "linkd-verify=somebody-else", not ${d.verificationFile!.body}`,
    )
  })

  it('a 404 fails with the status', async () => {
    const d = await add(t, 'missing.example.test')
    const v = await verify(t, d)
    expect(v.verificationStatus).toBe('failed')
    expect(v.verificationFile!.reason).toBe(
      `${d.verificationFile!.url} answered HTTP 404, not 200 with the file`,
    )
  })

  it('a redirect is not followed, even to a URL holding the right body', async () => {
    const d = await add(t, 'moved.example.test')
    const body = d.verificationFile!.body
    answers.set('moved.example.test', (path) =>
      path === '/elsewhere' ? { status: 200, body } : { status: 301, headers: { location: '/elsewhere' } },
    )
    const v = await verify(t, d)
    expect(v.verificationStatus).toBe('failed')
    expect(v.verificationFile!.reason).toMatch(/answered HTTP 301 to \/elsewhere: redirects are not followed/)
    expect(seen.filter((r) => r.host === 'moved.example.test').map((r) => r.path)).toEqual([
      d.verificationFile!.path,
    ])
  })

  it('a body over 1 KB is not the file', async () => {
    const d = await add(t, 'big.example.test')
    answers.set('big.example.test', () => ({
      status: 200,
      body: d.verificationFile!.body + ' '.repeat(5000),
    }))
    const v = await verify(t, d)
    expect(v.verificationStatus).toBe('failed')
    expect(v.verificationFile!.reason).toMatch(/answered more than 1024 bytes/)
  })

  it('a server that does not answer fails after the timeout', async () => {
    const d = await add(t, 'slow.example.test')
    answers.set('slow.example.test', () => 'hang')
    // The server holds the request for good: the answer comes from the 0.5 s timeout.
    const v = await verify(t, d)
    expect(v.verificationStatus).toBe('failed')
    expect(v.verificationFile!.reason).toBe(`${d.verificationFile!.url} did not answer within 0.5 s`)
  })

  it('the SSRF guard refuses a domain resolving to a loopback or private address, without a request', async () => {
    const d = await add(guarded, 'guarded.example.test')
    answers.set('guarded.example.test', () => ({ status: 200, body: d.verificationFile!.body }))
    const v = await verify(guarded, d)
    expect(v.verificationStatus).toBe('failed')
    expect(v.verificationFile!.reason).toMatch(
      /not fetched: refused: guarded\.example\.test resolves to 127\.0\.0\.1, a loopback address \(SSRF guard\)$/,
    )
    expect(seen.some((r) => r.host === 'guarded.example.test')).toBe(false)
  })

  it('the re-check job verifies a pending domain once the file is published', async () => {
    const d = await add(t, 'later.example.test')
    expect(await t.app.linkd.services.domains.recheckPending()).toMatchObject({ verified: 0 })
    answers.set('later.example.test', () => ({ status: 200, body: d.verificationFile!.body }))
    expect(await t.app.linkd.services.domains.recheckPending()).toMatchObject({ verified: 1 })
    const after = (await t.call('GET', `/api/domains/${d.id}`)).json<Domain>()
    expect(after).toMatchObject({ verificationStatus: 'verified', verificationFile: { status: 'Verified' } })
  })
})

describe('choosing the verification method', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ cnameTarget: CNAME, aRecordIp: '192.0.2.10' })
  })
  afterAll(() => t.close())

  it('defaults to the DNS method of the domain type; a method not of that type is a 400', async () => {
    const sub = await t.call('POST', '/api/domains', { body: { domain: 'go.choose.test' } })
    expect(sub.json()).toMatchObject({ verificationMethod: 'CNAME', verificationFile: null })
    const apex = await t.call('POST', '/api/domains', { body: { domain: 'choose.test' } })
    expect(apex.json()).toMatchObject({ verificationMethod: 'TXT' })
    const wrong = await t.call('POST', '/api/domains', {
      body: { domain: 'x.choose.test', verificationMethod: 'TXT' },
    })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toMatchObject({
      error: 'ValidationError',
      message: expect.stringMatching(
        /TXT is not a method for x\.choose\.test: a subdomain is verified by CNAME/,
      ),
    })
    expect(wrong.json().details[0].field).toBe('verificationMethod')
    const unknown = await t.call('POST', '/api/domains', {
      body: { domain: 'y.choose.test', verificationMethod: 'HTML' },
    })
    expect(unknown.statusCode).toBe(400)
  })

  it('PATCH switches a domain not yet verified between its DNS method and FILE', async () => {
    const d = (await t.call('GET', '/api/domains?limit=10'))
      .json<{ data: Domain[] }>()
      .data.find((x) => x.domain === 'go.choose.test')!
    const toFile = await t.call('PATCH', `/api/domains/${d.id}`, { body: { verificationMethod: 'FILE' } })
    expect(toFile.statusCode).toBe(200)
    expect(toFile.json()).toMatchObject({
      verificationMethod: 'FILE',
      verificationFile: { body: d.dnsRecords[0]!.value, status: 'Pending' },
    })
    expect(toFile.json<Domain>().dnsRecords.map((r) => r.type)).toEqual(['CNAME'])
    const back = await t.call('PATCH', `/api/domains/${d.id}`, { body: { verificationMethod: 'CNAME' } })
    expect(back.json()).toMatchObject({ verificationMethod: 'CNAME', verificationFile: null })
    expect(back.json<Domain>().dnsRecords.map((r) => r.type)).toEqual(['TXT', 'CNAME'])
  })
})
