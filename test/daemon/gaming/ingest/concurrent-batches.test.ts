/**
 * Batches that arrive together: on SQLite they share a commit (group commit), on PostgreSQL
 * concurrent transactions; on both each batch is stored whole or not at all, independently of
 * the others, answered with its own counts, and only once durable. The queue of batches being
 * stored is bounded (503 + Retry-After, nothing stored). SQLite runs on a real database file.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { IngestResult } from '../../../../src/contract/gaming.js'
import type { GroupReport } from '../../../../daemon/db/group-commit.js'
import { count, createTestApp, type TestApp } from '../../../support/app.js'
import { gameTables } from '../../../support/game-tables.js'
import { accepted, batch, createGame, event, send, type SendOpts } from '../../../support/gaming.js'
import { prng } from '../../../support/prng.js'

const NOW = Date.parse('2026-11-20T12:00:00.000Z')
const MIN = 60_000
const LIMITS = { ingestRateLimitPerGame: 1_000_000, ingestRateLimitPerClient: 1_000_000 }

const apps: TestApp[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** An app as linkd runs: on SQLite a database file (WAL, synced), on PostgreSQL its own database. */
async function app(overrides: Record<string, unknown> = {}) {
  const onFile: Record<string, unknown> = {}
  if (process.env.LINKD_TEST_ENGINE !== 'postgres') {
    const dir = mkdtempSync(join(tmpdir(), 'linkd-concurrent-batches-'))
    dirs.push(dir)
    onFile.databaseUrl = `sqlite:${join(dir, 'linkd.db')}`
  }
  const t = await createTestApp({ ...LIMITS, ...onFile, ...overrides })
  apps.push(t)
  t.clock.set(NOW)
  const game = await createGame(t)
  const groups: GroupReport[] = []
  t.app.linkd.services.gaming.storage.watchGroups((g) => groups.push(g))
  return { t, game, o: { game, orgId: t.orgId } as SendOpts, groups }
}

/** A trigger that fails the insert of one event id: a batch that breaks in the middle of its write. */
async function poison(t: TestApp, eventId: string) {
  if (t.db.dialect === 'sqlite')
    t.db.sqlite.exec(`CREATE TRIGGER poison BEFORE INSERT ON game_events WHEN NEW.event_id = '${eventId}'
      BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`)
  else {
    const { sql } = await import('kysely')
    await sql
      .raw(
        `CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN
           IF NEW.event_id = '${eventId}' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW;
         END $$ LANGUAGE plpgsql;
         CREATE TRIGGER poison BEFORE INSERT ON game_events FOR EACH ROW EXECUTE FUNCTION poison();`,
      )
      .execute(t.db.kysely)
  }
}
async function cure(t: TestApp) {
  if (t.db.dialect === 'sqlite') t.db.sqlite.exec('DROP TRIGGER poison')
  else {
    const { sql } = await import('kysely')
    await sql.raw('DROP TRIGGER poison ON game_events').execute(t.db.kysely)
  }
}

const storedOf = (t: TestApp, batchId: string) => count(t, 'game_events', 'batch_id = ?', batchId)
const recorded = (t: TestApp, batchId: string) => count(t, 'game_batches', 'batch_id = ?', batchId)

/** n events of one player, each its own. */
const events = (t: TestApp, n: number, player = `p-${randomUUID().slice(0, 8)}`) =>
  Array.from({ length: n }, () => event(t, { player_id: player, session_id: `${player}-s` }))

