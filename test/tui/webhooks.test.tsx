/** The Webhooks screen against the fake client: health bands, deliveries, test, retry, enable/disable. */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient } from './fake-client.js'
import { frameWhere, frameWith, press, renderTui } from './harness.js'

afterEach(() => cleanup())

describe('webhooks screen', () => {
  it('shows a health band per webhook and the selected one’s deliveries with status and latency', async () => {
    const app = renderTui({ initialScreen: 'webhooks' })
    const frame = await frameWith(app, '2 webhooks', 'hook wh_ok', 'billing hook')
    expect(frame).toMatch(/hook wh_ok\s+healthy/)
    expect(frame).toMatch(/billing hook\s+failing ×4/)
    await press(app, 'j')
    const deliveries = await frameWith(app, 'Deliveries of billing hook · 0 ok, 1 failed, 0 pending of 1')
    expect(deliveries).toMatch(/link\.created\s+failed\s+500\s+1234 ms/)
  })

  it('sends a test event, retries a failed delivery, disables after y and enables again', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'webhooks' })
    await frameWith(app, '2 webhooks')
    await press(app, 'j', 't')
    await frameWith(app, 'Test: link.created (test): success, HTTP 200 in 77 ms')
    // The test delivery heads the log once it is read again; the failed one is below it.
    await frameWhere(app, (f) => /link\.created \(test\)\s+success/.test(f), 'the test delivery in the log')
    await press(app, 'l', 'j')
    await frameWith(app, '1234 ms')
    await press(app, 'r')
    await frameWith(app, 'Retry: link.created: success, HTTP 200 in 55 ms')
    expect(client.calls).toContain('webhooks.retry wh_bad dl_1')
    await press(app, 'h', 'e')
    await frameWith(app, 'Disable billing hook?', '[y/N]')
    await press(app, 'y')
    await frameWith(app, 'billing hook disabled')
    await frameWith(app, 'disabled   ')
    await press(app, 'e')
    await frameWith(app, 'billing hook enabled')
    expect(client.state.webhooks[1]?.status).toBe('active')
  })
})

describe('webhook health after enabling, and test deliveries', () => {
  it('a test that fails right after enabling shows in the health band; test deliveries are marked', async () => {
    const client = new FakeClient()
    client.receiverDown = true
    const app = renderTui({ client, initialScreen: 'webhooks' })
    await frameWith(app, '2 webhooks', 'billing hook')
    await press(app, 'j')
    await frameWith(app, 'Deliveries of billing hook')
    // Disabled, then enabled: its failed deliveries in a row are reset.
    client.state.webhooks[1]!.status = 'disabled'
    app.refresh()
    await frameWith(app, 'disabled')
    await press(app, 'e')
    await frameWith(app, 'billing hook enabled')
    await frameWhere(app, (f) => /billing hook\s+healthy/.test(f), 'billing hook healthy')
    await press(app, 't')
    await frameWith(app, 'Test: link.created (test): failed, no answer in 77 ms (connection refused)')
    const frame = await frameWith(app, 'last failed ×1')
    expect(frame).toMatch(/billing hook\s+last failed ×1/)
    expect(frame).not.toMatch(/billing hook\s+healthy/)
    // The log marks the test delivery; the event's own deliveries are not marked.
    expect(frame).toMatch(/link\.created \(test\)\s+failed/)
    expect(frame).toMatch(/link\.created\s+failed\s+500/)
  })
})
