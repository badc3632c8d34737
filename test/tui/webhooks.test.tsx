/**
 * The Webhooks screen: health bands and the delivery log against the fake client; test events,
 * retries, disable and enable against a real linkd delivering to a receiver on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { startReceiver } from '../support/receiver.js'
import { makeWebhook } from './fake-data.js'
import { frameWhere, frameWith, press, renderTui } from './harness.js'
import { newOrg, renderOnDaemon, useDaemon } from './tui-daemon.js'

afterEach(() => cleanup())

describe('webhooks screen, rendering', () => {
  it('shows a health band per webhook and the selected one’s deliveries with status and latency', async () => {
    const app = renderTui({ initialScreen: 'webhooks' })
    const frame = await frameWith(app, '2 webhooks', 'hook wh_ok', 'billing hook')
    expect(frame).toMatch(/hook wh_ok\s+healthy/)
    expect(frame).toMatch(/billing hook\s+failing ×4/)
    await press(app, 'j')
    const deliveries = await frameWith(app, 'Deliveries of billing hook · 0 ok, 1 failed, 0 pending of 1')
    expect(deliveries).toMatch(/link\.created\s+failed\s+500\s+1234 ms/)
  })

  it('the selection stays on its webhook when a teammate’s new one is listed above it', async () => {
    const app = renderTui({ initialScreen: 'webhooks' })
    await frameWith(app, '2 webhooks', 'billing hook')
    await press(app, 'j')
    await frameWith(app, 'Deliveries of billing hook')
    app.client.state.webhooks.unshift(makeWebhook('wh_new', { name: 'new hook' }))
    app.refresh()
    const frame = await frameWith(app, '3 webhooks', 'new hook')
    expect(frame).toContain('Deliveries of billing hook')
    // A move goes on from there.
    await press(app, 'k')
    await frameWith(app, 'Deliveries of hook wh_ok')
  })
})

const daemon = useDaemon({ webhookAllowLoopback: true })

describe('webhooks screen against linkd', () => {
  it('a test event and a retry show the receiver’s answers; disable after y, enable resets the failures', async () => {
    const receiver = await startReceiver({ kind: 'status', status: 500 })
    try {
      const org = await newOrg(daemon())
      const hook = await org.api.webhooks.create({
        name: 'billing hook',
        url: receiver.url,
        events: ['link.created'],
      })
      const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'webhooks' })
      await frameWhere(app, (f) => /billing hook\s+healthy/.test(f), 'billing hook healthy')
      await press(app, 't')
      await frameWith(app, 'Test: link.created (test): failed, HTTP 500 in')
      await frameWhere(app, (f) => /billing hook\s+last failed ×1/.test(f), 'the failure in the band')
      await frameWhere(
        app,
        (f) => /link\.created \(test\)\s+failed\s+500/.test(f),
        'the test delivery in the log',
      )
      expect(receiver.received).toHaveLength(1)

      // Disabled and enabled again: its failures in a row are reset.
      await press(app, 'e')
      await frameWith(app, 'Disable billing hook?', '[y/N]')
      await press(app, 'y')
      await frameWith(app, 'billing hook disabled')
      // e acts on the status shown: wait for the list read again.
      await frameWhere(app, (f) => /billing hook\s+disabled\s+http/.test(f), 'the webhook shown disabled')
      expect((await org.api.webhooks.get(hook.id)).status).toBe('disabled')
      await press(app, 'e')
      await frameWith(app, 'billing hook enabled')
      await frameWhere(app, (f) => /billing hook\s+healthy/.test(f), 'billing hook healthy again')
      expect((await org.api.webhooks.get(hook.id)).status).toBe('active')

      // The receiver is back: the failed delivery retried.
      receiver.behave({ kind: 'status', status: 200 })
      const [failed] = (await org.api.webhooks.deliveries(hook.id)).data
      await press(app, 'l', 'r')
      await frameWith(app, 'Retry: link.created (test): success, HTTP 200 in')
      expect(app.sent('webhooks.retry')).toEqual([[hook.id, failed!.id]])
      expect(receiver.received).toHaveLength(2)
    } finally {
      await receiver.close()
    }
  })
})
