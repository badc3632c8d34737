/**
 * Fairness of the delivery worker between organizations, on real timers: one organization's
 * webhooks point at a black hole (a TCP server on loopback that accepts and never answers), and
 * another organization's deliveries must still go out at once. Then the black-hole attempts time
 * out and are retried per policy, and shutting down does not wait for them (they are resumed by
 * the next start).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../../daemon/app.js'
import { systemClock } from '../../../daemon/clock.js'
import { loadConfig } from '../../../daemon/config.js'
import { migrate } from '../../../daemon/db/migrate.js'
import { openDatabase, type Db } from '../../../daemon/db/open.js'
import { createTestApp } from '../../support/app.js'
import { startReceiver } from '../../support/receiver.js'

/** Accepts TCP connections and never answers; records the request line each one sent. */
interface BlackHole {
  url(path: string): string
  /** Request lines of the connections currently open. */
  open(): string[]
  /** How many connections have ended (an attempt timed out or was given up). */
  ended(): number
  waitForOpen(n: number, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Map<Socket, string>()
  let ended = 0
  const server: Server = createServer((socket) => {
    sockets.set(socket, '')
    socket.once('data', (chunk: Buffer) => sockets.set(socket, chunk.toString('latin1').split('\r\n')[0]!))
    socket.on('close', () => {
      sockets.delete(socket)
      ended++
    })
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const open = () => [...sockets.values()].filter((line) => line !== '')
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    open,
    ended: () => ended,
    async waitForOpen(n, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs
      while (open().length < n) {
        if (Date.now() > until) throw new Error(`black hole has ${open().length} of ${n} requests open`)
        await new Promise((r) => setTimeout(r, 10))
      }
    },
    close() {
      for (const s of sockets.keys()) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

interface Daemon {
  app: FastifyInstance
  db: Db
  call(key: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<unknown>
  close(): Promise<void>
}

/** The real app on the system clock (the worker on real timers), without the scheduled jobs. */
async function startDaemon(databaseUrl: string, masterKey: Buffer): Promise<Daemon> {
  const config = loadConfig({
    env: {},
    flags: { dataDir: '/nonexistent-linkd-test', databaseUrl, logLevel: 'silent', jobs: false },
  })
  const db = openDatabase(config.databaseUrl)
  await migrate(db, systemClock.now())
  const app = await buildApp({ config, db, clock: systemClock, masterKey })
  return {
    app,
    db,
    async call(key, method, url, body) {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${key}` },
        ...(body !== undefined ? { payload: body as object } : {}),
      })
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
      return res.statusCode === 204 ? undefined : res.json()
    },
    async close() {
      await app.close()
      await db.close()
    },
  }
}

async function orgWithKey(d: Daemon, name: string): Promise<string> {
  const { orgs, keys } = d.app.linkd.services
  const org = await orgs.create(name)
  return (await keys.createOwnerKey(org.id)).key
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => {})
  cleanup = []
})

describe('fairness between organizations', () => {
  // No timing bound (machines here are noisy): the victim's deliveries must all arrive while the
  // noisy organization's first attempts still hang (they time out after 30 s), so none waited
  // behind them. p50/p99 are printed on failure.
  it("an organization's 4 webhooks on a black hole do not delay another organization: all its deliveries arrive while the black-hole attempts still hang", async () => {
    const hole = await startBlackHole()
    const rx = await startReceiver()
    const d = await startDaemon('sqlite::memory:', randomBytes(32))
    cleanup.push(
      () => d.close(),
      () => rx.close(),
      () => hole.close(),
    )
    const noisy = await orgWithKey(d, 'noisy')
    const victim = await orgWithKey(d, 'victim')
    for (let i = 1; i <= 4; i++)
      await d.call(noisy, 'POST', '/api/webhooks', {
        name: `hole ${i}`,
        url: hole.url(`/hole-${i}`),
        events: ['link.created'],
      })
    await d.call(victim, 'POST', '/api/webhooks', { name: 'rx', url: rx.url, events: ['link.created'] })
    d.app.linkd.startBackground()

    // 20 events queued for each of the 4 black-hole webhooks.
    for (let i = 0; i < 20; i++)
      await d.call(noisy, 'POST', '/api/use/links', { destinationUrl: `https://example.com/noisy/${i}` })
    // The noisy organization's attempts are stuck in the black hole.
    await hole.waitForOpen(4)
    await sleep(200)

    // Warm-up (not measured): the receiver's connection pool, JIT of the delivery path.
    for (let i = 0; i < 10; i++)
      await d.call(victim, 'POST', '/api/use/links', { destinationUrl: `https://example.com/warm/${i}` })
    await rx.waitFor(10)
    rx.received.length = 0

    const loop = monitorEventLoopDelay({ resolution: 5 })
    loop.enable()
    const emitted = new Map<string, number>()
    const N = 200
    for (let i = 0; i < N; i++) {
      const t0 = performance.now()
      const link = (await d.call(victim, 'POST', '/api/use/links', {
        destinationUrl: `https://example.com/victim/${i}`,
      })) as { id: string }
      emitted.set(link.id, t0)
      await sleep(10)
    }
    // Until every delivery arrived, or a black-hole attempt ended (its 30 s timeout) first.
    while (rx.received.length < N && hole.ended() === 0) await sleep(20)
    const endedBeforeAll = hole.ended()
    loop.disable()
    const latencies = [...emitted].map(([id, t0]) => {
      const r = rx.received.find(
        (x) => (JSON.parse(x.raw.toString()) as { data: { id: string } }).data.id === id,
      )
      return r ? r.at - t0 : Number.POSITIVE_INFINITY
    })
    const p99 = percentile(latencies, 99)
    const arrived = latencies.filter(Number.isFinite).length
    const figures = `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; event-loop delay max ${(loop.max / 1e6).toFixed(0)} ms`
    expect(arrived, `${arrived} of ${N} delivered; ${figures}`).toBe(N)
    expect(endedBeforeAll, `black-hole attempts ended before the last delivery; ${figures}`).toBe(0)

    // The noisy organization holds a bounded share: at most 16 attempts, 8 per webhook.
    const open = hole.open()
    expect(open.length).toBeLessThanOrEqual(16)
    for (let i = 1; i <= 4; i++)
      expect(open.filter((line) => line.includes(`/hole-${i} `)).length).toBeLessThanOrEqual(8)
  })
})

describe('receivers that never answer', () => {
  it('black-hole attempts time out per the webhook and are retried per its policy', async () => {
    const hole = await startBlackHole()
    const t = await createTestApp()
    cleanup.push(
      () => t.close(),
      () => hole.close(),
    )
    const res = await t.call('POST', '/api/webhooks', {
      body: {
        name: 'hole',
        url: hole.url('/hook'),
        events: ['link.created'],
        timeoutSeconds: 1,
        retryPolicy: 'immediate',
        maxRetries: 1,
      },
    })
    const w = res.json<{ id: string }>()
    await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/' } })
    const { webhooks } = t.app.linkd.services
    const log = async () =>
      (await t.call('GET', `/api/webhooks/${w.id}/deliveries`)).json<{
        data: Array<Record<string, unknown>>
      }>().data[0]!
    await webhooks.settle()
    await webhooks.worker.runDue()
    const first = await log()
    expect(first).toMatchObject({ status: 'pending', attempt: 1, error: 'timed out after 1 s' })
    expect(first.durationMs as number).toBeGreaterThanOrEqual(900)
    t.clock.advance(1000) // the immediate policy: 1 s later
    await webhooks.worker.runDue()
    expect(await log()).toMatchObject({ status: 'failed', attempt: 2, error: 'timed out after 1 s' })
  })

  it('shutdown does not wait for them: the attempt is cut and sent again by the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkd-webhooks-hole-'))
    const hole = await startBlackHole()
    const rx = await startReceiver()
    cleanup.push(
      async () => rmSync(dir, { recursive: true, force: true }),
      () => rx.close(),
      () => hole.close(),
    )
    const databaseUrl = `sqlite:${join(dir, 'linkd.db')}`
    const masterKey = randomBytes(32)
    const first = await startDaemon(databaseUrl, masterKey)
    const key = await orgWithKey(first, 'noisy')
    const w = (await first.call(key, 'POST', '/api/webhooks', {
      name: 'hole',
      url: hole.url('/hook'),
      events: ['link.created'],
    })) as { id: string; timeoutSeconds: number }
    expect(w.timeoutSeconds).toBe(30)
    first.app.linkd.startBackground()
    await first.call(key, 'POST', '/api/use/links', { destinationUrl: 'https://example.com/' })
    await hole.waitForOpen(1)
    // The attempt would hang for its 30 s timeout: shutdown ends before it.
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise(
      (r) => (timer = setTimeout(r, w.timeoutSeconds * 1000, 'waited for the timeout')),
    )
    expect(await Promise.race([first.close().then(() => 'closed'), timedOut])).toBe('closed')
    clearTimeout(timer)

    const second = await startDaemon(databaseUrl, masterKey)
    cleanup.push(() => second.close())
    await second.call(key, 'PATCH', `/api/webhooks/${w.id}`, { url: rx.url })
    second.app.linkd.startBackground()
    const [r] = await rx.waitFor(1)
    expect(r!.headers['x-webhook-attempt']).toBe('1')
    const log = async () =>
      (
        (await second.call(key, 'GET', `/api/webhooks/${w.id}/deliveries`)) as {
          data: Array<Record<string, unknown>>
        }
      ).data
    await expect.poll(log).toEqual([expect.objectContaining({ status: 'success', attempt: 1 })])
  })
})
