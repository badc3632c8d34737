/**
 * LINKD_WEBHOOK_ALLOW_LOOPBACK, over every spelling of a loopback address: at create, update and
 * validate-url, and at delivery (the test action) against a real receiver on loopback that would
 * answer if reached. Also: the private-range refusals apply to every spelling of an address.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../../daemon/app.js'
import { loadConfig } from '../../../daemon/config.js'
import { migrate } from '../../../daemon/db/migrate.js'
import { openDatabase, type Db } from '../../../daemon/db/open.js'
import type { Resolver } from '../../../daemon/modules/webhooks/ssrf.js'
import { FakeClock } from '../../support/clock.js'
import { expectError } from '../../support/responses.js'

/** An HTTP receiver on 127.0.0.1 and ::1 (same port) answering 200, counting every TCP connection. */
interface Listener {
  port: number
  /** TCP connections accepted (a TLS attempt on it counts too), and HTTP requests. */
  connections: number
  requests: number
  close(): Promise<void>
}

async function startListener(): Promise<Listener> {
  const l = { port: 0, connections: 0, requests: 0, close: async () => {} }
  const make = () => {
    const s = createServer((_req, res) => {
      l.requests++
      res.writeHead(200).end('ok')
    })
    s.on('connection', () => l.connections++)
    return s
  }
  const listen = (s: Server, host: string, port: number) =>
    new Promise<void>((resolve, reject) => {
      s.once('error', reject)
      s.listen(port, host, () => resolve())
    })
  const v4 = make()
  await listen(v4, '127.0.0.1', 0)
  l.port = (v4.address() as AddressInfo).port
  const servers = [v4]
  const v6 = make()
  await listen(v6, '::1', l.port).then(
    () => servers.push(v6),
    () => {}, // no IPv6 loopback here: the ::1 rows then only assert the refusal
  )
  l.close = async () => {
    for (const s of servers) {
      s.closeAllConnections()
      await new Promise<void>((resolve) => s.close(() => resolve()))
    }
  }
  return l
}

/** Names resolve as a system would: localhost and its subdomains to loopback; loop*.example to the address named. */
const resolver: Resolver = async (host) => {
  const h = host.toLowerCase().replace(/\.$/, '')
  if (h === 'localhost' || h.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }]
  const named: Record<string, string> = {
    'loop4.example.com': '127.0.0.1',
    'loop6.example.com': '::1',
    'mapped.example.com': '::ffff:127.0.0.1',
    'compat.example.com': '::7f00:1',
    'other127.example.com': '127.9.9.9',
    'compat-private.example.com': '::a00:1',
  }
  const address = named[h]
  if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
  return [{ address, family: address.includes(':') ? 6 : 4 }]
}

interface App {
  app: FastifyInstance
  db: Db
  key: string
  call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<LightMyRequestResponse>
  close(): Promise<void>
}

const masterKey = randomBytes(32)

