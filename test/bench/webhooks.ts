import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { freePort, startLinkd } from '../support/processes.js'
import { cpuMs, fmt, median, percentile, report } from './lib.js'

const BURST = 2000
const LATENCY_SAMPLES = 200
/** Deliveries queued for the dead endpoint, and how long the drain is watched. */
const DEAD_QUEUED = 100_000
const DEAD_WATCH_MS = 20_000

/** A receiver answering 200 that records when each delivery arrived and its event time. */
async function receiver(listenPort = 0) {
  const arrivals: Array<{ at: number; eventAt: number }> = []
  let waiters: Array<() => void> = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const at = Date.now()
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { timestamp?: string }
        arrivals.push({ at, eventAt: body.timestamp ? Date.parse(body.timestamp) : at })
      } catch {
        arrivals.push({ at, eventAt: at })
      }
      res.writeHead(200).end('ok')
      for (const w of waiters.splice(0)) w()
    })
  })
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    async waitFor(n: number, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs
      while (arrivals.length < n) {
        if (Date.now() > until) throw new Error(`receiver got ${arrivals.length} of ${n}`)
        await new Promise<void>((r) => {
          waiters.push(r)
          setTimeout(r, 50)
        })
      }
    },
    reset() {
      arrivals.length = 0
      waiters = []
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

/**
 * Webhook deliveries to a local receiver: throughput of a burst (2,000 link.created events from
 * bulk creates) against raw undici POSTs of the same bodies to the same receiver (baseline, same
 * run, 32 in flight like the sender), and the idle-queue latency from the event (payload timestamp)
 * to the first attempt's arrival, over 200 links created one by one.
 */
export async function webhooksBench(): Promise<void> {
  const rx = await receiver()
  const body = JSON.stringify({ id: 'evt_x', event: 'link.created', data: { x: 'y'.repeat(400) } })
  const agent = new Agent({ connections: 32 })
  const t0 = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < BURST) {
        next++
        const res = await request(rx.url, { method: 'POST', body, dispatcher: agent })
        await res.body.dump()
      }
    }),
  )
  const baselinePerSec = BURST / ((performance.now() - t0) / 1000)
  await agent.close()
  rx.reset()

  const dataDir = mkdtempSync(join(tmpdir(), 'linkd-bench-webhooks-'))
  const linkd = await startLinkd(dataDir, { LINKD_LOG_LEVEL: 'warn', LINKD_RATE_LIMIT_PER_IP: '1000000000' })
  try {
    const auth = { authorization: `Bearer ${linkd.ownerKey()}`, 'content-type': 'application/json' }
    const post = async (path: string, payload: unknown) => {
      const res = await fetch(`${linkd.url}${path}`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(payload),
      })
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`)
      return res.json() as Promise<unknown>
    }
    await post('/api/webhooks', { name: 'bench', url: rx.url, events: ['link.created'] })

    // Idle queue: one event at a time.
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      await post('/api/use/links', { destinationUrl: `https://example.com/${i}` })
      await rx.waitFor(i + 1)
      await new Promise((r) => setTimeout(r, 10))
    }
    const latencies = rx.arrivals.map((a) => a.at - a.eventAt)
    rx.reset()

    const b0 = performance.now()
    for (let i = 0; i < BURST / 1000; i++)
      await post('/api/use/links/bulk', {
        links: Array.from({ length: 1000 }, (_, j) => ({ destinationUrl: `https://example.com/b${i}-${j}` })),
      })
    await rx.waitFor(BURST)
    const perSec = BURST / ((performance.now() - b0) / 1000)

    report('webhook deliveries (local receiver answering 200)', [
      ['raw undici POSTs, 32 in flight (baseline)', `${fmt(baselinePerSec, 0)} req/s`],
      [
        `linkd: ${BURST} link.created from bulk creates`,
        `${fmt(perSec, 0)} deliveries/s (${fmt(perSec / baselinePerSec, 2)}x baseline; includes the creates)`,
      ],
      [
        'event -> first attempt, idle queue',
        `p50 ${fmt(median(latencies), 0)} ms, p99 ${fmt(percentile(latencies, 99), 0)} ms, max ${fmt(Math.max(...latencies), 0)} ms (target p99 <= 100 ms)`,
      ],
    ])
  } finally {
    await linkd.stop()
    await rx.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * CPU of linkd (percent of one core) and the latencies (ms) of an unrelated GET, sampled every
 * 50 ms for `ms` milliseconds.
 */
async function watch(pid: number, get: () => Promise<unknown>, ms: number) {
  const latencies: number[] = []
  const cpu0 = cpuMs(pid)
  const t0 = performance.now()
  while (performance.now() - t0 < ms) {
    const r0 = performance.now()
    await get()
    latencies.push(performance.now() - r0)
    await new Promise((r) => setTimeout(r, 50))
  }
  return { cpuPercent: ((cpuMs(pid) - cpu0) / (performance.now() - t0)) * 100, latencies }
}

/**
 * A webhook pointing at a dead port (nothing listens: every attempt fails fast with
 * ECONNREFUSED) with 100,000 link.created deliveries queued from bulk creates: linkd's CPU and
 * the p50/p99 latency of an unrelated GET (a page of links) while the outbox drains, against the
 * same daemon idle before the links and with the same rows but the webhook disabled; then a
 * receiver listens on that port, the webhook is enabled again (it is suspended by then: the few
 * deliveries it started spent their retries on schedule), its failed deliveries are retried, and
 * every delivery must arrive.
 * BENCH_CPU_PROF=dir profiles linkd (node --cpu-prof).
 */
export async function webhooksDeadEndpointBench(): Promise<void> {
  const deadPort = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'linkd-bench-webhooks-dead-'))
  const profile = process.env.BENCH_CPU_PROF
  const linkd = await startLinkd(
    dataDir,
    { LINKD_LOG_LEVEL: 'warn', LINKD_RATE_LIMIT_PER_IP: '1000000000' },
    profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
  )
  const pid = linkd.child.pid!
  let rx: Awaited<ReturnType<typeof receiver>> | undefined
  try {
    const auth = { authorization: `Bearer ${linkd.ownerKey()}` }
    const call = async (method: string, path: string, payload?: unknown) => {
      const res = await fetch(`${linkd.url}${path}`, {
        method,
        headers: payload === undefined ? auth : { ...auth, 'content-type': 'application/json' },
        ...(payload !== undefined && { body: JSON.stringify(payload) }),
      })
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`)
      return res.json() as Promise<unknown>
    }
    const hook = (await call('POST', '/api/webhooks', {
      name: 'dead',
      url: `http://127.0.0.1:${deadPort}/hooks`,
      events: ['link.created'],
    })) as { id: string }
    const unrelated = () => call('GET', '/api/use/links?perPage=10')
    await call('POST', '/api/use/links', { destinationUrl: 'https://example.com/warm' })
    const idle = await watch(pid, unrelated, 3000)

    const c0 = performance.now()
    for (let i = 0; i < DEAD_QUEUED / 1000; i++)
      await call('POST', '/api/use/links/bulk', {
        links: Array.from({ length: 1000 }, (_, j) => ({ destinationUrl: `https://example.com/d${i}-${j}` })),
      })
    const createSeconds = (performance.now() - c0) / 1000
    const draining = await watch(pid, unrelated, DEAD_WATCH_MS)
    const log = (await call('GET', `/api/webhooks/${hook.id}/deliveries?perPage=10`)) as {
      totals: { pending: number; failed: number; success: number }
    }
    const { status } = (await call('GET', `/api/webhooks/${hook.id}`)) as { status: string }
    // The same daemon and rows with the webhook disabled: nothing is attempted.
    await call('POST', `/api/webhooks/${hook.id}/disable`)
    const disabled = await watch(pid, unrelated, 5000)

    // The endpoint comes back and the webhook is enabled again: every delivery must arrive.
    rx = await receiver(deadPort)
    const r0 = performance.now()
    await call('POST', `/api/webhooks/${hook.id}/enable`)
    // As a user would: the deliveries that failed while the endpoint was dead are retried.
    const failed = (await call('GET', `/api/webhooks/${hook.id}/deliveries?status=failed&perPage=100`)) as {
      data: { id: string }[]
    }
    for (const d of failed.data) await call('POST', `/api/webhooks/${hook.id}/deliveries/${d.id}/retry`)
    const expected = DEAD_QUEUED + 1
    let arrived = true
    try {
      await rx.waitFor(expected, 180_000)
    } catch {
      arrived = false
    }
    const recoverSeconds = (performance.now() - r0) / 1000
    const seen = (w: { cpuPercent: number; latencies: number[] }) =>
      `CPU ${fmt(w.cpuPercent, 0)} %, GET p50 ${fmt(median(w.latencies), 1)} ms, p99 ${fmt(percentile(w.latencies, 99), 1)} ms`
    report(`webhook to a dead port, ${DEAD_QUEUED} link.created queued (bulk creates)`, [
      ['idle, before the links (same daemon)', seen(idle)],
      [`creating ${DEAD_QUEUED} links (bulk, 1,000 a request)`, `${fmt(createSeconds, 1)} s`],
      [`draining, ${DEAD_WATCH_MS / 1000} s after the creates`, seen(draining)],
      ['outbox after that', `${log.totals.pending} pending, ${log.totals.failed} failed; webhook ${status}`],
      ['same rows, webhook disabled (baseline)', seen(disabled)],
      [
        'receiver listening, webhook enabled',
        arrived
          ? `all ${expected} delivered in ${fmt(recoverSeconds, 1)} s (${fmt(expected / recoverSeconds, 0)}/s)`
          : `${rx.arrivals.length} of ${expected} after ${fmt(recoverSeconds, 1)} s`,
      ],
    ])
  } finally {
    await linkd.stop()
    await rx?.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
