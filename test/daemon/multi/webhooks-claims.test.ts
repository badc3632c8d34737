/**
 * Three webhook senders on one database (PostgreSQL under `npm run test:pg`), against real HTTP
 * receivers on loopback: each delivery is sent by exactly one of them, a delivery claimed by a
 * sender that died is sent by another once the claim has expired, a sender paused past its
 * claim cannot record its late result over the one of the sender that re-claimed the delivery, and
 * a delivery written by a process that never sent it is found by a running sender's sweep.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createOutboxStore } from '../../../daemon/modules/webhooks/outbox-store.js'
import { postgresOnly } from '../../support/postgres.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'
import { createSharedApps, eventually, type SharedApps } from '../../support/shared-database.js'
import type { TestApp } from '../../support/app.js'

let shared: SharedApps
const receivers: Receiver[] = []
afterEach(async () => {
  await shared.close()
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})

const receiver = async () => {
  const r = await startReceiver()
  receivers.push(r)
  return r
}

async function createWebhook(t: TestApp, url: string, over: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call('POST', '/api/webhooks', {
    body: { name: 'rx', url, events: ['link.created'], ...over },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string }>().id
}

async function createLink(t: TestApp, key: string): Promise<void> {
  const res = await t.call('POST', '/api/use/links', {
    body: { destinationUrl: 'https://example.com/x' },
    key,
  })
  expect(res.statusCode, res.body).toBe(201)
}

const deliveryIds = (r: Receiver) => r.received.map((x) => String(x.headers['x-webhook-delivery']))

// Apps sharing a SQLite file in one Node process block each other (a busy writer waits
// synchronously); several processes on one database is the PostgreSQL deployment.
describe.runIf(postgresOnly())('webhook deliveries with three senders on one PostgreSQL database', () => {
  it('sends each delivery once when the three claim at the same time', async () => {
    shared = await createSharedApps(3, { webhookAllowLoopback: true, publicUrl: 'https://sho.rt' })
    const [a, b, c] = shared.apps as [TestApp, TestApp, TestApp]
    const first = await receiver()
    const second = await receiver()
    await createWebhook(a, first.url)
    await createWebhook(a, second.url)
    // The other processes hear of the new subscriptions (db/notify.ts) before announcing events.
    await eventually(
      () => [b, c].every((t) => t.app.linkd.services.webhooks.wants('link.created')),
      'the new subscriptions, on the other processes',
    )
    // 20 links of organization org-0, created through all three instances: 40 deliveries.
    for (let i = 0; i < 20; i++) await createLink(shared.apps[i % 3]!, a.ownerKey)
    await Promise.all(shared.apps.map((t) => t.app.linkd.services.webhooks.settle()))

    await Promise.all([a, b, c, a, b, c].map((t) => t.app.linkd.services.webhooks.worker.runDue()))

    for (const r of [first, second]) {
      expect(r.received).toHaveLength(20)
      expect(new Set(deliveryIds(r)).size).toBe(20)
      expect(deliveryIds(r).every((id) => id.endsWith('-1'))).toBe(true) // first attempts only
    }
    const list = await b.call('GET', '/api/webhooks', { key: a.ownerKey })
    for (const hook of list.json<{ data: Array<{ id: string }> }>().data) {
      const log = await c.call('GET', `/api/webhooks/${hook.id}/deliveries?limit=100`, { key: a.ownerKey })
      const rows = log.json<{ data: Array<{ status: string; attempt: number }> }>().data
      expect(rows).toHaveLength(20)
      expect(rows.every((d) => d.status === 'success' && d.attempt === 1)).toBe(true)
    }
  })

  it('a delivery claimed by a sender that died is sent by another once the claim expires', async () => {
    shared = await createSharedApps(2, { webhookAllowLoopback: true, publicUrl: 'https://sho.rt' })
    const [a, b] = shared.apps as [TestApp, TestApp]
    const rx = await receiver()
    const hookId = await createWebhook(a, rx.url, { timeoutSeconds: 5 })
    await createLink(a, a.ownerKey)
    await a.app.linkd.services.webhooks.settle()

    // The first process claims the delivery and dies before sending it (nothing releases it).
    const dying = createOutboxStore(a.db.kysely, () => ({}))
    const claimed = await dying.claimDue(a.clock.now(), {
      limit: 10,
      perOrganization: 10,
      perWebhook: 10,
      graceMs: 30_000,
      probeAfter: 5,
    })
    expect(claimed).toHaveLength(1)

    // While the claim holds (the webhook's timeout + 30 s), the other sender leaves it alone.
    b.clock.advance(34_000)
    await b.app.linkd.services.webhooks.worker.runDue()
    expect(rx.received).toHaveLength(0)

    // Past it, the other sender sends it: at least once, nothing lost.
    b.clock.advance(2_000)
    await b.app.linkd.services.webhooks.worker.runDue()
    expect(deliveryIds(rx)).toEqual([`${claimed[0]!.id}-1`])
    const log = await b.call('GET', `/api/webhooks/${hookId}/deliveries`, { key: a.ownerKey })
    expect(log.json<{ data: Array<{ status: string }> }>().data.map((d) => d.status)).toEqual(['success'])
  })

  it('a sender paused past its claim does not record its late failure over the success of another', async () => {
    shared = await createSharedApps(2, { webhookAllowLoopback: true, publicUrl: 'https://sho.rt' })
    const [a, b] = shared.apps as [TestApp, TestApp]
    const rx = await receiver()
    rx.behave({ kind: 'slow', ms: 10_000 })
    const hookId = await createWebhook(a, rx.url, { timeoutSeconds: 3 })
    await createLink(a, a.ownerKey)
    await a.app.linkd.services.webhooks.settle()

    // A claims the delivery and sends it; the receiver holds the answer past A's timeout (3 s).
    const late = a.app.linkd.services.webhooks.worker.runDue()
    await rx.waitFor(1)
    // Meanwhile A's claim expires (timeout + 30 s on B's clock): B re-claims it and succeeds.
    rx.behave({ kind: 'status', status: 200 })
    b.clock.advance(33_001)
    await b.app.linkd.services.webhooks.worker.runDue()
    expect(rx.received).toHaveLength(2)
    // Then A's attempt times out: its failure is not recorded over B's success.
    await late
    const log = await a.call('GET', `/api/webhooks/${hookId}/deliveries`, { key: a.ownerKey })
    expect(log.json<{ data: Array<Record<string, unknown>> }>().data).toMatchObject([
      { status: 'success', attempt: 1, responseStatusCode: 200, error: null, nextAttemptAt: null },
    ])
    const hook = await a.call('GET', `/api/webhooks/${hookId}`, { key: a.ownerKey })
    expect(hook.json()).toMatchObject({ status: 'active', consecutiveFailures: 0 })
  })

  it('a delivery another process wrote and never sent is found by a running sender (its sweep)', async () => {
    // The running sender's timer covers what it knows of; a row written elsewhere after its last
    // look (the writer died before sending) is found by the sweep.
    shared = await createSharedApps(
      2,
      { webhookAllowLoopback: true, publicUrl: 'https://sho.rt' },
      { webhookSweepMs: 100 },
    )
    const [writer, sender] = shared.apps as [TestApp, TestApp]
    const rx = await receiver()
    await createWebhook(writer, rx.url)
    sender.app.linkd.services.webhooks.worker.start()
    await new Promise((r) => setTimeout(r, 300)) // its first look finds nothing due
    expect(rx.received).toHaveLength(0)
    await createLink(writer, writer.ownerKey)
    await writer.app.linkd.services.webhooks.settle() // written; the writer never sends it
    const [delivery] = await rx.waitFor(1, 5000)
    expect(delivery!.headers['x-webhook-attempt']).toBe('1')
  })
})
