/**
 * The delivery engine against real HTTP receivers on loopback: headers and signature (checked
 * independently with node:crypto over the raw bytes received), retry schedules on the fake clock,
 * failures (500, redirect, timeout, closed socket), suspension, manual retry, the test action,
 * secret rotation, restart with pending deliveries, and the SSRF guard.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../../daemon/app.js'
import { loadConfig } from '../../../daemon/config.js'
import { openDatabase } from '../../../daemon/db/open.js'
import { migrate } from '../../../daemon/db/migrate.js'
import type { Resolver } from '../../../daemon/modules/webhooks/ssrf.js'
import { healthBand } from '../../../daemon/modules/webhooks/service.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { FakeClock } from '../../support/clock.js'
import { freePort } from '../../support/ports.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'
import { expectError } from '../../support/responses.js'

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

interface Created {
  id: string
  secret: string
}
const createWebhook = async (over: Record<string, unknown> = {}): Promise<Created> => {
  const res = await t.call('POST', '/api/webhooks', {
    body: { name: 'rx', url: rx.url, events: ['link.created'], ...over },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<Created>()
}
const createLink = async (key?: string) => {
  const res = await t.call('POST', '/api/use/links', {
    body: { destinationUrl: 'https://example.com/x' },
    ...(key ? { key } : {}),
  })
  expect(res.statusCode).toBe(201)
  return res.json<{ id: string; shortCode: string }>()
}
const webhooks = () => t.app.linkd.services.webhooks
/** Everything announced is in the outbox, then everything due now is sent. */
const deliver = async () => {
  await webhooks().settle()
  await webhooks().worker.runDue()
}
const deliveries = async (id: string, query = '') =>
  (await t.call('GET', `/api/webhooks/${id}/deliveries${query}`)).json<{
    data: Array<Record<string, unknown> & { id: string; status: string; attempt: number }>
    total: number
    totals: Record<string, number>
  }>()