describe('batches sent together', () => {
  it('each is stored whole and answered with its own counts; on SQLite they share commits', async () => {
    const { t, o, groups } = await app()
    const sizes = Array.from({ length: 40 }, (_, i) => 1 + (i % 7))
    const bodies = sizes.map((n) => batch(t, events(t, n)))
    const answers = await Promise.all(bodies.map((b) => send(t, b, o)))
    for (const [i, res] of answers.entries()) {
      expect(accepted(res)).toMatchObject({ batchId: bodies[i]!.batch_id, accepted: sizes[i], rejected: 0 })
      expect(await storedOf(t, bodies[i]!.batch_id)).toBe(sizes[i])
    }
    if (t.db.dialect === 'sqlite') {
      expect(groups.reduce((n, g) => n + g.units, 0)).toBe(40)
      expect(groups.length).toBeLessThan(40)
      expect(Math.max(...groups.map((g) => g.units))).toBeGreaterThan(1)
    }
  })

  it('a batch that fails in the middle of its write leaves its neighbours stored, and nothing of its own', async () => {
    const { t, o } = await app()
    const bad = randomUUID()
    await poison(t, bad)
    const bodies = Array.from({ length: 12 }, () => batch(t, events(t, 3)))
    const broken = bodies[5]!
    ;(broken.events as Array<{ event_id: string }>)[1]!.event_id = bad
    const answers = await Promise.all(bodies.map((b) => send(t, b, o)))
    for (const [i, res] of answers.entries()) {
      if (i === 5) {
        expect(res.statusCode).toBe(500)
        expect(res.json()).toMatchObject({ error: 'InternalError', statusCode: 500 })
        expect(res.body).not.toContain('injected')
      } else expect(accepted(res).accepted).toBe(3)
      expect(await storedOf(t, bodies[i]!.batch_id)).toBe(i === 5 ? 0 : 3)
    }
    // Its batch_id was not recorded: sent again once the fault is gone, it is stored whole.
    expect(await recorded(t, broken.batch_id)).toBe(0)
    await cure(t)
    expect(accepted(await send(t, broken, o)).accepted).toBe(3)
    expect(await storedOf(t, broken.batch_id)).toBe(3)
  })

  it('the same batch_id twice at once is stored once; the second is answered as the first', async () => {
    const { t, o } = await app()
    const b = batch(t, events(t, 4))
    const [x, y] = await Promise.all([send(t, b, o), send(t, b, o)])
    expect(x.statusCode).toBe(202)
    expect(y.statusCode).toBe(202)
    expect(y.json()).toEqual(x.json())
    expect(x.json<IngestResult>().accepted).toBe(4)
    expect(await storedOf(t, b.batch_id)).toBe(4)
    expect(await recorded(t, b.batch_id)).toBe(1)
  })
})

describe('the same batch_id twice in one group (SQLite)', () => {
  it('the second unit of the group finds the first and stores nothing', async () => {
    const { t, game, groups } = await app()
    if (t.db.dialect !== 'sqlite') return
    const { gaming } = t.app.linkd.services
    const record = await gaming.games.authenticateSdk(t.orgId, game.id, game.sdkKey)
    const b = batch(t, events(t, 2))
    const body = Buffer.from(JSON.stringify(b))
    // Handed in in one turn of the event loop: one group.
    const answers = await Promise.all(
      [0, 1].map(() => gaming.ingest.ingest({ game: record!, body, ip: '127.0.0.1', userAgent: null })),
    )
    expect(groups.at(-1)).toMatchObject({ units: 2, failed: 0 })
    expect(answers[1]!.text).toBe(answers[0]!.text)
    expect(await storedOf(t, b.batch_id)).toBe(2)
  })
})

describe('the queue of batches being stored', () => {
  it('at its bound a batch passes; one event past it is refused with 503 + Retry-After, nothing stored', async () => {
    const { t, o } = await app({ ingestQueueMax: 100 })
    const { storage } = t.app.linkd.services.gaming
    // Batches being stored already (held places): 90 events.
    const held = storage.admit(90)
    try {
      const atBound = batch(t, events(t, 10))
      expect(accepted(await send(t, atBound, o)).accepted).toBe(10)

      const onePast = batch(t, events(t, 11))
      const res = await send(t, onePast, o)
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBe('1')
      expect(res.json()).toMatchObject({
        error: 'ServiceUnavailable',
        statusCode: 503,
        message: expect.stringMatching(/saturated.*send the batch again/),
      })
      expect(await storedOf(t, onePast.batch_id)).toBe(0)
      expect(await recorded(t, onePast.batch_id)).toBe(0)
      expect(storage.queue()).toEqual({ events: 90, refused: 1 })
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' })
      expect(metrics.body).toMatch(/^linkd_ingest_batches_refused_total 1$/m)
      expect(metrics.body).toMatch(/^linkd_ingest_queue_events 90$/m)

      held()
      // Sent again (the SDK keeps its batch_id), it is stored.
      expect(accepted(await send(t, onePast, o)).accepted).toBe(11)
    } finally {
      held()
    }
    expect(storage.queue().events).toBe(0)
  })

  it('a refused batch uses none of its game window: its retries are not rate limited', async () => {
    const { t, o } = await app({ ingestQueueMax: 5, ingestRateLimitPerClient: 3 })
    const held = t.app.linkd.services.gaming.storage.admit(5)
    try {
      const b = batch(t, events(t, 2))
      for (let i = 0; i < 5; i++) expect((await send(t, b, o)).statusCode).toBe(503)
    } finally {
      held()
    }
    expect(accepted(await send(t, batch(t, events(t, 2)), o)).accepted).toBe(2)
  })

  it('a batch larger than the bound still passes an empty queue', async () => {
    const { t, o } = await app({ ingestQueueMax: 5 })
    expect(accepted(await send(t, batch(t, events(t, 20)), o)).accepted).toBe(20)
  })

  it('under a burst every batch is either stored whole (202) or refused with nothing stored (503)', async () => {
    const { t, o } = await app({ ingestQueueMax: 300 })
    const bodies = Array.from({ length: 30 }, () => batch(t, events(t, 100)))
    const answers = await Promise.all(bodies.map((b) => send(t, b, o)))
    let refused = 0
    for (const [i, res] of answers.entries()) {
      const stored = await storedOf(t, bodies[i]!.batch_id)
      if (res.statusCode === 503) {
        refused++
        expect(res.headers['retry-after']).toBe('1')
        expect(stored).toBe(0)
      } else expect([res.statusCode, stored]).toEqual([202, 100])
    }
    expect(t.app.linkd.services.gaming.storage.queue()).toEqual({ events: 0, refused })
  })
})

