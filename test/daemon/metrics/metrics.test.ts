import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startCheckpointer } from '../../../daemon/db/checkpointer.js'
import type { SqliteDb } from '../../../daemon/db/open.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { accepted, batch, event, ingestionApp, send } from '../../support/gaming.js'
import { onPostgres } from '../../support/postgres.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'
import { expectError } from '../../support/responses.js'
import { fetchFile } from '../../support/app-links.js'
import { flush, makeLink } from '../../support/redirect.js'
import { sample, scrape } from '../../support/metrics.js'

const TOKEN = 'metrics-token-0123456789'
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8'

describe('GET /metrics', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })
  const scrape = (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    t!.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress })

  it('answers loopback clients with the Prometheus text format and linkd_ process metrics', async () => {
    t = await createTestApp()
    for (const address of ['127.0.0.1', '::1']) {
      const res = await scrape({}, address)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe(PROMETHEUS_TEXT)
      expect(res.body).toMatch(/^# TYPE linkd_process_cpu_seconds_total counter$/m)
      expect(res.body).toMatch(/^linkd_nodejs_heap_size_used_bytes \d+/m)
      expect(res.body).not.toMatch(/^process_cpu/m)
    }
  })

  it('refuses other addresses with 403 and the error body', async () => {
    t = await createTestApp()
    expectError(await scrape({}, '203.0.113.7'), 403, 'Forbidden', '/metrics')
  })

  it('behind a trusted proxy, judges the forwarded client, not the proxy on loopback', async () => {
    t = await createTestApp({ trustProxy: '127.0.0.1' })
    expectError(await scrape({ 'x-forwarded-for': '203.0.113.7' }), 403, 'Forbidden')
    expect((await scrape({ 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(200)
  })

  it('LINKD_TRUST_PROXY=true: the socket decides; a forged X-Forwarded-For never makes a client loopback', async () => {
    t = await createTestApp({ trustProxy: true })
    expectError(await scrape({ 'x-forwarded-for': '127.0.0.1' }, '203.0.113.7'), 403, 'Forbidden')
    expectError(await scrape({ 'x-forwarded-for': '::1, 127.0.0.1' }, '203.0.113.7'), 403, 'Forbidden')
    // Through a proxy on this host: the client's forged entry, then the address the proxy appended.
    expectError(await scrape({ 'x-forwarded-for': '127.0.0.1, 203.0.113.7' }), 403, 'Forbidden')
    expect((await scrape({ 'x-forwarded-for': '127.0.0.1' }, '::ffff:127.0.0.1')).statusCode).toBe(200)
    expect((await scrape()).statusCode).toBe(200)
  })

  it('with a token: required from everywhere, loopback included; the right one from anywhere', async () => {
    t = await createTestApp({ metricsToken: TOKEN })
    expectError(await scrape(), 401, 'Unauthorized')
    expectError(await scrape({ authorization: `Bearer ${TOKEN}x` }), 401, 'Unauthorized')
    expectError(await scrape({ authorization: `Basic ${TOKEN}` }), 401, 'Unauthorized')
    const wrong = await scrape({ authorization: 'Bearer nope' }, '203.0.113.7')
    expectError(wrong, 401, 'Unauthorized')
    expect(wrong.body).not.toContain(TOKEN)
    const res = await scrape({ authorization: `Bearer ${TOKEN}` }, '203.0.113.7')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe(PROMETHEUS_TEXT)
  })

  it('each app has its own registry', async () => {
    t = await createTestApp()
    const other = await createTestApp()
    try {
      expect(other.app.linkd.metrics.registry).not.toBe(t.app.linkd.metrics.registry)
      expect((await scrape()).statusCode).toBe(200)
    } finally {
      await other.close()
    }
  })
})

describe('HTTP and redirect metrics', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('counts requests by route pattern, method and status; an unmatched URL under the empty route', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    await t.call('GET', `/api/use/links/${link.id}`)
    await t.call('GET', `/api/use/links/${link.id}`)
    await t.call('GET', '/api/use/links/lnk_missing')
    await t.call('GET', '/no/such/route/anywhere')
    const text = await scrape(t)
    const labels = (route: string, status: string) => ({ route, method: 'GET', status })
    expect(sample(text, 'linkd_http_requests_total', labels('/api/use/links/:id', '200'))).toBe(2)
    expect(sample(text, 'linkd_http_requests_total', labels('/api/use/links/:id', '404'))).toBe(1)
    expect(sample(text, 'linkd_http_requests_total', labels('', '404'))).toBe(1)
    expect(
      sample(text, 'linkd_http_request_duration_seconds_count', labels('/api/use/links/:id', '200')),
    ).toBe(2)
    expect(
      sample(text, 'linkd_http_request_duration_seconds_bucket', { ...labels('', '404'), le: '+Inf' }),
    ).toBe(1)
    // Never the raw URL: ids and unknown paths would make label values unbounded.
    expect(text).not.toContain(link.id)
    expect(text).not.toContain('lnk_missing')
    expect(text).not.toContain('/no/such/route')
  })

  it('counts redirects of both paths (the fast path outside the HTTP histogram), and clicks written', async () => {
    t = await createTestApp({ shortDomain: 'sho.rt' })
    const link = await makeLink(t)
    const port = Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port)
    for (let i = 0; i < 3; i++)
      expect((await fetchFile(port, 'sho.rt', `/${link.shortCode}`)).status).toBe(302)
    let text = await scrape(t)
    expect(sample(text, 'linkd_redirects_total')).toBe(3)
    // The first visit fills the hot-link cache through the router; the fast path answers the rest.
    expect(
      sample(text, 'linkd_http_requests_total', { route: '/:shortCode', method: 'GET', status: '302' }),
    ).toBe(1)
    expect(sample(text, 'linkd_clicks_buffered')).toBe(3)
    expect(sample(text, 'linkd_clicks_recorded_total')).toBe(0)
    await flush(t)
    text = await scrape(t)
    expect(sample(text, 'linkd_clicks_recorded_total')).toBe(3)
    expect(sample(text, 'linkd_clicks_buffered')).toBe(0)
    expect(sample(text, 'linkd_clicks_dropped_total')).toBe(0)
  })
})

