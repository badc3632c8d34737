/**
 * The API of retention, leaderboard, geography, events and export: bad input is a 400 naming
 * the field, another organization's game a 404, the scope analytics:read, and the export a
 * streamed file (CSV per RFC 4180 or a JSON array) named by Content-Disposition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { encodeExport, rowsOf } from '../../../../daemon/modules/gaming/analytics/export.js'
import { csvCell } from '../../../../src/contract/csv.js'
import { EXPORT_TYPES } from '../../../../src/contract/limits.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
const today = () => new Date(t.clock.now()).toISOString().slice(0, 10)
const path = (endpoint: string, query = '') => `/api/v1/analytics/games/${game.id}/${endpoint}?${query}`

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t)
  // Two players today: one pays 4.99 in DE, one plays in FR.
  const events = [
    event(t, { event_type: 'app_install', player_id: 'alice', data: { country: 'DE' } }),
    event(t, { event_type: 'purchase', player_id: 'alice', data: { amount: 4.99, currency: 'USD' } }),
    event(t, { event_type: 'app_install', player_id: 'bob', session_id: 'b1', data: { country: 'FR' } }),
    event(t, { event_type: 'level_start', player_id: 'bob', session_id: 'b1' }),
    // Custom names: each its own events row.
    event(t, { event_type: 'boss_fight', player_id: 'bob', session_id: 'b1' }),
    event(t, { event_type: 'boss_fight', player_id: 'alice' }),
    event(t, { event_type: 'boss_fight', player_id: 'bob', session_id: 'b1' }),
    event(t, { event_type: 'chest.opened', player_id: 'alice' }),
  ]
  accepted(await send(t, batch(t, events), { game, orgId: t.orgId }))
})
afterAll(() => t.close())

describe('answers', () => {
  it('retention, leaderboard, geography, events of a small game', async () => {
    const retention = (await t.call('GET', path('retention'))).json()
    expect(retention.data).toEqual([
      {
        cohort: today(),
        size: 2,
        days: {
          d0: { retained: 2, percentage: 100, band: 'green' },
          d1: null,
          d3: null,
          d7: null,
          d14: null,
          d30: null,
        },
      },
    ])
    expect((await t.call('GET', path('leaderboard'))).json().data).toEqual([
      { rank: 1, playerId: 'alice', revenue: 4.99 },
    ])
    expect((await t.call('GET', path('geography'))).json().data).toEqual([
      { country: 'DE', players: 1, sessions: 1, revenue: 4.99, revenuePerPlayer: 4.99 },
      { country: 'FR', players: 1, sessions: 1, revenue: 0, revenuePerPlayer: 0 },
    ])
    const events = (await t.call('GET', path('events'))).json()
    expect(events.totals).toEqual({ count: 8 })
    expect(events.data).toEqual([
      { eventType: 'boss_fight', custom: true, count: 3, uniquePlayers: 2, percentage: 37.5 },
      { eventType: 'app_install', custom: false, count: 2, uniquePlayers: 2, percentage: 25 },
      { eventType: 'chest.opened', custom: true, count: 1, uniquePlayers: 1, percentage: 12.5 },
      { eventType: 'level_start', custom: false, count: 1, uniquePlayers: 1, percentage: 12.5 },
      { eventType: 'purchase', custom: false, count: 1, uniquePlayers: 1, percentage: 12.5 },
    ])
  })
})

describe('bad input, other organizations, scopes', () => {
  it.each([
    ['retention', 'granularity=month', 'granularity'],
    ['leaderboard', 'limit=0', 'limit'],
    ['leaderboard', 'limit=101', 'limit'],
    ['leaderboard', 'limit=ten', 'limit'],
    ['geography', 'startDate=2026-02-30', 'startDate'],
    ['events', 'startDate=2026-05-02&endDate=2026-05-01', 'startDate'],
    ['export', 'type=everything', 'type'],
    ['export', 'type=events&format=xlsx', 'format'],
    ['export', 'type=events&limit=1000001', 'limit'],
    ['export', '', 'type'],
  ])('%s?%s is a 400 naming %s', async (endpoint, query, field) => {
    const res = await t.call('GET', path(endpoint, query))
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toMatchObject({ error: 'ValidationError', statusCode: 400 })
    expect(JSON.stringify(res.json().details)).toContain(field)
  })

  it('export without a type is a 400 that names every type it takes', async () => {
    const res = await t.call('GET', path('export', 'format=json'))
    const types = EXPORT_TYPES.join(', ')
    expect(res.json()).toMatchObject({
      error: 'ValidationError',
      message: `type is required: one of ${types}`,
      details: [{ field: 'type', message: `is required: one of ${types}` }],
    })
    expect(types).toContain('events')
  })

  it("another organization's game is a 404 on every endpoint; a key without analytics:read is a 403", async () => {
    const other = await t.createOrg('other')
    const linksOnly = await t.createKey({ permissions: ['links:read'] })
    const reader = await t.createKey({ permissions: ['analytics:read'] })
    for (const endpoint of ['retention', 'leaderboard', 'geography', 'events', 'export?type=events&']) {
      const url = path(endpoint).replace('?&', '?').replace('&?', '&')
      expect((await t.call('GET', url, { key: other.ownerKey })).statusCode, endpoint).toBe(404)
      expect((await t.call('GET', url, { key: linksOnly.key })).statusCode, endpoint).toBe(403)
      expect((await t.call('GET', url, { key: reader.key })).statusCode, endpoint).toBe(200)
    }
  })
})

describe('export', () => {
  it('CSV: header row, CRLF, Content-Disposition with the file name; limit cuts the rows', async () => {
    const res = await t.call('GET', path('export', `type=events&startDate=${today()}&endDate=${today()}`))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${game.id}-events-${today()}-${today()}.csv"`,
    )
    expect(res.body).toBe(
      [
        'eventType,custom,count,uniquePlayers,percentage',
        'boss_fight,true,3,2,37.5',
        'app_install,false,2,2,25',
        'chest.opened,true,1,1,12.5',
        'level_start,false,1,1,12.5',
        'purchase,false,1,1,12.5',
        '',
      ].join('\r\n'),
    )
    const one = await t.call('GET', path('export', 'type=events&limit=1'))
    expect(one.body.split('\r\n')).toEqual([
      'eventType,custom,count,uniquePlayers,percentage',
      'boss_fight,true,3,2,37.5',
      '',
    ])
  })

  it('JSON: an array of the flat rows; every registered type answers', async () => {
    const res = await t.call('GET', path('export', 'type=geography&format=json'))
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['content-disposition']).toMatch(/filename=".+-geography-.+\.json"$/)
    expect(res.json()).toEqual([
      { country: 'DE', players: 1, sessions: 1, revenue: 4.99, revenuePerPlayer: 4.99 },
      { country: 'FR', players: 1, sessions: 1, revenue: 0, revenuePerPlayer: 0 },
    ])
    const retention = await t.call('GET', path('export', 'type=retention'))
    expect(retention.body.split('\r\n')[1]).toBe(`${today()},2,2,100,green${','.repeat(15)}`)
    const overview = await t.call('GET', path('export', 'type=overview&format=json'))
    expect(overview.json()).toMatchObject([{ dau: 2, revenueTotal: 4.99, retentionD1: null }])
  })

  it('cells are RFC 4180 and formula-safe: quotes doubled, separators quoted, = + - @ prefixed', async () => {
    expect(
      ['plain', 'a,b', 'say "hi"', 'two\nlines', '=SUM(A1)', '+1', '-2', '@x', null, -3, 1.5].map(csvCell),
    ).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      "'=SUM(A1)",
      "'+1",
      "'-2",
      "'@x",
      '',
      '-3',
      '1.5',
    ])
    let text = ''
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: `=p${i}`, n: i }))
    for await (const chunk of encodeExport(['id', 'n'], rowsOf(rows), 'csv', 4000)) text += chunk
    const lines = text.split('\r\n')
    expect(lines).toHaveLength(4002)
    expect(lines.slice(0, 3)).toEqual(['id,n', "'=p0,0", "'=p1,1"])
    let json = ''
    for await (const chunk of encodeExport(['id'], rowsOf([]), 'json', 10)) json += chunk
    expect(JSON.parse(json)).toEqual([])
  })
})
