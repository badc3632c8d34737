/**
 * `linkd migrate-data` on the built binary with a real PostgreSQL: an installation built through
 * the API of a linkd on SQLite (links and their clicks, keys, a webhook with its secret, a custom
 * domain, a game with events, fraud rules and counters, a SKAN campaign) moves to PostgreSQL; a
 * linkd on the copy with the same master key accepts the old keys, signs webhook deliveries with
 * the old secret and lists the same things; every table holds the same rows; a second run is
 * refused; and the copy moves back to SQLite, where the game's old signing secret still verifies.
 */
import { randomUUID } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../daemon/db/open.js'
import { appliedVersions, COPIED_TABLES, readBatches } from '../../daemon/db/transfer.js'
import { verifySignature } from '../../src/contract/webhook-signature.js'
import { LINKD, runBin, startLinkd, type RunningLinkd } from '../support/processes.js'
import { postgresForFile, postgresMissing, type PostgresForFile } from '../support/postgres-file.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { ingestionHeaders } from '../support/gaming.js'
import { plural } from '../../src/contract/numbers.js'

const PASSWORD = 'pw-never-printed-3Z'
let server: PostgresForFile | undefined
let receiver: Receiver | undefined
let work = ''
let dataDir = ''
let target = ''
let ownerKey = ''
let readKey = ''
let webhook = { id: '', secret: '' }
let game = { id: '', organizationId: '', sdkKey: '', signingSecret: '' }

const sqliteFile = () => join(dataDir, 'linkd.db')
const migrateData = (from: string, to: string) =>
  runBin(LINKD, ['migrate-data', '--from', from, '--to', to], { LINKD_DATA_DIR: dataDir })

async function call(d: RunningLinkd, method: string, path: string, body?: unknown, key = ownerKey) {
  const res = await fetch(`${d.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
}

async function created<T>(d: RunningLinkd, path: string, body: unknown): Promise<T> {
  const r = await call(d, 'POST', path, body)
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body as T
}

/** A signed batch of gaming events, as a game's SDK sends it. */
async function ingest(d: RunningLinkd, events: number, secret = game.signingSecret) {
  const now = Date.now()
  const wire = Buffer.from(
    JSON.stringify({
      batch_id: randomUUID(),
      batch_timestamp: new Date(now).toISOString(),
      events: Array.from({ length: events }, (_, i) => ({
        event_id: randomUUID(),
        event_type: i === 0 ? 'session_start' : 'level_start',
        timestamp: new Date(now - 1000 + i).toISOString(),
        player_id: `player-${i % 3}`,
        session_id: `session-${i % 3}`,
        platform: 'ios',
        data: { level: i },
      })),
    }),
  )
  return fetch(`${d.url}/api/v1/gaming/events`, {
    method: 'POST',
    headers: ingestionHeaders(game, { secret, timestamp: String(now), wire }),
    body: wire,
  })
}

/** A copy of the installation's SQLite file with one statement run on it: its path. */
async function editedCopy(name: string, statement: string): Promise<string> {
  const path = join(work, name)
  const source = new SQLite(sqliteFile())
  await source.backup(path)
  source.close()
  const copy = new SQLite(path)
  copy.prepare(statement).run()
  copy.close()
  return path
}

/** Rows per table of a SQLite file. */
function sqliteCounts(file: string): Record<string, number> {
  const db = new SQLite(file, { readonly: true })
  try {
    const n = (t: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n
    return Object.fromEntries(COPIED_TABLES.map((t) => [t, n(t)]))
  } finally {
    db.close()
  }
}

async function postgresCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const counts: Record<string, number> = {}
    for (const t of COPIED_TABLES)
      counts[t] = (await client.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM ${t}`)).rows[0]?.n ?? -1
    return counts
  } finally {
    await client.end()
  }
}