const hmac = (secret: string, ts: string, raw: Buffer) =>
  'sha256=' +
  createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${ts}.`), raw]))
    .digest('hex')

describe('delivery request (headers, payload, signature)', () => {
  it('link.created reaches the receiver signed, with the documented headers and payload', async () => {
    const w = await createWebhook({ headers: { Authorization: 'Bearer rx-token', 'X-Team': 'growth' } })
    const link = await createLink()
    await deliver()
    expect(rx.received).toHaveLength(1)
    const r = rx.received[0]!
    expect(r.method).toBe('POST')
    expect(r.url).toBe('/hooks')
    const h = r.headers
    expect(h['content-type']).toBe('application/json')
    expect(h['user-agent']).toBe('linkd-Webhook/2.0')
    expect(h['x-webhook-event']).toBe('link.created')
    expect(h['x-webhook-attempt']).toBe('1')
    expect(h['x-webhook-timestamp']).toBe(String(t.clock.now()))
    expect(h.authorization).toBe('Bearer rx-token')
    expect(h['x-team']).toBe('growth')
    // independent verification over the raw bytes received
    expect(h['x-webhook-signature']).toBe(hmac(w.secret, String(h['x-webhook-timestamp']), r.raw))
    const payload = JSON.parse(r.raw.toString('utf8'))
    expect(Object.keys(payload).sort()).toEqual([
      'data',
      'event',
      'id',
      'organization',
      'organizationId',
      'timestamp',
    ])
    expect(payload).toMatchObject({
      event: 'link.created',
      timestamp: '2026-11-21T10:00:00.000Z',
      organizationId: t.orgId,
      organization: { id: t.orgId, name: 'default' },
      data: { id: link.id, shortCode: link.shortCode, destinationUrl: 'https://example.com/x' },
    })
    expect(payload.id).toMatch(/^evt_[a-z0-9]+$/)

    const log = await deliveries(w.id)
    expect(log.totals).toEqual({ total: 1, success: 1, failed: 0, pending: 0 })
    expect(log.data[0]).toMatchObject({
      eventId: payload.id,
      event: 'link.created',
      status: 'success',
      attempt: 1,
      responseStatusCode: 200,
      error: null,
      test: false,
      sentAt: '2026-11-21T10:00:00.000Z',
      payload,
    })
    expect(h['x-webhook-delivery']).toBe(`${log.data[0]!.id}-1`)
    expect(typeof log.data[0]!.durationMs).toBe('number')
  })

  it('only subscribed events of the own organization reach active webhooks', async () => {
    await createWebhook({ events: ['link.deleted'] })
    const disabled = await createWebhook({ events: ['link.created'] })
    await t.call('POST', `/api/webhooks/${disabled.id}/disable`)
    const other = await t.createOrg('other')
    await createLink()
    await createLink(other.ownerKey)
    await deliver()
    expect(rx.received).toHaveLength(0)
    expect((await deliveries(disabled.id)).total).toBe(0)

    const link = await createLink()
    expect((await t.call('DELETE', `/api/use/links/${link.id}`)).statusCode).toBe(204)
    await deliver()
    expect(rx.received.map((r) => r.headers['x-webhook-event'])).toEqual(['link.deleted'])
  })

  it('every event type an organization emits flows through, API key events included', async () => {
    const w = await createWebhook({ template: 'all-events', events: undefined })
    await t.createKey({ name: 'ci' })
    await createLink()
    await deliver()
    expect(rx.received.map((r) => r.headers['x-webhook-event']).sort()).toEqual([
      'api_key.created',
      'link.created',
    ])
    expect((await deliveries(w.id)).totals.success).toBe(2)
  })

  it('after rotate-secret the next delivery is signed with the new secret only', async () => {
    const w = await createWebhook()
    const rotated = (await t.call('POST', `/api/webhooks/${w.id}/rotate-secret`)).json<Created>()
    await createLink()
    await deliver()
    const r = rx.received[0]!
    const ts = String(r.headers['x-webhook-timestamp'])
    expect(r.headers['x-webhook-signature']).toBe(hmac(rotated.secret, ts, r.raw))
    expect(r.headers['x-webhook-signature']).not.toBe(hmac(w.secret, ts, r.raw))
  })
})

describe('failures and retries (policies, suspension, manual retry)', () => {
  it('exponential: retries after 2, 4, 8 s, then failed; X-Webhook-Attempt counts; delivery ids differ', async () => {
    rx.behave({ kind: 'status', status: 500 })
    const w = await createWebhook()
    await createLink()
    await deliver()
    expect(rx.received).toHaveLength(1)
    for (const [wait, total] of [
      [2000, 2],
      [4000, 3],
      [8000, 4],
    ] as const) {
      t.clock.advance(wait - 1)
      await deliver()
      expect(rx.received, `not before ${wait} ms`).toHaveLength(total - 1)
      t.clock.advance(1)
      await deliver()
      expect(rx.received).toHaveLength(total)
    }
    t.clock.advance(60_000)
    await deliver()
    expect(rx.received).toHaveLength(4)
    expect(rx.received.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3', '4'])
    expect(new Set(rx.received.map((r) => r.headers['x-webhook-delivery'])).size).toBe(4)
    expect(new Set(rx.received.map((r) => JSON.parse(r.raw.toString()).id)).size).toBe(1)
    const d = (await deliveries(w.id)).data[0]!
    expect(d).toMatchObject({
      status: 'failed',
      attempt: 4,
      maxAttempts: 4,
      responseStatusCode: 500,
      error: 'HTTP 500',
    })
    expect((await t.call('GET', `/api/webhooks/${w.id}`)).json().consecutiveFailures).toBe(1)
  })

  it('linear retries every 5 s, immediate every 1 s, none never', async () => {
    rx.behave({ kind: 'status', status: 503 })
    const linear = await createWebhook({ retryPolicy: 'linear', maxRetries: 2 })
    await createLink()
    await deliver()
    const log = async () => (await deliveries(linear.id)).data[0]!
    expect(await log()).toMatchObject({
      status: 'pending',
      attempt: 1,
      nextAttemptAt: '2026-11-21T10:00:05.000Z',
    })
    t.clock.advance(5000)
    await deliver()
    expect(await log()).toMatchObject({
      status: 'pending',
      attempt: 2,
      nextAttemptAt: '2026-11-21T10:00:10.000Z',
    })
    t.clock.advance(5000)
    await deliver()
    expect(await log()).toMatchObject({ status: 'failed', attempt: 3, nextAttemptAt: null })
    await t.call('DELETE', `/api/webhooks/${linear.id}`)

    const immediate = await createWebhook({ retryPolicy: 'immediate', maxRetries: 1 })
    await createLink()
    await deliver()
    expect((await deliveries(immediate.id)).data[0]).toMatchObject({
      status: 'pending',
      nextAttemptAt: new Date(t.clock.now() + 1000).toISOString(),
    })
    t.clock.advance(1000)
    await deliver()
    expect((await deliveries(immediate.id)).data[0]).toMatchObject({ status: 'failed', attempt: 2 })
    await t.call('DELETE', `/api/webhooks/${immediate.id}`)

    const none = await createWebhook({ retryPolicy: 'none', maxRetries: 5 })
    await createLink()
    await deliver()
    expect((await deliveries(none.id)).data[0]).toMatchObject({
      status: 'failed',
      attempt: 1,
      maxAttempts: 1,
    })
  })

  it('a 301 is a failure and is not followed', async () => {
    rx.behave({ kind: 'status', status: 301, headers: { location: 'http://127.0.0.1:1/elsewhere' } })
    const w = await createWebhook({ maxRetries: 0 })
    await createLink()
    await deliver()
    expect(rx.received).toHaveLength(1)
    expect((await deliveries(w.id)).data[0]).toMatchObject({
      status: 'failed',
      responseStatusCode: 301,
      error: 'HTTP 301 (redirects are not followed)',
    })
  })

  it('an answer slower than the timeout fails', async () => {
    rx.behave({ kind: 'slow', ms: 5000 })
    const w = await createWebhook({ maxRetries: 0, timeoutSeconds: 1 })
    await createLink()
    await deliver()
    const d = (await deliveries(w.id)).data[0]!
    expect(d).toMatchObject({ status: 'failed', responseStatusCode: null, error: 'timed out after 1 s' })
    expect(d.durationMs as number).toBeGreaterThanOrEqual(900)
  })

  it('a receiver closing the socket fails the attempt', async () => {
    rx.behave({ kind: 'close' })
    const w = await createWebhook({ maxRetries: 0 })
    await createLink()
    await deliver()
    const d = (await deliveries(w.id)).data[0]!
    expect(d.status).toBe('failed')
    expect(d.error).toMatch(/^connection failed/)
  })

  it('a receiver nobody listens on: the address and the reason in words, as exports say it', async () => {
    const port = await freePort()
    const w = await createWebhook({ maxRetries: 0, url: `http://127.0.0.1:${port}/hook` })
    await createLink()
    await deliver()
    const d = (await deliveries(w.id)).data[0]!
    expect(d).toMatchObject({
      status: 'failed',
      responseStatusCode: null,
      error: `127.0.0.1:${port} unreachable (connection refused)`,
    })
  })

  it('5 consecutive failed deliveries suspend the webhook; it then gets nothing; enable resets', async () => {
    rx.behave({ kind: 'status', status: 500 })
    const w = await createWebhook({ maxRetries: 0 })
    const get = async () => (await t.call('GET', `/api/webhooks/${w.id}`)).json()
    for (let i = 1; i <= 4; i++) {
      await createLink()
      await deliver()
      expect(await get()).toMatchObject({ status: 'active', consecutiveFailures: i })
    }
    // a success in between resets the count
    rx.behave({ kind: 'status', status: 204 })
    await createLink()
    await deliver()
    expect((await get()).consecutiveFailures).toBe(0)
    rx.behave({ kind: 'status', status: 500 })
    for (let i = 1; i <= 5; i++) {
      await createLink()
      await deliver()
    }
    expect(await get()).toMatchObject({ status: 'suspended', consecutiveFailures: 5 })
    const sent = rx.received.length
    await createLink()
    await deliver()
    expect(rx.received).toHaveLength(sent)
    expect((await deliveries(w.id)).total).toBe(10)

    const enabled = (await t.call('POST', `/api/webhooks/${w.id}/enable`)).json()
    expect(enabled).toMatchObject({ status: 'active', consecutiveFailures: 0 })
    rx.behave({ kind: 'status', status: 200 })
    await createLink()
    await deliver()
    expect(rx.received).toHaveLength(sent + 1)
  })

  it('pending retries of a suspended or disabled webhook wait; enabling resumes them', async () => {
    rx.behave({ kind: 'status', status: 500 })
    const w = await createWebhook({ retryPolicy: 'linear' })
    await createLink()
    await deliver()
    await t.call('POST', `/api/webhooks/${w.id}/suspend`)
    rx.behave({ kind: 'status', status: 200 })
    t.clock.advance(60_000)
    await deliver()
    expect(rx.received).toHaveLength(1)
    await t.call('POST', `/api/webhooks/${w.id}/enable`)
    await deliver()
    expect(rx.received).toHaveLength(2)
    expect((await deliveries(w.id)).data[0]).toMatchObject({ status: 'success', attempt: 2 })
  })

  it('manual retry of a failed delivery makes one new attempt at once', async () => {
    rx.behave({ kind: 'status', status: 500 })
    const w = await createWebhook({ maxRetries: 0 })
    await createLink()
    await deliver()
    const failed = (await deliveries(w.id)).data[0]!
    expect(failed.status).toBe('failed')
    rx.behave({ kind: 'status', status: 200 })
    const res = await t.call('POST', `/api/webhooks/${w.id}/deliveries/${failed.id}/retry`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      id: failed.id,
      status: 'success',
      attempt: 2,
      responseStatusCode: 200,
    })
    expect(rx.received.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2'])
    expectError(
      await t.call('POST', `/api/webhooks/${w.id}/deliveries/${failed.id}/retry`),
      422,
      'Unprocessable',
    )
    expectError(await t.call('POST', `/api/webhooks/${w.id}/deliveries/dlv_nope/retry`), 404, 'NotFound')
  })

  it('test sends a sample event now, whatever the status, without counting toward suspension', async () => {
    const w = await createWebhook()
    await t.call('POST', `/api/webhooks/${w.id}/disable`)
    const res = await t.call('POST', `/api/webhooks/${w.id}/test`, { body: { event: 'link.clicked' } })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ event: 'link.clicked', status: 'success', test: true, attempt: 1 })
    const r = rx.received[0]!
    expect(r.headers['x-webhook-event']).toBe('link.clicked')
    expect(r.headers['x-webhook-signature']).toBe(
      hmac(w.secret, String(r.headers['x-webhook-timestamp']), r.raw),
    )
    expect(JSON.parse(r.raw.toString()).data).toMatchObject({
      linkId: 'lnk_sample',
      countryCode: 'DE',
      test: true,
    })

    rx.behave({ kind: 'status', status: 500 })
    const noBody = await t.call('POST', `/api/webhooks/${w.id}/test`)
    expect(noBody.json()).toMatchObject({ event: 'link.created', status: 'failed', responseStatusCode: 500 })
    expect((await t.call('GET', `/api/webhooks/${w.id}`)).json().consecutiveFailures).toBe(0)
    expectError(
      await t.call('POST', `/api/webhooks/${w.id}/test`, { body: { event: 'nope' } }),
      400,
      'ValidationError',
    )
  })
})

