/**
 * Durability as promised: an ingestion batch commits on its own (never inside another task's
 * transaction), a click flush is one transaction (rows, counters and links.clicks), and clicks
 * the database refuses are counted, logged and shown, never silent.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import type { Health } from '../../../src/contract/health.js'
import { createTestApp, type TestApp, count } from '../../support/app.js'
import { batch, createGame, event } from '../../support/gaming.js'
import { analytics, flush, makeLink, visit } from '../../support/redirect.js'

let t: TestApp | undefined
let dir: string | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

/** The app on a real database file (WAL), as the daemon runs it. */
async function onFile(overrides: Record<string, unknown> = {}, logs?: string[]): Promise<TestApp> {
  dir = mkdtempSync(join(tmpdir(), 'linkd-durability-'))
  const logger = logs
    ? {
        level: 'warn',
        stream: new Writable({
          write(chunk: Buffer, _enc, done) {
            logs.push(...chunk.toString().trim().split('\n'))
            done()
          },
        }),
      }
    : undefined
  return createTestApp(
    { databaseUrl: `sqlite:${join(dir, 'linkd.db')}`, ...overrides },
    logger ? { logger } : {},
  )
}

describe('ingestion: a batch commits on its own', () => {
  // That its 202 waits for the WAL sync: test/daemon/db/group-commit.test.ts and
  // test/e2e/ingest-durability.e2e.test.ts (the real fdatasync, seen by strace).
  it('a batch never joins a transaction another task left open on the shared connection', async () => {
    t = await onFile()
    const app = t
    const game = await createGame(app)
    const { games, ingest } = app.app.linkd.services.gaming
    const record = await games.authenticateSdk(app.orgId, game.id, game.sdkKey)
    const b = batch(app, [event(app)])
    let stored: unknown
    await expect(
      app.db.kysely.transaction().execute(async (trx) => {
        await sql`UPDATE games SET updated_at = updated_at WHERE id = ${game.id}`.execute(trx)
        // An authenticated batch is written while this transaction waits between statements (as
        // a bulk link create does): it must not become part of it.
        stored = ingest.ingest({
          game: record!,
          body: Buffer.from(JSON.stringify(b)),
          ip: '127.0.0.1',
          userAgent: null,
        })
        await new Promise((r) => setImmediate(r))
        throw new Error('this other work fails and rolls back')
      }),
    ).rejects.toThrow('rolls back')
    expect(await stored).toMatchObject({ status: 202 })
    // Committed on its own: not rolled back with the other transaction.
    expect(await count(app, 'game_events', 'batch_id = ?', b.batch_id)).toBe(1)
    expect(await count(app, 'game_batches', 'batch_id = ?', b.batch_id)).toBe(1)
  })
})

describe('clicks: one transaction per flush', () => {
  it('a failure in the middle leaves rows, counters and links.clicks unchanged; the retry writes them once', async () => {
    t = await onFile()
    const app = t
    const link = await makeLink(app)
    const clicksOf = async () =>
      (await app.call('GET', `/api/use/links/${link.id}`)).json<{ clicks: number }>()
    const state = async () => ({
      rows: await count(app, 'clicks', 'link_id = ?', link.id),
      hours: await count(app, 'link_click_hours', 'link_id = ?', link.id),
      dims: await count(app, 'link_click_dims', 'link_id = ?', link.id),
      visitors: await count(app, 'link_day_visitors', 'link_id = ?', link.id),
      linkClicks: (
        app.db.sqlite.prepare('SELECT clicks FROM links WHERE id = ?').get(link.id) as {
          clicks: number
        }
      ).clicks,
    })
    // The last statement of a flush (links.clicks) fails.
    app.db.sqlite.exec(`CREATE TRIGGER links_clicks_fail BEFORE UPDATE OF clicks ON links
      BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`)
    expect((await visit(app, link.shortCode)).statusCode).toBe(302)
    expect((await visit(app, link.shortCode, { ip: '10.0.0.9' })).statusCode).toBe(302)
    await expect(flush(app)).rejects.toThrow('injected failure')
    expect(await state()).toEqual({ rows: 0, hours: 0, dims: 0, visitors: 0, linkClicks: 0 })
    expect(app.app.linkd.services.clicks.recorder.pending).toBe(2)

    app.db.sqlite.exec('DROP TRIGGER links_clicks_fail')
    await flush(app)
    expect(await state()).toMatchObject({ rows: 2, hours: 1, visitors: 2, linkClicks: 2 })
    expect((await clicksOf()).clicks).toBe(2)
    expect((await analytics(app, link.id)).totalClicks).toBe(2)
  })
})

describe('clicks the database refuses', () => {
  const ready = async (app: TestApp) => {
    const res = await app.app.inject({ method: 'GET', url: '/health/ready' })
    return { status: res.statusCode, body: res.json<Health>() }
  }

  it('are counted, logged and shown by /health/ready; redirects and analytics still answer', async () => {
    const logs: string[] = []
    t = await onFile({}, logs)
    const app = t
    const link = await makeLink(app)
    expect((await ready(app)).body.clicks).toEqual({ buffered: 0, dropped: 0, writeError: null })

    app.db.sqlite.pragma('query_only = ON') // the database refuses every write: SQLITE_READONLY
    // More than the recorder keeps for a retry (20 flushes of 250): the oldest are dropped.
    const total = 5_300
    for (let i = 0; i < total; i++) {
      const res = await visit(app, link.shortCode, { ip: `10.1.${i >> 8}.${i & 255}` })
      if (res.statusCode !== 302) throw new Error(`redirect ${i}: ${res.statusCode} ${res.body}`)
    }
    await expect(flush(app)).rejects.toThrow(/readonly/)
    const during = await ready(app)
    expect(during.status).toBe(200)
    expect(during.body.status).toBe('degraded')
    expect(during.body.clicks).toEqual({ buffered: 5_000, dropped: 300, writeError: 'SQLITE_READONLY' })
    const warned = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => 'dropped' in l)
    expect(warned.length).toBeGreaterThan(0)
    expect(warned.every((l) => l.level === 40)).toBe(true)
    expect(warned.reduce((n, l) => n + (l.dropped as number), 0)).toBe(300)
    expect(warned.at(-1)).toMatchObject({ droppedTotal: 300, msg: expect.stringMatching(/clicks dropped/) })
    // Reads still answer (from what is stored) while the buffer cannot be written.
    expect((await analytics(app, link.id)).totalClicks).toBe(0)

    app.db.sqlite.pragma('query_only = OFF')
    await flush(app)
    expect(await count(app, 'clicks', 'link_id = ?', link.id)).toBe(5_000)
    const after = await ready(app)
    expect(after.body.status).toBe('ok')
    expect(after.body.clicks).toEqual({ buffered: 0, dropped: 300, writeError: null })
  }, 60_000)

  it('at shutdown: what cannot be written is counted and logged, and the shutdown completes', async () => {
    const logs: string[] = []
    t = await onFile({}, logs)
    const app = t
    const link = await makeLink(app)
    for (let i = 0; i < 3; i++) expect((await visit(app, link.shortCode)).statusCode).toBe(302)
    app.db.sqlite.pragma('query_only = ON')
    t = undefined
    await app.app.close()
    await app.db.close()
    const warned = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => 'dropped' in l)
    expect(warned).toEqual([expect.objectContaining({ level: 40, dropped: 3, droppedTotal: 3 })])
  })
})