describe.skipIf(postgresMissing())('linkd migrate-data', () => {
  let before: Record<string, number> = {}

  beforeAll(async () => {
    server = await postgresForFile()
    target = (await server.createDatabase()).replace('//linkd@', `//linkd:${PASSWORD}@`)
    receiver = await startReceiver()
    work = mkdtempSync(join(tmpdir(), 'linkd-migrate-data-'))
    dataDir = join(work, 'data')

    // The source installation is a SQLite file, also under test:pg (which gives a data directory
    // a PostgreSQL database unless the URL is named).
    const d = await startLinkd(dataDir, {
      LINKD_CNAME_TARGET: 'links.example.net',
      LINKD_DATABASE_URL: `sqlite:${sqliteFile()}`,
    })
    try {
      ownerKey = d.ownerKey() ?? ''
      readKey = (await created<{ key: string }>(d, '/api/keys', { name: 'reader', preset: 'read-only' })).key
      for (let i = 0; i < 3; i++) {
        const link = await created<{ shortCode: string }>(d, '/api/use/links', {
          destinationUrl: `https://example.com/${i}`,
          tags: ['launch', `t${i}`],
        })
        for (let c = 0; c <= i; c++) await fetch(`${d.url}/${link.shortCode}`, { redirect: 'manual' })
      }
      webhook = await created(d, '/api/webhooks', { name: 'rx', url: receiver.url, events: ['link.created'] })
      await created(d, '/api/domains', { domain: 'go.example.org' })
      game = await created(d, '/api/v1/admin/games', {
        name: 'Moved game',
        platform: 'ios',
        hmacRequired: true,
        modules: { fraud: true, skan: true },
      })
      const first = await ingest(d, 5)
      expect(first.status, await first.text()).toBe(202)
      await created(d, `/api/v1/skan/games/${game.id}/campaigns`, {
        name: 'Campaign',
        adNetworkId: 'abc123.skadnetwork',
        lockWindowHours: 24,
        conversionSchema: { events: { tutorial: 1, purchase: 4 } },
      })
    } finally {
      expect(await d.stop('SIGTERM')).toBe(0) // flushes the buffered clicks and usage
    }
    before = sqliteCounts(sqliteFile())
  })
  afterAll(async () => {
    await receiver?.close()
    await server?.stop()
    rmSync(work, { recursive: true, force: true })
  })

  it('the installation holds rows in the tables the test means to move', () => {
    for (const t of [
      'organizations',
      'api_keys',
      'links',
      'link_tags',
      'clicks',
      'link_click_hours',
      'webhooks',
      'custom_domains',
      'games',
      'game_events',
      'fraud_rules',
      'fraud_daily',
      'skan_campaigns',
    ])
      expect(before[t], t).toBeGreaterThan(0)
    expect(before.clicks).toBe(6)
  })

  it('copies every table to an empty PostgreSQL database, verifies the counts and prints no password', async () => {
    const r = await migrateData(`sqlite:${sqliteFile()}`, target)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^Copying sqlite:\S+linkd\.db to postgres:\/\/linkd@127\.0\.0\.1:\d+\/f_\w+\n/)
    expect(r.stdout).toMatch(/ {2}clicks: 6 rows\n/)
    expect(before.organizations).toBe(1)
    expect(r.stdout).toMatch(/ {2}organizations: 1 row\n/)
    const total = Object.values(before).reduce((a, b) => a + b, 0)
    expect(r.stdout).toContain(
      `Done: ${plural(total, 'row')} in ${plural(COPIED_TABLES.length, 'table')} copied and verified`,
    )
    expect(r.stdout + r.stderr).not.toContain(PASSWORD)
    expect(await postgresCounts(target)).toEqual(before)
    const versions = async (url: string) => {
      const db = openDatabase(url)
      try {
        return await appliedVersions(db.kysely)
      } finally {
        await db.close()
      }
    }
    expect(await versions(target)).toEqual(await versions(`sqlite:${sqliteFile()}`))
  })

  it('a linkd on the copy with the same master key accepts the old keys, signs with the old webhook secret and lists the same data', async () => {
    const d = await startLinkd(dataDir, { LINKD_DATABASE_URL: target, LINKD_JOBS: 'false' })
    try {
      expect((await call(d, 'GET', '/api/keys')).status).toBe(200)
      const links = await call(d, 'GET', '/api/use/links', undefined, readKey)
      expect(links.status).toBe(200)
      expect(links.body.total).toBe(3)
      expect((await call(d, 'GET', '/api/domains')).body.data).toMatchObject([{ domain: 'go.example.org' }])
      const campaigns = await call(d, 'GET', `/api/v1/skan/games/${game.id}/campaigns`)
      expect(campaigns.body.data).toMatchObject([{ name: 'Campaign' }])
      const rules = await call(d, 'GET', `/api/v1/admin/fraud/games/${game.id}/rules`)
      expect((rules.body.data as unknown[]).length).toBe(before.fraud_rules)

      const sent = await call(d, 'POST', `/api/webhooks/${webhook.id}/test`, {})
      expect(sent.status, JSON.stringify(sent.body)).toBe(200)
      const [delivery] = await receiver!.waitFor(1)
      expect(
        verifySignature({
          secret: webhook.secret,
          payload: delivery!.raw,
          signature: delivery!.headers['x-webhook-signature'] as string,
          timestamp: delivery!.headers['x-webhook-timestamp'] as string,
        }),
      ).toEqual({ valid: true })
    } finally {
      await d.stop()
    }
    expect(d.output()).not.toContain(PASSWORD)
  })

  it('reads PostgreSQL tables in keyset batches too: every row once across batch boundaries', async () => {
    const db = openDatabase(target)
    try {
      for (const table of ['link_tags', 'clicks', 'api_key_activity'] as const) {
        const batches: Record<string, unknown>[][] = []
        for await (const batch of readBatches(db.kysely, 'postgres', table, 2)) batches.push(batch)
        const rows = batches.flat()
        expect(batches.length, table).toBeGreaterThan(2)
        expect(batches.every((b) => b.length <= 2)).toBe(true)
        const all = await db.kysely.selectFrom(table).selectAll().execute()
        const key = (r: object) => JSON.stringify(Object.entries(r).sort())
        expect(rows.map(key).sort(), table).toEqual(all.map(key).sort())
      }
    } finally {
      await db.close()
    }
  })

  it('a second run is refused: the target is not empty', async () => {
    const again = await migrateData(`sqlite:${sqliteFile()}`, target)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/the target is not empty \(rows in organizations, members, /)
    expect(again.stderr).not.toContain(PASSWORD)
  })

  it('copies back to a new SQLite file, where the game still takes batches signed with its old secret', async () => {
    const back = join(work, 'back', 'linkd.db')
    const r = await migrateData(target, `sqlite:${back}`)
    expect(r.code, r.stderr).toBe(0)
    // The linkd on PostgreSQL above wrote a test delivery and key activity: the copy is of now.
    const onPostgres = await postgresCounts(target)
    expect(onPostgres.webhook_deliveries).toBe(before.webhook_deliveries! + 1)
    expect(sqliteCounts(back)).toEqual(onPostgres)

    const d = await startLinkd(dataDir, { LINKD_DATABASE_URL: `sqlite:${back}`, LINKD_JOBS: 'false' })
    try {
      expect((await ingest(d, 2)).status).toBe(202)
      expect((await ingest(d, 2, 'not-the-secret')).status).toBe(401)
    } finally {
      await d.stop()
    }
  })

  it("refuses a source whose migrations differ from this build's (written by a newer linkd)", async () => {
    const newer = await editedCopy(
      'newer.db',
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future', 0)",
    )
    const empty = await server!.createDatabase()
    const r = await migrateData(`sqlite:${newer}`, empty)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      /^linkd: the database was migrated by a newer linkd \(9999_future unknown to linkd [\d.]+\)/m,
    )
    // Refused before the target was touched: not even its schema was created.
    const client = new pg.Client({ connectionString: empty })
    await client.connect()
    const links = await client.query<{ t: string | null }>("SELECT to_regclass('links')::text AS t")
    await client.end()
    expect(links.rows[0]!.t).toBeNull()
  })

  it('a copy that fails part-way commits nothing: the target stays empty and the error names the table', async () => {
    // PostgreSQL's text cannot hold a NUL character, which SQLite's can: the copy of links fails
    // after organizations and api_keys were written, in the same transaction.
    const broken = await editedCopy('broken.db', "UPDATE links SET title = 'a' || char(0) || 'b'")
    const empty = await server!.createDatabase()
    const r = await migrateData(`sqlite:${broken}`, empty)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/copying links failed after 0 rows: .*; nothing was committed/)
    const counts = await postgresCounts(empty)
    expect(Object.values(counts).every((n) => n === 0)).toBe(true)
    // The same database takes the good source afterwards.
    const retry = await migrateData(`sqlite:${sqliteFile()}`, empty)
    expect(retry.code, retry.stderr).toBe(0)
  })

  it('refuses a missing source file and an unsupported URL instead of copying', async () => {
    const r = await migrateData(`sqlite:${join(work, 'nothing.db')}`, `sqlite:${join(work, 'out.db')}`)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/no SQLite database at .*nothing\.db/)
    const scheme = await migrateData(`sqlite:${sqliteFile()}`, `mysql://linkd:${PASSWORD}@db/linkd`)
    expect(scheme.code).toBe(2)
    expect(scheme.stderr).toMatch(/--to: unsupported database "mysql:\/\/"/)
    expect(scheme.stderr).not.toContain(PASSWORD)
  })
})