/** The app on a file database (so a second one can open it with other settings). */
async function open(
  databaseUrl: string,
  settings: { webhookAllowLoopback: boolean; webhookAllowPrivateNetworks?: boolean },
): Promise<App> {
  const clock = new FakeClock()
  const config = loadConfig({
    env: {},
    flags: { dataDir: '/nonexistent-linkd-test', databaseUrl, logLevel: 'silent', jobs: false, ...settings },
  })
  const db = openDatabase(config.databaseUrl)
  await migrate(db, clock.now())
  const app = await buildApp({ config, db, clock, masterKey, resolve: resolver })
  const { orgs, keys } = app.linkd.services
  const org = (await orgs.byName('default')) ?? (await orgs.create('default'))
  const key = (await keys.createOwnerKey(org.id)).key
  return {
    app,
    db,
    key,
    call: (method, url, body) =>
      app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${key}` },
        ...(body !== undefined ? { payload: body as object } : {}),
      }),
    async close() {
      await app.close()
      await db.close()
    },
  }
}

let rx: Listener
let dir: string
beforeAll(async () => {
  rx = await startListener()
  dir = mkdtempSync(join(tmpdir(), 'linkd-webhooks-loopback-'))
})
afterAll(async () => {
  await rx.close()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * Every spelling of this machine. `http` where the URL rules allow plain HTTP (the host normalises
 * to 127.0.0.1 or is localhost), `https` otherwise. `reaches`: what the guard lets through while
 * loopback is allowed (an address literal or localhost; never 0.0.0.0 or ::).
 */
/** The receiver's URL in a spelling (PORT stands for its port). */
const at = (spelling: string) => spelling.replace('PORT', String(rx.port))

const SPELLINGS: Array<{ url: string; reaches: boolean }> = [
  { url: 'http://127.0.0.1:PORT/hook', reaches: true },
  { url: 'http://2130706433:PORT/hook', reaches: true },
  { url: 'http://0x7f.1:PORT/hook', reaches: true },
  { url: 'http://0177.0.0.1:PORT/hook', reaches: true },
  { url: 'http://127.1:PORT/hook', reaches: true },
  { url: 'http://0x7f000001:PORT/hook', reaches: true },
  { url: 'http://017700000001:PORT/hook', reaches: true },
  { url: 'http://localhost:PORT/hook', reaches: true },
  { url: 'http://LocalHost:PORT/hook', reaches: true },
  { url: 'https://localhost.:PORT/hook', reaches: true },
  { url: 'https://app.localhost:PORT/hook', reaches: true },
  { url: 'https://127.0.0.2:PORT/hook', reaches: true },
  { url: 'https://[::1]:PORT/hook', reaches: true },
  { url: 'https://[0:0:0:0:0:0:0:1]:PORT/hook', reaches: true },
  { url: 'https://[::ffff:127.0.0.1]:PORT/hook', reaches: true },
  { url: 'https://[::ffff:7f00:1]:PORT/hook', reaches: true },
  { url: 'https://[::7f00:1]:PORT/hook', reaches: true },
  { url: 'https://[::127.0.0.1]:PORT/hook', reaches: true },
  { url: 'https://0.0.0.0:PORT/hook', reaches: false },
  { url: 'https://0:PORT/hook', reaches: false },
  { url: 'https://[::]:PORT/hook', reaches: false },
]

describe('LINKD_WEBHOOK_ALLOW_LOOPBACK=false', () => {
  let a: App
  beforeAll(async () => {
    a = await open(`sqlite:${join(dir, 'off.db')}`, { webhookAllowLoopback: false })
  })
  afterAll(() => a.close())

  it.each(SPELLINGS.map((s) => [s.url]))(
    '%s is refused by validate-url, create and update',
    async (spelling) => {
      const url = at(spelling)
      const v = (await a.call('POST', '/api/webhooks/utilities/validate-url', { url })).json()
      expect(v.valid).toBe(false)
      expect(v.errors.join('; ')).toMatch(/LINKD_WEBHOOK_ALLOW_LOOPBACK=false/)

      const created = expectError(
        await a.call('POST', '/api/webhooks', { name: 'x', url, events: ['link.created'] }),
        400,
        'ValidationError',
      )
      expect(created.message).toMatch(/^url: .*LINKD_WEBHOOK_ALLOW_LOOPBACK=false/)
      expect(created.details).toContainEqual({ field: 'url', message: expect.stringMatching(/loopback/) })

      const ok = await a.call('POST', '/api/webhooks', {
        name: 'public',
        url: 'https://hooks.example.com/x',
        events: ['link.created'],
      })
      expect(ok.statusCode, ok.body).toBe(201)
      const patched = expectError(
        await a.call('PATCH', `/api/webhooks/${ok.json().id}`, { url }),
        400,
        'ValidationError',
      )
      expect(patched.message).toMatch(/LINKD_WEBHOOK_ALLOW_LOOPBACK=false/)
      expect(rx.connections).toBe(0)
    },
  )

  it('a name resolving to loopback in any spelling is refused at delivery, private networks allowed or not', async () => {
    for (const allowPrivate of [false, true]) {
      const b = await open(`sqlite:${join(dir, `names-${allowPrivate}.db`)}`, {
        webhookAllowLoopback: false,
        webhookAllowPrivateNetworks: allowPrivate,
      })
      try {
        for (const host of [
          'loop4.example.com',
          'loop6.example.com',
          'mapped.example.com',
          'compat.example.com',
          'other127.example.com',
        ]) {
          const created = await b.call('POST', '/api/webhooks', {
            name: host,
            url: `https://${host}:${rx.port}/hook`,
            events: ['link.created'],
            timeoutSeconds: 1,
          })
          expect(created.statusCode, created.body).toBe(201)
          const d = (await b.call('POST', `/api/webhooks/${created.json().id}/test`)).json()
          expect(d.status, host).toBe('failed')
          expect(d.error, host).toMatch(
            /^refused: .* resolves to (127\.\d+\.\d+\.\d+|::1), a loopback address \(SSRF guard; loopback is off: LINKD_WEBHOOK_ALLOW_LOOPBACK=false\)$/,
          )
        }
      } finally {
        await b.close()
      }
    }
    expect(rx.connections).toBe(0)
  })
})

