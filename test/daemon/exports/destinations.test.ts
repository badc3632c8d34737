/**
 * Scheduled exports to S3-compatible storage (s3rver, read back with the official client and
 * DuckDB): destinations and their scopes, a day written as one object per dataset under a
 * Hive-style key, the daily job, retries and the last error of a failing store, and a secret
 * that never shows in an answer or a log line.
 */
import { createServer, type Server } from 'node:net'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../src/contract/games.js'
import type { ExportDestination, ExportRun } from '../../../src/contract/raw-export.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { duckPath, duckRows } from '../../support/duckdb.js'
import { accepted, batch, createGame, event, send } from '../../support/gaming.js'
import { DAY, flush, makeLink, visit } from '../../support/redirect.js'
import { S3RVER_KEY, startS3, type TestS3 } from '../../support/s3.js'
import { expectError } from '../../support/responses.js'

let t: TestApp
let s3: TestS3
let game: GameWithSecrets
const logs: string[] = []
const SECRET = 'S3RVER'

beforeAll(async () => {
  s3 = await startS3(['lake', 'other'])
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString())
      done()
    },
  })
  t = await createTestApp(
    { logLevel: 'info', ingestRateLimitPerGame: 100_000 },
    {
      logger: { level: 'info', stream } as never,
      exportRetryDelaysMs: [10, 10],
      // A store's host name that resolves to a private address (DNS changed after it was added).
      resolve: async (host) => {
        if (host === 'lan-store.example.test') return [{ address: '10.0.0.5', family: 4 }]
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
      },
    },
  )
  game = await createGame(t, { slug: 'lake-game' })
  // Yesterday (2026-11-20): 30 clicks and 50 events; today: 5 clicks and 5 events, not exported.
  const now = t.clock.now()
  await makeLink(t, { customSlug: 'lake' })
  for (const [day, clicks, events] of [
    [1, 30, 50],
    [0, 5, 5],
  ] as const) {
    t.clock.set(now - day * DAY - 3_600_000)
    for (let i = 0; i < clicks; i++) {
      t.clock.advance(1000)
      expect((await visit(t, 'lake', { ip: `198.51.100.${i}` })).statusCode).toBe(302)
    }
    await flush(t)
    const list = Array.from({ length: events }, (_, i) => event(t, { player_id: `p${i % 7}`, data: { i } }))
    expect(accepted(await send(t, batch(t, list), { game, orgId: t.orgId })).rejected).toBe(0)
  }
  t.clock.set(now)
}, 120_000)
afterAll(async () => {
  await t.close()
  await s3.close()
})

const body = (over: Record<string, unknown> = {}) => ({
  endpoint: s3.endpoint,
  bucket: 'lake',
  prefix: '/linkd/exports/',
  ...S3RVER_KEY,
  format: 'parquet',
  datasets: ['raw_events', 'clicks'],
  gameId: 'lake-game',
  ...over,
})
async function create(over: Record<string, unknown> = {}, key?: string): Promise<ExportDestination> {
  const res = await t.call('POST', '/api/exports/destinations', { body: body(over), ...(key ? { key } : {}) })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<ExportDestination>()
}
const list = async () =>
  (await t.call('GET', '/api/exports/destinations')).json<{ data: ExportDestination[] }>().data
const run = (id: string, date?: string, key?: string) =>
  t.call('POST', `/api/exports/destinations/${id}/run`, {
    body: date ? { date } : {},
    ...(key ? { key } : {}),
  })