describe('linkd migrate-data that fails', () => {
  let dir = ''
  let source = ''
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkd-migrate-fail-'))
    source = join(dir, 'data', 'linkd.db')
    // A SQLite source on either engine's run (the PostgreSQL run gives processes a database else).
    const init = await runBin(LINKD, ['init'], {
      LINKD_DATA_DIR: join(dir, 'data'),
      LINKD_DATABASE_URL: `sqlite:${source}`,
    })
    expect(init.code, init.stderr).toBe(0)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const run = (from: string, to: string) =>
    runBin(LINKD, ['migrate-data', '--from', from, '--to', to], { LINKD_DATA_DIR: join(dir, 'data') })

  it('removes the SQLite target it created (file and folders) when the source is unreachable or refused', async () => {
    const newer = join(dir, 'newer.db')
    copyFileSync(source, newer)
    const db = new SQLite(newer)
    db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future', 0)",
    ).run()
    db.close()
    for (const [from, why] of [
      ['postgres://linkd@127.0.0.1:1/linkd', /PostgreSQL at 127\.0\.0\.1:1 unreachable/],
      [`sqlite:${newer}`, /migrated by a newer linkd/],
    ] as const) {
      const r = await run(from, `sqlite:${join(dir, 'new', 'deeper', 'linkd.db')}`)
      expect({ from, code: r.code }).toEqual({ from, code: 1 })
      expect(r.stderr).toMatch(why)
      expect(existsSync(join(dir, 'new')), from).toBe(false)
    }
  })

  it('never removes a target that existed before, nor the folder it was in', async () => {
    const existing = join(dir, 'existing', 'linkd.db')
    mkdirSync(join(dir, 'existing'))
    copyFileSync(source, existing)
    const r = await run(`sqlite:${source}`, `sqlite:${existing}`)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/the target is not empty/)
    expect(readFileSync(existing).equals(readFileSync(source))).toBe(true)
    const unreachable = await run('postgres://linkd@127.0.0.1:1/linkd', `sqlite:${existing}`)
    expect(unreachable.code).toBe(1)
    expect(existsSync(existing)).toBe(true)
  })
})