describe('webhooks stored while loopback was allowed, then LINKD_WEBHOOK_ALLOW_LOOPBACK=false', () => {
  it.each(SPELLINGS.filter((s) => s.reaches).map((s) => [s.url]))(
    '%s: the test action is refused by the SSRF guard, the receiver gets nothing',
    async (spelling) => {
      const url = at(spelling)
      const db = `sqlite:${join(dir, `switched-${Math.random().toString(36).slice(2)}.db`)}`
      const on = await open(db, { webhookAllowLoopback: true })
      const created = await on.call('POST', '/api/webhooks', {
        name: 'local',
        url,
        events: ['link.created'],
        timeoutSeconds: 1,
      })
      expect(created.statusCode, created.body).toBe(201)
      const id = created.json().id as string
      await on.close()

      const off = await open(db, { webhookAllowLoopback: false, webhookAllowPrivateNetworks: true })
      try {
        const before = rx.connections
        const d = (await off.call('POST', `/api/webhooks/${id}/test`)).json()
        expect(d).toMatchObject({ status: 'failed', responseStatusCode: null })
        expect(d.error).toMatch(
          /resolves to (127\.\d+\.\d+\.\d+|::1), a loopback address \(SSRF guard; loopback is off: LINKD_WEBHOOK_ALLOW_LOOPBACK=false\)$/,
        )
        expect(rx.connections).toBe(before)
      } finally {
        await off.close()
      }
    },
  )
})