describe('delivery log and health', () => {
  it('after enabling, a failed test shows as the latest attempt failing; a test that gets through clears it', async () => {
    const w = await createWebhook({ maxRetries: 0 })
    rx.behave({ kind: 'status', status: 500 })
    await createLink()
    await deliver()
    const get = async () => (await t.call('GET', `/api/webhooks/${w.id}`)).json<Record<string, unknown>>()
    expect(await get()).toMatchObject({ consecutiveFailures: 1, failedAttempts: 1 })
    await t.call('POST', `/api/webhooks/${w.id}/disable`)
    await t.call('POST', `/api/webhooks/${w.id}/enable`)
    expect(await get()).toMatchObject({ status: 'active', consecutiveFailures: 0, failedAttempts: 0 })

    // The receiver is down: the test fails, and the webhook says so (without counting toward suspension).
    rx.behave({ kind: 'close' })
    const failed = await t.call('POST', `/api/webhooks/${w.id}/test`)
    expect(failed.json()).toMatchObject({ status: 'failed', test: true, responseStatusCode: null })
    expect(await get()).toMatchObject({ status: 'active', consecutiveFailures: 0, failedAttempts: 1 })
    const listed = (await t.call('GET', '/api/webhooks')).json<{ data: Record<string, unknown>[] }>()
    expect(listed.data.find((x) => x.id === w.id)).toMatchObject({ failedAttempts: 1 })

    rx.behave({ kind: 'status', status: 200 })
    expect((await t.call('POST', `/api/webhooks/${w.id}/test`)).json()).toMatchObject({ status: 'success' })
    expect(await get()).toMatchObject({ consecutiveFailures: 0, failedAttempts: 0 })
  })

  it('lists with totals and filters; analytics gives score, band, rate, average and breakdown', async () => {
    const w = await createWebhook({ events: ['link.created', 'link.deleted'], maxRetries: 0 })
    const links = [await createLink(), await createLink(), await createLink()]
    await deliver()
    rx.behave({ kind: 'status', status: 500 })
    await t.call('DELETE', `/api/use/links/${links[0]!.id}`)
    await deliver()
    const log = await deliveries(w.id, '?limit=10')
    expect(log).toMatchObject({ total: 4, totals: { total: 4, success: 3, failed: 1, pending: 0 } })
    expect((await deliveries(w.id, '?status=failed')).total).toBe(1)
    expect((await deliveries(w.id, '?event=link.created')).total).toBe(3)
    expectError(await t.call('GET', `/api/webhooks/${w.id}/deliveries?status=odd`), 400, 'ValidationError')

    const a = (await t.call('GET', `/api/webhooks/${w.id}/analytics`)).json()
    expect(a).toMatchObject({
      webhookId: w.id,
      healthScore: 75,
      band: 'Good',
      totalDeliveries: 4,
      success: 3,
      failed: 1,
      pending: 0,
      successRate: 75,
      consecutiveFailures: 1,
      events: [
        { event: 'link.created', count: 3, percent: 75 },
        { event: 'link.deleted', count: 1, percent: 25 },
      ],
    })
    expect(typeof a.averageResponseMs).toBe('number')
    const fresh = await createWebhook()
    expect((await t.call('GET', `/api/webhooks/${fresh.id}/analytics`)).json()).toMatchObject({
      healthScore: null,
      band: null,
      totalDeliveries: 0,
      successRate: null,
      averageResponseMs: null,
      events: [],
    })
  })

  it('health bands: Excellent >= 80, Good >= 60, Fair >= 40, Poor below', () => {
    expect([100, 80, 79, 60, 59, 40, 39, 0].map(healthBand)).toEqual([
      'Excellent',
      'Excellent',
      'Good',
      'Good',
      'Fair',
      'Fair',
      'Poor',
      'Poor',
    ])
  })

  it('the prune job drops finished deliveries older than 30 days and keeps pending ones', async () => {
    const w = await createWebhook({ retryPolicy: 'linear' })
    await createLink()
    await deliver()
    rx.behave({ kind: 'status', status: 500 })
    await createLink()
    await deliver()
    t.clock.advance(31 * 86_400_000)
    expect(await t.app.linkd.scheduler.runNow('prune-webhook-deliveries')).toEqual({
      ran: true,
      status: 'ok',
      summary: '1 webhook delivery pruned',
    })
    expect((await deliveries(w.id)).data.map((d) => d.status)).toEqual(['pending'])
  })
})

