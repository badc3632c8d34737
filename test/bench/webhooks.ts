import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { startLinkd } from '../support/processes.js'
import { fmt, median, percentile, report } from './lib.js'

const BURST = 2000
const LATENCY_SAMPLES = 200

/** A receiver answering 200 that records when each delivery arrived and its event time. */
async function receiver() {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    async waitFor(n: number) {
      const until = Date.now() + 60_000
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
