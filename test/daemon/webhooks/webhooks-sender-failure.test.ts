/**
 * The background sender sleeps until something is due (no polling): when a claim fails (the
 * database locked or down for a moment), it must try again by itself, or pending deliveries
 * would wait for the next event. A sender on the app's database whose first claim fails.
 */
import { randomBytes } from 'node:crypto'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createSecretBox } from '../../../daemon/crypto.js'
import { createWebhookStore } from '../../../daemon/modules/webhooks/store.js'
import { createWorker, type Worker } from '../../../daemon/modules/webhooks/worker.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'

let t: TestApp | undefined
let rx: Receiver | undefined
let worker: Worker | undefined
afterEach(async () => {
  await worker?.stop()
  await t?.close()
  await rx?.close()
})

describe('the background webhook sender', () => {
  it('tries again by itself after a claim failed, sending what was due', async () => {
    const masterKey = randomBytes(32)
    const app = (t = await createTestApp({ publicUrl: 'https://sho.rt' }, { masterKey }))
    const receiver = (rx = await startReceiver())
    const created = await app.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: receiver.url, events: ['link.created'] },
    })
    expect(created.statusCode, created.body).toBe(201)
    await app.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/x' } })
    await app.app.linkd.services.webhooks.settle() // in the outbox; the app's own sender is not started

    const secrets = createSecretBox(masterKey)
    const store = createWebhookStore(app.db.kysely, secrets)
    let failures = 0
    const flaky = {
      ...store,
      claimDue: (...args: Parameters<typeof store.claimDue>) => {
        if (failures++ === 0) return Promise.reject(new Error('SQLITE_BUSY: database is locked'))
        return store.claimDue(...args)
      },
    }
    worker = createWorker({
      store: flaky,
      clock: app.clock,
      secrets,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      guard: { allowPrivateNetworks: false, allowLoopback: true },
      log: pino({ level: 'silent' }),
    })
    worker.start()
    const [delivery] = await receiver.waitFor(1, 5000)
    expect(failures).toBeGreaterThanOrEqual(2)
    expect(delivery!.headers['x-webhook-attempt']).toBe('1')
  })
})
