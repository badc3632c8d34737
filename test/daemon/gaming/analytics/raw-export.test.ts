/**
 * The raw events export: every stored event of the range, row for row as stored, in NDJSON, CSV
 * and Parquet (read back by DuckDB); another organization's game is a 404; ties on a millisecond
 * across keyset pages are read once each.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, sqlRows, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'
import { duckPath, duckRows } from '../../../support/duckdb.js'

let t: TestApp
let game: GameWithSecrets
const DAY = 86_400_000
const dir = mkdtempSync(join(tmpdir(), 'raw-export-'))

interface Stored {
  eventId: string
  type: string
  playerId: string
  sessionId: string | null
  ts: string
  platform: string
  country: string | null
  data: string | null
}

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t, { slug: 'raw' })
  const o = { game, orgId: t.orgId }
  // Two days of events (each day sent on its day: older events are refused); some share a
  // millisecond; text that a spreadsheet would run as a formula.
  const now = t.clock.now()
  for (const day of [1, 0]) {
    t.clock.set(now - day * DAY)
    const events = []
    for (let i = day; i < 300; i += 2)
      events.push(
        event(t, {
          event_type: i % 10 === 0 ? 'purchase' : 'level_start',
          player_id: i % 7 === 0 ? '=HYPERLINK("x")' : `p${i % 20}`,
          session_id: i % 3 === 0 ? undefined : `s${i % 5}`,
          platform: i % 2 ? 'ios' : 'android',
          timestamp: new Date(t.clock.now() - Math.floor(i / 6) * 1000).toISOString(),
          data: i % 10 === 0 ? { amount: 1.5, currency: 'USD', note: 'a,"b"' } : { level: i },
        }),
      )
    expect(accepted(await send(t, batch(t, events), o)).rejected).toBe(0)
  }
  t.clock.set(now)
}, 60_000)
afterAll(() => t.close())

/** The stored rows of the game, as the export names them, sorted by event id. */
async function stored(): Promise<Stored[]> {
  const rows = await sqlRows<Record<string, unknown>>(
    t,
    `SELECT event_id, event_type, player_id, session_id, ts, platform, country, data FROM game_events
     WHERE game_id = (SELECT id FROM games WHERE slug = ?) ORDER BY event_id`,
    game.id,
  )
  return rows.map((r) => ({
    eventId: r.event_id as string,
    type: r.event_type as string,
    playerId: r.player_id as string,
    sessionId: r.session_id as string | null,
    ts: new Date(Number(r.ts)).toISOString(),
    platform: r.platform as string,
    country: r.country as string | null,
    data: r.data as string | null,
  }))
}
const byId = (a: { eventId: string }, b: { eventId: string }) => (a.eventId < b.eventId ? -1 : 1)
const range = 'startDate=2026-11-20&endDate=2026-11-21'
const get = (query: string, key?: string) =>
  t.call('GET', `/api/v1/gaming/export?type=raw_events&${query}`, { key })

describe('raw events export', () => {
  it('NDJSON: one object a line per stored event of the range, exactly the stored values', async () => {
    const res = await get(`gameId=raw&${range}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toContain('application/x-ndjson')
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="raw-raw_events-2026-11-20-2026-11-21.ndjson"',
    )
    const lines = res.body.trimEnd().split('\n')
    const rows = lines.map((l) => JSON.parse(l) as Stored)
    expect(rows).toHaveLength(300)
    expect(Object.keys(rows[0]!)).toEqual([
      'eventId',
      'type',
      'playerId',
      'sessionId',
      'ts',
      'platform',
      'country',
      'data',
    ])
    expect([...rows].sort(byId)).toEqual(await stored())
    // In time order.
    expect(rows.map((r) => r.ts)).toEqual(rows.map((r) => r.ts).sort())
  })

  it('the range picks the days: one day, and the default (the last 30 days)', async () => {
    const one = (await get('gameId=raw&startDate=2026-11-20&endDate=2026-11-20')).body.trimEnd().split('\n')
    expect(one).toHaveLength(150)
    expect(one.every((l) => (JSON.parse(l) as Stored).ts.startsWith('2026-11-20'))).toBe(true)
    expect((await get('gameId=raw')).body.trimEnd().split('\n')).toHaveLength(300)
    expect((await get('gameId=raw&startDate=2026-11-22&endDate=2026-11-23')).body).toBe('')
  })

  it('CSV: a header row, formula-like text neutralised, quotes doubled', async () => {
    const res = await get(`gameId=raw&${range}&format=csv`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('text/csv')
    const lines = res.body.trimEnd().split('\r\n')
    expect(lines[0]).toBe('eventId,type,playerId,sessionId,ts,platform,country,data')
    expect(lines).toHaveLength(301)
    const formula = lines.find((l) => l.includes('HYPERLINK'))!
    expect(formula).toContain(`"'=HYPERLINK(""x"")"`)
    expect(formula).not.toMatch(/,=HYPERLINK/)
    const purchase = lines.find((l) => l.includes(',purchase,'))!
    expect(purchase).toContain('"{""amount"":1.5,""currency"":""USD"",""note"":""a,\\""b\\""""}"')
  })

  it('Parquet: DuckDB reads every row with the stored values and a UTC timestamp column', async () => {
    const res = await get(`gameId=raw&${range}&format=parquet`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/vnd.apache.parquet')
    const file = join(dir, 'events.parquet')
    writeFileSync(file, res.rawPayload)
    const [summary] = await duckRows(
      `SELECT count(*) AS n, count(DISTINCT eventId) AS ids, count(sessionId) AS sessions,
              min(ts) AS first, max(ts) AS last FROM read_parquet(${duckPath(file)})`,
    )
    const rows = await stored()
    const times = rows.map((r) => r.ts).sort()
    expect(summary).toEqual({
      n: 300n,
      ids: 300n,
      sessions: BigInt(rows.filter((r) => r.sessionId !== null).length),
      first: new Date(times[0]!),
      last: new Date(times.at(-1)!),
    })
    const all = await duckRows(`SELECT * FROM read_parquet(${duckPath(file)}) ORDER BY eventId`)
    expect(all.map((r) => ({ ...r, ts: (r.ts as Date).toISOString() }))).toEqual(rows)
    const types = await duckRows(`DESCRIBE SELECT * FROM read_parquet(${duckPath(file)})`)
    expect(Object.fromEntries(types.map((r) => [r.column_name, r.column_type]))).toMatchObject({
      eventId: 'VARCHAR',
      ts: 'TIMESTAMP',
      data: 'VARCHAR',
    })
  })

  it("another organization's game is a 404; a bad format or range a 400; analytics:read is needed", async () => {
    const other = await t.createOrg('other')
    expect((await get(`gameId=raw`, other.ownerKey)).statusCode).toBe(404)
    expect((await get('gameId=raw&format=xlsx')).statusCode).toBe(400)
    expect((await get('gameId=raw&startDate=2026-11-22&endDate=2026-11-20')).json()).toMatchObject({
      error: 'ValidationError',
    })
    expect((await t.call('GET', '/api/v1/gaming/export?type=players&gameId=raw')).statusCode).toBe(400)
    const links = await t.createKey({ name: 'links', permissions: ['links:read'] })
    expect((await get('gameId=raw', links.key)).statusCode).toBe(403)
  })
})