describe('SSRF guard', () => {
  const resolver =
    (map: Record<string, string>): Resolver =>
    async (host) => {
      const address = map[host]
      if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
      return [{ address, family: address.includes(':') ? 6 : 4 }]
    }

  it('refuses hosts resolving to private, link-local, CGNAT, ULA or loopback addresses', async () => {
    await t.close()
    t = await createTestApp(
      {},
      {
        resolve: resolver({
          'private.example.com': '10.0.0.5',
          'meta.example.com': '169.254.169.254',
          'cgnat.example.com': '100.64.1.1',
          'ula.example.com': 'fd00::1',
          'loop.example.com': '127.0.0.1',
          'mapped.example.com': '::ffff:192.168.1.1',
          localhost: '10.1.2.3',
        }),
      },
    )
    for (const host of [
      'private.example.com',
      'meta.example.com',
      'cgnat.example.com',
      'ula.example.com',
      'loop.example.com',
      'mapped.example.com',
      'localhost',
    ]) {
      const w = await createWebhook({ url: `https://${host}/hook`, maxRetries: 0 })
      const d = (await t.call('POST', `/api/webhooks/${w.id}/test`)).json()
      expect(d.status, host).toBe('failed')
      expect(d.error, host).toMatch(/SSRF guard/)
    }
    // An address literal needs no DNS: refused when the webhook is created.
    const literal = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: 'https://192.168.0.10/hook', events: ['link.created'] },
    })
    expect(expectError(literal, 400, 'ValidationError').message).toMatch(
      /192\.168\.0\.10 is in the private range/,
    )
  })

  it('LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS lets LAN addresses through', async () => {
    await t.close()
    t = await createTestApp({ webhookAllowPrivateNetworks: true }, { resolve: resolver({}) })
    const w = await createWebhook({ url: 'https://10.255.255.1:9/hook', timeoutSeconds: 1 })
    const d = (await t.call('POST', `/api/webhooks/${w.id}/test`)).json()
    expect(d.status).toBe('failed')
    expect(d.error).not.toMatch(/SSRF/)
  })
})

