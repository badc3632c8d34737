/**
 * The export of the money reports: revenue and attribution (their groupBy, a
 * TOTAL row, the currency), segments, and players (every current player, streamed by keyset pages
 * across more than one page) in CSV and JSON, with the same figures as the reports themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type {
  AttributionReport,
  PlayersPage,
  RevenueReport,
  SegmentsReport,
} from '../../../../src/contract/gaming-revenue.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
const PLAYERS = 5_120 // more than one page of the players stream (5,000)

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t, { slug: 'exports', reportingCurrency: 'EUR' })
  const o = { game, orgId: t.orgId }
  for (let from = 0; from < PLAYERS; from += 800) {
    const events = []
    for (let p = from; p < Math.min(PLAYERS, from + 800); p++) {
      const player = `p${String(p).padStart(5, '0')}`
      events.push(
        event(t, {
          event_type: 'app_install',
          player_id: player,
          platform: p % 2 ? 'ios' : 'android',
          data: { campaign: p % 3 ? 'spring' : 'winter', source: 'ads', cost: 0.5, currency: 'EUR' },
        }),
      )
      if (p % 5 === 0)
        events.push(
          event(t, {
            event_type: 'purchase',
            player_id: player,
            platform: p % 2 ? 'ios' : 'android',
            data: { amount: p % 100 === 0 ? 120 : 4.5, currency: 'EUR', commission: 0.5 },
          }),
        )
    }
    expect(accepted(await send(t, batch(t, events), o)).rejected).toBe(0)
  }
}, 60_000)
afterAll(() => t.close())

const get = (path: string) => t.call('GET', `/api/v1/analytics/games/${game.id}/${path}`)
const csvLines = (body: string) => body.trimEnd().split('\r\n')

describe('export of the money reports', () => {
  it('revenue: the rows of the report by its groupBy, a TOTAL row, the currency', async () => {
    const report = (await get('revenue?groupBy=platform')).json<RevenueReport>()
    const res = await get('export?type=revenue&groupBy=platform&format=json')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="exports-revenue-.+\.json"$/)
    const rows = res.json<Array<Record<string, unknown>>>()
    expect(rows).toEqual([
      ...report.data.map((r) => ({ ...r, currency: 'EUR' })),
      { group: 'TOTAL', ...report.totals, currency: 'EUR' },
    ])
    expect(rows.map((r) => r.group)).toEqual(expect.arrayContaining(['ios', 'android', 'TOTAL']))
    // Default grouping: by day.
    const byDay = csvLines((await get('export?type=revenue')).body)
    expect(byDay[0]).toBe('group,total,iap,ad,subscription,transactions,payingUsers,arppu,currency')
    expect(byDay.at(-1)).toMatch(/^TOTAL,/)
  })

  it('attribution: groupBy campaign (default source); a grouping of the other report is a 400', async () => {
    const report = (await get('attribution?groupBy=campaign')).json<AttributionReport>()
    const csv = csvLines((await get('export?type=attribution&groupBy=campaign')).body)
    expect(csv[0]).toBe('group,installs,conversions,revenue,cost,commission,avgCpa,avgRoas,currency')
    expect(csv).toHaveLength(report.data.length + 2)
    const spring = report.data.find((r) => r.group === 'spring')!
    expect(csv).toContain(
      `spring,${spring.installs},${spring.conversions},${spring.revenue},${spring.cost},${spring.commission},${spring.avgCpa},${spring.avgRoas},EUR`,
    )
    const bySource = (await get('export?type=attribution&format=json')).json<Array<{ group: string }>>()
    expect(bySource.map((r) => r.group)).toEqual(['ads', 'TOTAL'])
    const wrong = await get('export?type=attribution&groupBy=platform')
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toMatchObject({ error: 'ValidationError', details: [{ field: 'groupBy' }] })
  })

  it('segments: one row per segment, as the report', async () => {
    const report = (await get('segments')).json<SegmentsReport>()
    const rows = (await get('export?type=segments&format=json')).json<Array<Record<string, unknown>>>()
    expect(rows).toEqual(report.data.map((r) => ({ ...r, currency: 'EUR' })))
    expect(rows.map((r) => r.players)).toEqual([52, 0, 972, PLAYERS - 1024])
  })

  it('players: every current player by id, streamed past one page; limit cuts it', async () => {
    const csv = csvLines((await get(`export?type=players&limit=1000000`)).body)
    expect(csv[0]).toBe('playerId,sessions,revenue,segment,lastActiveAt,platform,country,currency')
    expect(csv).toHaveLength(PLAYERS + 1)
    const ids = csv.slice(1).map((line) => line.split(',')[0])
    expect(ids).toEqual([...ids].sort())
    expect(new Set(ids).size).toBe(PLAYERS)
    // The same row as the explorer shows for a player.
    const page = (await get('players?search=p00100')).json<PlayersPage>()
    const row = page.data[0]!
    expect(csv).toContain(
      [
        row.playerId,
        row.sessions,
        row.revenue,
        row.segment,
        row.lastActiveAt,
        row.platform,
        row.country ?? '',
        'EUR',
      ].join(','),
    )
    const cut = csvLines((await get('export?type=players&limit=10')).body)
    expect(cut).toHaveLength(11)
  })
})