describe('metrics read from the modules at scrape time', () => {
  let t: TestApp
  const receivers: Receiver[] = []
  afterEach(async () => {
    await t.close()
    await Promise.all(receivers.splice(0).map((r) => r.close()))
  })

  it('ingestion: batches, events accepted, rejected by reason', async () => {
    const app = await ingestionApp()
    t = app.t
    const good = [event(t), event(t)]
    accepted(await send(t, batch(t, [...good, { event_type: 'level_start' }]), app.o))
    accepted(await send(t, batch(t, [good[0]]), app.o))
    const text = await scrape(t)
    expect(sample(text, 'linkd_ingest_batches_total')).toBe(2)
    expect(sample(text, 'linkd_ingest_events_accepted_total')).toBe(2)
    expect(sample(text, 'linkd_ingest_events_duplicate_total')).toBe(1)
    expect(sample(text, 'linkd_ingest_events_rejected_total', { reason: 'InvalidEvent' })).toBe(1)
    expect(sample(text, 'linkd_fraud_events_blocked_total')).toBe(0)
    expect(sample(text, 'linkd_fraud_events_flagged_total')).toBe(0)
  })

  it('webhooks: attempts by outcome, backlog and suspended endpoints', async () => {
    t = await createTestApp()
    const rx = await startReceiver({ kind: 'status', status: 500 })
    receivers.push(rx)
    const res = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: rx.url, events: ['link.created'], maxRetries: 0 },
    })
    expect(res.statusCode, res.body).toBe(201)
    await makeLink(t)
    const webhooks = t.app.linkd.services.webhooks
    await webhooks.settle()
    let text = await scrape(t)
    expect(sample(text, 'linkd_webhook_backlog')).toBe(1)
    await webhooks.worker.runDue()
    text = await scrape(t)
    expect(sample(text, 'linkd_webhook_attempts_total', { outcome: 'failed' })).toBe(1)
    expect(sample(text, 'linkd_webhook_attempts_total', { outcome: 'success' })).toBe(0)
    expect(sample(text, 'linkd_webhook_backlog')).toBe(0)
    expect(sample(text, 'linkd_webhooks_suspended')).toBe(0)
    await t.call('POST', `/api/webhooks/${res.json<{ id: string }>().id}/suspend`)
    expect(sample(await scrape(t), 'linkd_webhooks_suspended')).toBe(1)
  })

  it('jobs: runs, failures and the last success per job; certificates: days to expiry', async () => {
    t = await createTestApp()
    await t.app.linkd.scheduler.runNow('expire-links')
    let text = await scrape(t)
    expect(sample(text, 'linkd_job_runs_total', { job: 'expire-links' })).toBe(1)
    expect(sample(text, 'linkd_job_failures_total', { job: 'expire-links' })).toBe(0)
    expect(sample(text, 'linkd_job_runs_total', { job: 'prune-idempotency' })).toBe(0)
    expect(sample(text, 'linkd_job_last_success_timestamp_seconds', { job: 'expire-links' })).toBe(
      t.clock.now() / 1000,
    )
    expect(sample(text, 'linkd_job_last_success_timestamp_seconds', { job: 'prune-idempotency' })).toBe(
      undefined,
    )

    const domain = (await t.call('POST', '/api/domains', { body: { domain: 'go.example.com' } })).json<{
      id: string
    }>()
    await sqlRows(
      t,
      "UPDATE custom_domains SET ssl_status = 'active', cert_pem = 'x', ssl_expires_at = ? WHERE id = ?",
      t.clock.now() + 45 * 86_400_000,
      domain.id,
    )
    text = await scrape(t)
    expect(sample(text, 'linkd_certificate_expiry_days', { domain: 'go.example.com' })).toBe(45)
    // The PostgreSQL pool (SQLite has none): this app's queries opened at least one connection.
    const open = sample(text, 'linkd_db_pool_connections', { state: 'open' })
    if (onPostgres) expect(open).toBeGreaterThanOrEqual(1)
    else expect(open).toBe(undefined)
    t.clock.advance(50 * 86_400_000)
    expect(sample(await scrape(t), 'linkd_certificate_expiry_days', { domain: 'go.example.com' })).toBe(-5)
  })
})