describe('restart', () => {
  it('deliveries pending when the daemon stops are sent by the next one on the same database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkd-webhooks-restart-'))
    const masterKey = randomBytes(32)
    const clock = new FakeClock()
    const config = loadConfig({
      env: {},
      flags: { dataDir: dir, databaseUrl: `sqlite:${join(dir, 'linkd.db')}`, logLevel: 'silent' },
    })
    const open = async () => {
      const db = openDatabase(config.databaseUrl)
      await migrate(db, clock.now())
      return { db, app: await buildApp({ config, db, clock, masterKey }) }
    }
    try {
      const first = await open()
      const org = await first.app.linkd.services.orgs.create('default')
      const key = (await first.app.linkd.services.keys.createOwnerKey(org.id)).key
      const headers = { authorization: `Bearer ${key}` }
      const created = await first.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers,
        payload: { name: 'rx', url: rx.url, events: ['link.created'] },
      })
      const w = created.json<Created>()
      await first.app.inject({
        method: 'POST',
        url: '/api/use/links',
        headers,
        payload: { destinationUrl: 'https://e.com/' },
      })
      await first.app.close() // the outbox row is written on close; nothing was sent (no sender running)
      await first.db.close()
      expect(rx.received).toHaveLength(0)

      const second = await open()
      second.app.linkd.startBackground()
      const [r] = await rx.waitFor(1)
      expect(JSON.parse(r!.raw.toString()).event).toBe('link.created')
      expect(r!.headers['x-webhook-signature']).toBe(
        hmac(w.secret, String(r!.headers['x-webhook-timestamp']), r!.raw),
      )
      await second.app.close()
      await second.db.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