/**
 * Batch b holds events of a few players within its own 20 minutes (80 minutes from the next
 * batch's), each player's session its own per batch: the stored tables do not depend on the
 * order the batches are stored in. Some batches are broken on purpose.
 */
function fuzzBatches(seed: number) {
  const rand = prng(seed)
  const start = NOW - 23 * 60 * MIN
  const kinds = ['valid', 'valid', 'valid', 'some-invalid', 'malformed', 'stale', 'replay', 'repeat-events']
  const out: Array<{ kind: string; body: Record<string, unknown> | string }> = []
  for (let b = 0; b < 16; b++) {
    const kind = kinds[Math.floor(rand() * kinds.length)]!
    const evs = Array.from({ length: 5 + Math.floor(rand() * 20) }, (_, i) => {
      const player = `p${Math.floor(rand() * 6)}`
      const purchase = rand() < 0.15
      return {
        event_id: randomUUID(),
        event_type: purchase ? 'purchase' : i % 3 ? 'level_start' : 'session_start',
        timestamp: new Date(start + b * 80 * MIN + Math.floor(rand() * 20 * MIN)).toISOString(),
        player_id: player,
        session_id: `${player}-s${b}`,
        platform: 'ios',
        data: purchase
          ? { amount: 1 + Math.floor(rand() * 10), currency: 'USD', country: 'DE' }
          : { level: i, country: 'DE' },
      } as Record<string, unknown>
    })
    if (kind === 'some-invalid') {
      evs[0]!.event_id = 'not-a-uuid'
      delete evs[1]!.player_id
    }
    const body = { batch_id: randomUUID(), batch_timestamp: new Date(NOW).toISOString(), events: evs }
    if (kind === 'malformed') out.push({ kind, body: JSON.stringify(body).slice(0, -7) })
    else if (kind === 'stale')
      out.push({ kind, body: { ...body, batch_timestamp: new Date(NOW - 3_600_000).toISOString() } })
    else out.push({ kind, body })
    // The same batch again (a retry), or its events again under a new batch_id.
    if (kind === 'replay') out.push({ kind, body })
    if (kind === 'repeat-events') out.push({ kind, body: { ...body, batch_id: randomUUID() } })
  }
  return out
}

describe('fuzz: concurrent valid and invalid batches', () => {
  it('store exactly what the same batches store one by one', async () => {
    for (const seed of [3, 8]) {
      const cases = fuzzBatches(seed)
      const together = await app()
      const answers = await Promise.all(cases.map((c) => send(together.t, c.body, together.o)))
      for (const [i, res] of answers.entries()) {
        const { kind } = cases[i]!
        if (kind === 'malformed' || kind === 'stale') expect(res.statusCode, kind).toBe(400)
        else expect(res.statusCode, `${kind}: ${res.body}`).toBe(202)
      }
      const alone = await app()
      for (const c of cases) await send(alone.t, c.body, alone.o)
      const [got, want] = await Promise.all([
        gameTables(together.t, together.game),
        gameTables(alone.t, alone.game),
      ])
      expect(got).toEqual(want)
      const sum = (ts: TestApp) => count(ts, 'game_events')
      expect(await sum(together.t)).toBe(await sum(alone.t))
      // Each batch's answer counts its own events: accepted + duplicates + rejected = sent.
      for (const [i, res] of answers.entries()) {
        if (res.statusCode !== 202) continue
        const r = res.json<IngestResult>()
        const body = cases[i]!.body as { events: unknown[] }
        expect(r.accepted + r.duplicates + r.rejected).toBe(body.events.length)
      }
    }
  })
})
