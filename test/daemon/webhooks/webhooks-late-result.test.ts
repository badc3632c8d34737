/**
 * A sender paused past its claim (a GC pause, SIGSTOP) while another sender re-claimed the
 * delivery and recorded its result: the late result is dropped, the delivery keeps the other
 * sender's. One app and a second sender (the real outbox store) on the same database, so that it
 * runs on both engines; test/daemon/multi/webhooks-claims.test.ts has two apps on PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createOutboxStore } from '../../../daemon/modules/webhooks/outbox-store.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'

let t: TestApp | undefined
let rx: Receiver | undefined
afterEach(async () => {
  await t?.close()
  await rx?.close()
})

describe('a late result of a sender whose claim expired', () => {
  it('is not recorded over the result of the sender that re-claimed the delivery', async () => {
    const app = (t = await createTestApp({ publicUrl: 'https://sho.rt' }))
    const receiver = (rx = await startReceiver())
    const created = await app.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: receiver.url, events: ['link.created'], timeoutSeconds: 5 },
    })
    const hookId = created.json<{ id: string }>().id
    await app.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/x' } })
    await app.app.linkd.services.webhooks.settle()

    // The other sender claims the delivery, then stops (its attempt outlives its claim).
    const paused = createOutboxStore(app.db.kysely, () => ({}))
    const claimedAt = app.clock.now()
    const [claimed] = await paused.claimDue(claimedAt, {
      limit: 10,
      perOrganization: 10,
      perWebhook: 10,
      graceMs: 30_000,
      probeAfter: 5,
    })
    expect(claimed).toBeDefined()

    // Past the claim (timeout + 30 s) this app's sender re-claims it and delivers it.
    app.clock.advance(35_001)
    await app.app.linkd.services.webhooks.worker.runDue()
    expect(receiver.received).toHaveLength(1)

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
    const log = await app.call('GET', `/api/webhooks/${hookId}/deliveries`)
    expect(log.json<{ data: unknown[] }>().data).toMatchObject([
      { status: 'success', attempt: 1, responseStatusCode: 200, error: null, nextAttemptAt: null },
    ])
    app.clock.advance(60_000)
    await app.app.linkd.services.webhooks.worker.runDue()
    expect(receiver.received).toHaveLength(1)
  })
})