describe.skipIf(onPostgres)('SQLite read workers', () => {
  it('linkd_db_reads: a read running on a worker, then none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkd-metrics-'))
    const t = await createTestApp({ databaseUrl: `sqlite:${join(dir, 'linkd.db')}` })
    try {
      expect(sample(await scrape(t), 'linkd_db_reads', { state: 'running' })).toBe(0)
      const count = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000)'
      const reading = (t.db as SqliteDb)
        .readPool()!
        .all({ sql: `${count} SELECT COUNT(*) AS n FROM n`, parameters: [] })
      expect(sample(await scrape(t), 'linkd_db_reads', { state: 'running' })).toBe(1)
      expect(sample(await scrape(t), 'linkd_db_reads', { state: 'queued' })).toBe(0)
      await reading
      expect(sample(await scrape(t), 'linkd_db_reads', { state: 'running' })).toBe(0)
    } finally {
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe.skipIf(onPostgres)('SQLite checkpoints', () => {
  it('the background checkpointer main.ts starts: active, and its checkpoints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkd-metrics-'))
    const t = await createTestApp({ databaseUrl: `sqlite:${join(dir, 'linkd.db')}` })
    const db = t.db as SqliteDb
    const ckpt = startCheckpointer(db.sqlite, { startBytes: 0, intervalMs: 10 })
    try {
      expect(sample(await scrape(t), 'linkd_sqlite_checkpointer_active')).toBe(0)
      t.app.linkd.metrics.watchCheckpointer(() => ckpt)
      for (let i = 0; i < 20; i++) await makeLink(t)
      const end = performance.now() + 10_000
      while (ckpt.runs === 0 && performance.now() < end) await new Promise((r) => setTimeout(r, 20))
      const text = await scrape(t)
      expect(sample(text, 'linkd_sqlite_checkpointer_active')).toBe(1)
      expect(sample(text, 'linkd_sqlite_checkpoints_total')).toBeGreaterThanOrEqual(1)
    } finally {
      await ckpt.stop()
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
