/**
 * A webhook whose endpoint is dead (a loopback port nobody listens on: every attempt fails at once
 * with ECONNREFUSED) and a backlog of deliveries, on the fake clock: the endpoint backs off as a
 * whole instead of being hammered once per delivery, the attempts it does get follow the
 * retry schedule, nothing is lost, another webhook is not held up by the backlog, and every
 * delivery goes out once a receiver listens on that port.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { freePort } from '../../support/processes.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'

let t: TestApp
const receivers: Receiver[] = []
beforeEach(async () => {
  t = await createTestApp({ publicUrl: 'https://sho.rt' })
})
afterEach(async () => {
  await t.close()
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})

const BACKLOG = 200

interface LoggedDelivery {
  id: string
  status: string
  attempt: number
  sentAt: string | null
  nextAttemptAt: string | null
}

const webhooks = () => t.app.linkd.services.webhooks
const deliver = async () => {
  await webhooks().settle()
  await webhooks().worker.runDue()
}

async function createWebhook(url: string): Promise<string> {
  const res = await t.call('POST', '/api/webhooks', { body: { name: 'rx', url, events: ['link.created'] } })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string }>().id
}

async function createLinks(n: number): Promise<void> {
  const res = await t.call('POST', '/api/use/links/bulk', {
    body: { links: Array.from({ length: n }, (_, i) => ({ destinationUrl: `https://example.com/${i}` })) },
  })
  expect(res.statusCode, res.body).toBeLessThan(300)
}

/** The whole delivery log of a webhook, through the API, and its totals. */
async function deliveryLog(id: string) {
  const rows: LoggedDelivery[] = []
  for (let page = 1; ; page++) {
    const res = await t.call('GET', `/api/webhooks/${id}/deliveries?perPage=100&page=${page}`)
    const body = res.json<{ data: LoggedDelivery[]; totals: Record<string, number> }>()
    rows.push(...body.data)
    if (body.data.length < 100) return { rows, totals: body.totals }
  }
}
const attemptsMade = async (id: string) => (await deliveryLog(id)).rows.reduce((sum, d) => sum + d.attempt, 0)

describe('a webhook whose endpoint is dead', () => {
  it('backs off as a whole: a few attempts per tick, on schedule, none lost; all delivered once the port listens', async () => {
    const port = await freePort()
    const hook = await createWebhook(`http://127.0.0.1:${port}/hooks`)
    await createLinks(BACKLOG)

    await deliver()
    const first = await attemptsMade(hook)
    // Not one attempt per due delivery: the webhook's share in flight (8), plus the slots those
    // free as they fail before the 5th failure in a row starts the backoff (at most 8 more).
    expect(first).toBeGreaterThan(0)
    expect(first).toBeLessThanOrEqual(2 * 8)

    // Five minutes, one tick a second: at most one attempt (a probe) per tick.
    let made = first
    for (let second = 0; second < 300; second++) {
      t.clock.advance(1000)
      await deliver()
      const now = await attemptsMade(hook)
      expect(now - made, `attempts in tick ${second}`).toBeLessThanOrEqual(1)
      made = now
    }
    // Without the backoff each delivery would have had its 4 attempts and failed.
    expect(made).toBeLessThan(40)
    const log = await deliveryLog(hook)
    expect(log.totals).toMatchObject({ total: BACKLOG, pending: BACKLOG, failed: 0, success: 0 })
    // The attempts made follow the retry schedule: the next one 2 s after the first (exponential).
    const tried = log.rows.filter((d) => d.attempt > 0)
    expect(tried).toHaveLength(made)
    for (const d of tried) expect(Date.parse(d.nextAttemptAt!) - Date.parse(d.sentAt!)).toBe(2000)

    // The receiver comes back on that port: within the longest pause (60 s) everything goes out.
    const rx = await startReceiver({ kind: 'status', status: 200 }, port)
    receivers.push(rx)
    t.clock.advance(60_000)
    await deliver()
    expect((await deliveryLog(hook)).totals).toMatchObject({ success: BACKLOG, pending: 0, failed: 0 })
    const events = new Set(rx.received.map((r) => (JSON.parse(r.raw.toString()) as { id: string }).id))
    expect(events.size).toBe(BACKLOG)
    // Back to full speed: the next event goes out in the tick it happens.
    await createLinks(1)
    await deliver()
    expect(rx.received).toHaveLength(BACKLOG + 1)
  })

  it('does not hold up another webhook of the organization: its deliveries go out in the same tick', async () => {
    const port = await freePort()
    const dead = await createWebhook(`http://127.0.0.1:${port}/hooks`)
    await createLinks(BACKLOG)
    await deliver()
    t.clock.advance(1000)
    await deliver()

    const rx = await startReceiver()
    receivers.push(rx)
    await createWebhook(rx.url)
    await createLinks(3)
    await deliver()
    // The dead endpoint's backlog is at the head of the queue; the live webhook is read on its own.
    expect(rx.received).toHaveLength(3)
    expect((await deliveryLog(dead)).totals.pending).toBe(BACKLOG + 3)
  })

  it('enabling the webhook again ends its backoff: the next due delivery goes at once', async () => {
    const port = await freePort()
    const hook = await createWebhook(`http://127.0.0.1:${port}/hooks`)
    await createLinks(20)
    await deliver()
    const rx = await startReceiver({ kind: 'status', status: 200 }, port)
    receivers.push(rx)
    // Still pausing: nothing is attempted although the receiver listens.
    t.clock.advance(2000)
    await deliver()
    expect(rx.received).toHaveLength(0)
    await t.call('POST', `/api/webhooks/${hook}/disable`)
    await t.call('POST', `/api/webhooks/${hook}/enable`)
    await deliver()
    expect(rx.received).toHaveLength(20)
  })
})