describe('export destinations', () => {
  it('creates, lists and removes; the secret is sealed at rest and never answered', async () => {
    const d = await create()
    expect(d).toMatchObject({
      id: expect.stringMatching(/^exd_/),
      kind: 's3',
      endpoint: s3.endpoint,
      bucket: 'lake',
      prefix: 'linkd/exports',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      format: 'parquet',
      datasets: ['raw_events', 'clicks'],
      gameId: 'lake-game',
      lastRunAt: null,
      lastSuccessAt: null,
      lastError: null,
    })
    expect(JSON.stringify(d)).not.toContain('secretAccessKey')
    const [stored] = await sqlRows<{ secret_sealed: string }>(
      t,
      'SELECT secret_sealed FROM export_destinations WHERE id = ?',
      d.id,
    )
    expect(stored!.secret_sealed).not.toContain(SECRET)
    expect((await list()).map((x) => x.id)).toContain(d.id)
    // The list is the pagination envelope every list endpoint answers, with its page sizes.
    const page = await t.call('GET', '/api/exports/destinations?limit=10')
    expect(page.json()).toMatchObject({ total: 1, page: 1, perPage: 10, hasMore: false })
    expectError(await t.call('GET', '/api/exports/destinations?limit=7'), 400, 'ValidationError')
    expect((await t.call('DELETE', `/api/exports/destinations/${d.id}`)).statusCode).toBe(204)
    expect((await t.call('DELETE', `/api/exports/destinations/${d.id}`)).statusCode).toBe(404)
  })

  it('checks the body: raw_events needs a game of the organization; HTTPS endpoints; S3 bucket names', async () => {
    const bad = async (over: Record<string, unknown>, field: string) => {
      const res = await t.call('POST', '/api/exports/destinations', { body: body(over) })
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json<{ details: Array<{ field: string }> }>().details[0]!.field).toContain(field)
    }
    await bad({ gameId: null }, 'gameId')
    await bad({ endpoint: 'http://s3.example.com' }, 'endpoint')
    await bad({ endpoint: 'https://user:pw@s3.example.com' }, 'endpoint')
    await bad({ bucket: 'No_Such' }, 'bucket')
    // A name S3 refuses is explained, not only refused.
    const short = await t.call('POST', '/api/exports/destinations', { body: body({ bucket: 'b' }) })
    expect(short.json<{ details: Array<{ message: string }> }>().details[0]!.message).toBe(
      'has an invalid format (S3 bucket name: 3-63 lower-case letters, digits, dots and hyphens)',
    )
    await bad({ datasets: [] }, 'datasets')
    await bad({ format: 'xlsx' }, 'format')
    // A . or .. segment: a path-style request would resolve it, into another bucket.
    for (const prefix of ['../other/x', 'a/../../other', './x', 'a//b']) await bad({ prefix }, 'prefix')
    const other = await t.createOrg('neighbours')
    const res = await t.call('POST', '/api/exports/destinations', { body: body(), key: other.ownerKey })
    expect(res.statusCode).toBe(404)
    // Clicks alone need no game.
    await create({ datasets: ['clicks'], gameId: null }, other.ownerKey)
  })

  it('scopes: exports:read lists, exports:write changes; another organization’s destination is a 404', async () => {
    const d = await create({ datasets: ['clicks'], gameId: null })
    const reader = await t.createKey({ name: 'reader', preset: 'read-only' })
    expect((await t.call('GET', '/api/exports/destinations', { key: reader.key })).statusCode).toBe(200)
    expect((await run(d.id, '2026-11-20', reader.key)).statusCode).toBe(403)
    const full = await t.createKey({ name: 'full', preset: 'full' })
    expect(full.permissions).toEqual(expect.arrayContaining(['exports:read', 'exports:write']))
    expect(reader.permissions).toContain('exports:read')
    expect(reader.permissions).not.toContain('exports:write')
    const other = await t.createOrg('strangers')
    expect((await run(d.id, '2026-11-20', other.ownerKey)).statusCode).toBe(404)
    expect(
      (await t.call('DELETE', `/api/exports/destinations/${d.id}`, { key: other.ownerKey })).statusCode,
    ).toBe(404)
    await t.call('DELETE', `/api/exports/destinations/${d.id}`)
  })

  it('a run writes one object per dataset under <prefix>/<dataset>/date=YYYY-MM-DD/, read back by DuckDB', async () => {
    const d = await create()
    const res = await run(d.id, '2026-11-20')
    expect(res.statusCode, res.body).toBe(200)
    const out = res.json<ExportRun>()
    expect(out.objects.map((o) => [o.dataset, o.key, o.rows])).toEqual([
      ['raw_events', 'linkd/exports/raw_events/date=2026-11-20/part-0.parquet', 50],
      ['clicks', 'linkd/exports/clicks/date=2026-11-20/part-0.parquet', 30],
    ])
    expect(await s3.keys('lake')).toEqual(out.objects.map((o) => o.key).sort())
    const dir = await s3.download('lake')
    const events = await duckRows(
      `SELECT CAST(date AS VARCHAR) AS date, count(*) AS n, count(DISTINCT eventId) AS ids,
              min(ts) >= TIMESTAMP '2026-11-20' AND max(ts) < TIMESTAMP '2026-11-21' AS inDay
       FROM read_parquet(${duckPath(`${dir}/linkd/exports/raw_events/*/*.parquet`)}, hive_partitioning = true) GROUP BY date`,
    )
    expect(events).toEqual([{ date: '2026-11-20', n: 50n, ids: 50n, inDay: true }])
    const clicks = await duckRows(
      `SELECT count(*) AS n, count(DISTINCT linkId) AS links, max(ts) < TIMESTAMP '2026-11-21' AS inDay
       FROM read_parquet(${duckPath(`${dir}/linkd/exports/clicks/*/*.parquet`)}, hive_partitioning = true)`,
    )
    expect(clicks).toEqual([{ n: 30n, links: 1n, inDay: true }])
    const [after] = (await list()).filter((x) => x.id === d.id)
    expect(after).toMatchObject({ lastExportedDate: '2026-11-20', lastError: null })
    expect(after!.lastSuccessAt).toBe(after!.lastRunAt)
    // NDJSON of the same day: exactly the rows an API download gives.
    const nd = await create({
      bucket: 'other',
      prefix: '',
      format: 'ndjson',
      datasets: ['clicks'],
      gameId: null,
    })
    expect((await run(nd.id, '2026-11-20')).statusCode).toBe(200)
    const object = (await s3.get('other', 'clicks/date=2026-11-20/part-0.ndjson')).toString()
    const download = await t.call(
      'GET',
      '/api/use/analytics/clicks/export?startDate=2026-11-20&endDate=2026-11-20',
    )
    expect(object).toBe(download.body)
    expect(object.trimEnd().split('\n')).toHaveLength(30)
    // A day in the future, or no calendar day, is a 400.
    expect((await run(d.id, '2026-11-22')).statusCode).toBe(400)
    expect((await run(d.id, '2026-02-30')).statusCode).toBe(400)
    // No body at all (curl -X POST …/run): yesterday, as with {}.
    const bare = await t.app.inject({
      method: 'POST',
      url: `/api/exports/destinations/${d.id}/run`,
      headers: { authorization: `Bearer ${t.ownerKey}` },
    })
    expect(bare.statusCode, bare.body).toBe(200)
    expect(bare.json<ExportRun>().date).toBe('2026-11-20')
  })

  it('the daily job writes yesterday of every destination', async () => {
    const d = await create({ bucket: 'other', prefix: 'daily', format: 'csv' })
    const result = await t.app.linkd.scheduler.runNow('scheduled-exports')
    expect(result.status, result.error).toBe('ok')
    expect(await s3.keys('other')).toEqual(
      expect.arrayContaining([
        'daily/clicks/date=2026-11-20/part-0.csv',
        'daily/raw_events/date=2026-11-20/part-0.csv',
      ]),
    )
    const csv = (await s3.get('other', 'daily/clicks/date=2026-11-20/part-0.csv'))
      .toString()
      .trimEnd()
      .split('\r\n')
    expect(csv).toHaveLength(31)
    expect((await list()).find((x) => x.id === d.id)).toMatchObject({ lastExportedDate: '2026-11-20' })
  })

  it('a run of today, or of a day after a gap, leaves those days to the daily job: it writes them whole', async () => {
    const d = await create({ bucket: 'other', prefix: 'partial', format: 'csv', datasets: ['raw_events'] })
    const now = t.clock.now()
    const rowsOf = async (date: string) =>
      (await s3.get('other', `partial/raw_events/date=${date}/part-0.csv`)).toString().trimEnd().split('\r\n')
        .length - 1
    try {
      // Today so far (5 events); then a sixth arrives, later that day.
      expect((await run(d.id, '2026-11-21')).statusCode).toBe(200)
      expect(await rowsOf('2026-11-21')).toBe(5)
      expect((await list()).find((x) => x.id === d.id)!.lastExportedDate).toBeNull()
      t.clock.advance(3_600_000)
      expect(
        accepted(await send(t, batch(t, [event(t, { player_id: 'late' })]), { game, orgId: t.orgId }))
          .accepted,
      ).toBe(1)
      // A day after a gap (2026-11-19 written, 11-20 not): the mark stays before the gap.
      expect((await run(d.id, '2026-11-19')).statusCode).toBe(200)
      expect((await run(d.id, '2026-11-21')).statusCode).toBe(200)
      expect((await list()).find((x) => x.id === d.id)!.lastExportedDate).toBe('2026-11-19')
      // The next night's job writes 11-20 and the whole of 11-21.
      t.clock.set(now + DAY)
      expect((await t.app.linkd.scheduler.runNow('scheduled-exports')).status).toBe('ok')
      expect(await rowsOf('2026-11-20')).toBe(50)
      expect(await rowsOf('2026-11-21')).toBe(6)
      expect((await list()).find((x) => x.id === d.id)!.lastExportedDate).toBe('2026-11-21')
    } finally {
      t.clock.set(now)
      await t.call('DELETE', `/api/exports/destinations/${d.id}`)
    }
  })

  it('a store that is down is tried 3 times, one that refuses (403, 404) once; the error shows as lastError; the secret is never logged', async () => {
    let connections = 0
    const down: Server = createServer((socket) => {
      connections++
      socket.destroy()
    })
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r))
    const port = (down.address() as { port: number }).port
    try {
      const d = await create({ endpoint: `http://127.0.0.1:${port}`, datasets: ['clicks'], gameId: null })
      const res = await run(d.id, '2026-11-20')
      expect(res.statusCode).toBe(503)
      expect(res.json<{ message: string }>().message).toMatch(/failed after 3 attempts/)
      expect(connections).toBe(3)
      const after = (await list()).find((x) => x.id === d.id)!
      expect(after.lastError).toBeTruthy()
      expect(after.lastRunAt).not.toBeNull()
      expect(after.lastSuccessAt).toBeNull()
    } finally {
      down.close()
    }
    // Nobody listening: said in words, as linkd says other connection errors.
    const closed: Server = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const closedPort = (closed.address() as { port: number }).port
    await new Promise<void>((r) => closed.close(() => r()))
    const nobody = await create({
      endpoint: `http://127.0.0.1:${closedPort}`,
      datasets: ['clicks'],
      gameId: null,
    })
    const refused = await run(nobody.id, '2026-11-20')
    const words = `127.0.0.1:${closedPort} unreachable (connection refused)`
    expect(refused.json<{ message: string }>().message).toBe(
      `the export of 2026-11-20 to bucket lake failed after 3 attempts: ${words}`,
    )
    expect((await list()).find((x) => x.id === nobody.id)!.lastError).toBe(words)
    await t.call('DELETE', `/api/exports/destinations/${nobody.id}`)
    // Bad credentials: the store's refusal, named, and not tried again (it would refuse again).
    const retries = () => logs.join('').split('export upload failed: retrying').length
    const before = retries()
    const d = await create({
      accessKeyId: 'NOBODY',
      secretAccessKey: 'wrong-secret-value',
      datasets: ['clicks'],
      gameId: null,
    })
    const res = await run(d.id, '2026-11-20')
    expect(res.statusCode).toBe(503)
    expect(res.json<{ message: string }>().message).toMatch(
      /^the export of 2026-11-20 to bucket lake failed: /,
    )
    const after = (await list()).find((x) => x.id === d.id)!
    expect(after.lastError).toMatch(/Signature|AccessKey|Forbidden|403/)
    // A bucket that does not exist: the same.
    const missing = await create({ bucket: 'no-such-bucket', datasets: ['clicks'], gameId: null })
    const res404 = await run(missing.id, '2026-11-20')
    expect(res404.json<{ message: string }>().message).toMatch(/failed: NoSuchBucket: .*\(HTTP 404\)$/)
    expect(retries()).toBe(before)
    await t.call('DELETE', `/api/exports/destinations/${missing.id}`)
    expect(logs.join('')).toContain('export failed')
    for (const text of [logs.join(''), res.body, JSON.stringify(await list())]) {
      expect(text).not.toContain('wrong-secret-value')
    }
  })

  it('an endpoint the address policy refuses is a 400 naming why; a host name refused at run names the policy, tried once', async () => {
    for (const [endpoint, why] of [
      [
        'https://10.0.0.5:9000',
        '10.0.0.5 is in the private range: set LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow',
      ],
      [
        'https://[::ffff:169.254.169.254]',
        '169.254.169.254 is in the link-local range: set LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow',
      ],
      ['https://0.0.0.0:9000', '0.0.0.0 is in the unspecified range, which linkd never connects to'],
    ]) {
      const res = await t.call('POST', '/api/exports/destinations', { body: body({ endpoint }) })
      const err = expectError(res, 400, 'ValidationError')
      expect(err.details, endpoint).toEqual([{ field: 'endpoint', message: why }])
    }
    // A host name is accepted (its addresses can change); the run is refused without a retry.
    const d = await create({ endpoint: 'https://lan-store.example.test', datasets: ['clicks'], gameId: null })
    const before = logs.join('').split('export upload failed: retrying').length
    const res = await run(d.id, '2026-11-20')
    expect(res.statusCode).toBe(503)
    expect(res.json<{ message: string }>().message).not.toMatch(/attempts/)
    expect(logs.join('').split('export upload failed: retrying').length).toBe(before)
    const after = (await list()).find((x) => x.id === d.id)!
    expect(after.lastError).toMatch(
      /^linkd's address policy refused the endpoint, not the store: refused: lan-store\.example\.test resolves to 10\.0\.0\.5, a private address/,
    )
    await t.call('DELETE', `/api/exports/destinations/${d.id}`)
  })

  it("a game whose analytics is off: run is that 409, not a store's 503, and lastError says it", async () => {
    await createGame(t, { slug: 'paused-lake' })
    const d = await create({ gameId: 'paused-lake', datasets: ['raw_events'] })
    const off = await t.call('PATCH', '/api/v1/admin/games/paused-lake', {
      body: { modules: { analytics: false } },
    })
    expect(off.statusCode, off.body).toBe(200)
    const res = await run(d.id, '2026-11-20')
    const err = expectError(res, 409, 'Conflict')
    expect(err.message).toMatch(/^gaming analytics is off for game paused-lake/)
    expect((await list()).find((x) => x.id === d.id)!.lastError).toBe(err.message)
    await t.call('DELETE', `/api/exports/destinations/${d.id}`)
  })

  it('at most 20 destinations per organization: the 21st is a 409, as every count limit', async () => {
    const org = await t.createOrg('many-stores')
    const add = () =>
      t.call('POST', '/api/exports/destinations', {
        body: body({ datasets: ['clicks'], gameId: null }),
        key: org.ownerKey,
      })
    for (let i = 0; i < 20; i++) expect((await add()).statusCode).toBe(201)
    const res = await add()
    expect(expectError(res, 409, 'Conflict').message).toBe(
      'at most 20 export destinations per organization: remove one first',
    )
  })
})