describe('LINKD_WEBHOOK_ALLOW_LOOPBACK=true (default)', () => {
  let a: App
  beforeAll(async () => {
    a = await open(`sqlite:${join(dir, 'on.db')}`, { webhookAllowLoopback: true })
  })
  afterAll(() => a.close())

  it('is the default', () => {
    expect(loadConfig({ env: {} }).webhookAllowLoopback).toBe(true)
    expect(loadConfig({ env: { LINKD_WEBHOOK_ALLOW_LOOPBACK: 'false' } }).webhookAllowLoopback).toBe(false)
    expect(() => loadConfig({ env: { LINKD_WEBHOOK_ALLOW_LOOPBACK: 'maybe' } })).toThrow(
      /LINKD_WEBHOOK_ALLOW_LOOPBACK/,
    )
  })

  it.each(SPELLINGS.map((s) => [s.url, s.reaches]))(
    '%s is accepted when the guard lets it reach this machine: %s',
    async (spelling, reaches) => {
      const url = at(spelling)
      const v = (await a.call('POST', '/api/webhooks/utilities/validate-url', { url })).json()
      if (!reaches) {
        // 0.0.0.0 and :: would be refused at every delivery: refused at once.
        expect(v.errors.join('; ')).toMatch(/is in the unspecified range, which linkd never connects to/)
        const refused = await a.call('POST', '/api/webhooks', { name: 'x', url, events: ['link.created'] })
        expect(expectError(refused, 400, 'ValidationError').message).toMatch(
          /^url: .*(0\.0\.0\.0|::) is in the unspecified range, which linkd never connects to/,
        )
        return
      }
      expect(v).toMatchObject({ valid: true, errors: [] })
      const created = await a.call('POST', '/api/webhooks', {
        name: 'local',
        url,
        events: ['link.created'],
        timeoutSeconds: 1,
      })
      expect(created.statusCode, created.body).toBe(201)
      const before = { connections: rx.connections, requests: rx.requests }
      const d = (await a.call('POST', `/api/webhooks/${created.json().id}/test`)).json()
      if (url.startsWith('http:')) {
        expect(d).toMatchObject({ status: 'success', responseStatusCode: 200 })
        expect(rx.requests).toBe(before.requests + 1)
      } else {
        // HTTPS to a plain HTTP receiver fails after connecting (IPv4-compatible ::7f00:1 only
        // reaches loopback where the kernel routes it); the guard did not refuse it.
        expect(d.status).toBe('failed')
        expect(d.error).not.toMatch(/SSRF/)
      }
    },
  )

  it('a name resolving to loopback stays refused: only localhost and address literals reach this machine', async () => {
    for (const host of [
      'loop4.example.com',
      'loop6.example.com',
      'mapped.example.com',
      'compat.example.com',
    ]) {
      const created = await a.call('POST', '/api/webhooks', {
        name: host,
        url: `https://${host}:${rx.port}/hook`,
        events: ['link.created'],
      })
      const before = rx.connections
      const d = (await a.call('POST', `/api/webhooks/${created.json().id}/test`)).json()
      expect(d.error, host).toMatch(/resolves to (127\.0\.0\.1|::1), a loopback address \(SSRF guard\)$/)
      expect(rx.connections).toBe(before)
    }
  })

  it('an address literal the guard refuses is a 400 at create, update and validate-url, in every spelling and format', async () => {
    const literals = [
      ['https://0x0a.0.0.1/hook', '10.0.0.1', 'private'],
      ['https://167772161/hook', '10.0.0.1', 'private'],
      ['https://012.0.0.1/hook', '10.0.0.1', 'private'],
      ['https://10.1/hook', '10.0.0.1', 'private'],
      ['https://[::ffff:10.0.0.1]/hook', '10.0.0.1', 'private'],
      ['https://[::a00:1]/hook', '10.0.0.1', 'private'],
      ['https://[::10.0.0.1]/hook', '10.0.0.1', 'private'],
      ['https://[::ffff:169.254.169.254]/hook', '169.254.169.254', 'link-local'],
      ['https://[::a9fe:a9fe]/hook', '169.254.169.254', 'link-local'],
      ['https://0xa9.0xfe.0xa9.0xfe/hook', '169.254.169.254', 'link-local'],
      ['https://[::c0a8:101]/hook', '192.168.1.1', 'private'],
      ['https://[::6440:1]/hook', '100.64.0.1', 'carrier-grade-nat'],
      ['https://[fd12::1]/hook', 'fd12::1', 'unique-local'],
    ] as const
    const ok = await a.call('POST', '/api/webhooks', {
      name: 'public',
      url: 'https://hooks.example.com/x',
      events: ['link.created'],
    })
    expect(ok.statusCode, ok.body).toBe(201)
    for (const [url, address, range] of literals) {
      const why = `${address} is in the ${range} range: set LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow`
      const v = (await a.call('POST', '/api/webhooks/utilities/validate-url', { url })).json()
      expect(v, url).toMatchObject({ valid: false, errors: [why] })
      for (const format of ['json', 'slack', 'discord']) {
        const created = await a.call('POST', '/api/webhooks', {
          name: 'lan',
          url,
          format,
          events: ['link.created'],
        })
        expect(expectError(created, 400, 'ValidationError').details).toEqual([{ field: 'url', message: why }])
      }
      const patched = await a.call('PATCH', `/api/webhooks/${ok.json().id}`, { url })
      expect(expectError(patched, 400, 'ValidationError').message).toBe(`url: ${why}`)
    }
    // Multicast and broadcast are never reached, whatever the settings.
    for (const [url, range] of [
      ['https://224.0.0.1/hook', 'multicast'],
      ['https://255.255.255.255/hook', 'broadcast'],
    ]) {
      const created = await a.call('POST', '/api/webhooks', { name: 'x', url, events: ['link.created'] })
      expect(expectError(created, 400, 'ValidationError').message, url).toMatch(
        new RegExp(`is in the ${range} range, which linkd never connects to$`),
      )
    }
    // A host name is vetted at delivery only (its addresses can change): accepted, then refused.
    const named = await a.call('POST', '/api/webhooks', {
      name: 'lan',
      url: 'https://compat-private.example.com/hook',
      events: ['link.created'],
    })
    expect(named.statusCode, named.body).toBe(201)
    const d = (await a.call('POST', `/api/webhooks/${named.json().id}/test`)).json()
    expect(d.error).toMatch(/resolves to 10\.0\.0\.1, a private address \(SSRF guard\)$/)
  })

  it('LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS=true accepts private address literals', async () => {
    const lan = await open(`sqlite:${join(dir, 'lan.db')}`, {
      webhookAllowLoopback: true,
      webhookAllowPrivateNetworks: true,
    })
    try {
      for (const url of [
        'https://10.0.0.1/hook',
        'https://[::ffff:169.254.169.254]/hook',
        'https://[fd12::1]/hook',
      ]) {
        const created = await lan.call('POST', '/api/webhooks', {
          name: 'lan',
          url,
          events: ['link.created'],
        })
        expect(created.statusCode, created.body).toBe(201)
      }
      const never = await lan.call('POST', '/api/webhooks', {
        name: 'x',
        url: 'https://0.0.0.0/hook',
        events: ['link.created'],
      })
      expect(never.statusCode).toBe(400)
    } finally {
      await lan.close()
    }
  })
})
