/**
 * A sender paused past its claim (a GC pause, SIGSTOP) while another sender re-claimed the
 * delivery and recorded its result: the late result is dropped, the delivery keeps the other
 * sender's. One app and a second sender (the real outbox store) on the same database, so that it
 * runs on both engines; test/daemon/multi/webhooks-claims.test.ts has two apps on PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createOutboxStore } from '../../../daemon/modules/webhooks/outbox-store.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'

let t: TestApp
let rx: Receiver
beforeEach(async () => {
  t = await createTestApp({ publicUrl: 'https://sho.rt' })
  rx = await startReceiver()
})
afterEach(async () => {
  await t.close()
  await rx.close()
})

describe('a late result of a sender whose claim expired', () => {
  it('is not recorded over the result of the sender that re-claimed the delivery', async () => {
    const created = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: rx.url, events: ['link.created'], timeoutSeconds: 5 },
    })
    const hookId = created.json<{ id: string }>().id
    await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/x' } })
    await t.app.linkd.services.webhooks.settle()

    // The other sender claims the delivery, then stops (its attempt outlives its claim).
    const paused = createOutboxStore(t.db.kysely, () => ({}))
    const claimedAt = t.clock.now()
    const [claimed] = await paused.claimDue(claimedAt, {
      limit: 10,
      perOrganization: 10,
      perWebhook: 10,
      graceMs: 30_000,
      probeAfter: 5,
    })
    expect(claimed).toBeDefined()

    // Past the claim (timeout + 30 s) this app's sender re-claims it and delivers it.
    t.clock.advance(35_001)
    await t.app.linkd.services.webhooks.worker.runDue()
    expect(rx.received).toHaveLength(1)

    // The paused sender wakes up with a failure: not recorded.
    const recorded = await paused.recordAttempt(claimed!.id, claimed!.claimedUntil, {
      status: 'pending',
      attempts: 1,
      statusCode: null,
      error: 'timed out after 5 s',
      durationMs: 5000,
      at: claimedAt + 5000,
      nextAttemptAt: claimedAt + 7000,
    })
    expect(recorded).toBe(false)
    const log = await t.call('GET', `/api/webhooks/${hookId}/deliveries`)
    expect(log.json<{ data: unknown[] }>().data).toMatchObject([
      { status: 'success', attempt: 1, responseStatusCode: 200, error: null, nextAttemptAt: null },
    ])
    t.clock.advance(60_000)
    await t.app.linkd.services.webhooks.worker.runDue()
    expect(rx.received).toHaveLength(1)
  })
})
