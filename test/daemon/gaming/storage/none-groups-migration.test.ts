/**
 * Migrations 0031 and 0032 on days stored before them (both engines): the days are written by
 * today's fold, then put back the way the older fold left them (no '' rows of the profile
 * dimensions; custom-name rows without players) and the migration's statements run on them.
 * 0032 gives back the `(none)` rows the fold now writes; after 0031 the custom names of those days
 * answer uniquePlayers null, and a range of later days counts them again.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { Events } from '../../../../src/contract/gaming.js'
import type { AttributionReport, RevenueReport } from '../../../../src/contract/gaming-revenue.js'
import { createTestApp, sqlRows, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

const DAY = 86_400_000
const D0 = Date.UTC(2026, 10, 10, 12)
const MIGRATIONS = join(import.meta.dirname, '..', '..', '..', '..', 'daemon', 'db', 'migrations')
let t: TestApp
let game: GameWithSecrets

/** The statements of a migration file, comments left out. */
const statements = (file: string) =>
  readFileSync(join(MIGRATIONS, file), 'utf8')
    .split(/;\s*\n/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean)

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
async function get<R>(path: string, start = D0, end = D0 + DAY): Promise<R> {
  const res = await t.call(
    'GET',
    `/api/v1/analytics/games/${game.id}/${path}${path.includes('?') ? '&' : '?'}startDate=${iso(start)}&endDate=${iso(end)}`,
  )
  expect(res.statusCode, res.body).toBe(200)
  return res.json<R>()
}

const ingest = async (events: unknown[]) =>
  accepted(await send(t, batch(t, events), { game, orgId: t.orgId }))

const REPORTS = [
  'revenue?groupBy=source',
  'revenue?groupBy=platform',
  ...['affiliate', 'campaign', 'source', 'medium', 'link'].map((g) => `attribution?groupBy=${g}`),
]

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  t.clock.set(D0)
  game = await createGame(t)
  const e = (player: string, type: string, data: Record<string, unknown> = {}) =>
    event(t, { player_id: player, event_type: type, session_id: `s-${player}`, data })
  await ingest([
    e('a', 'app_install', { source: 'ads' }),
    e('a', 'purchase', { amount: 10, currency: 'USD' }),
    e('b', 'app_install'),
    e('b', 'purchase', { amount: 4, currency: 'USD' }),
    e('b', 'boss_fight'),
    e('c', 'boss_fight'),
    e('c', 'boss_fight'),
  ])
  t.clock.set(D0 + DAY)
  await ingest([
    e('b', 'boss_fight'),
    e('b', 'purchase', { amount: 1, currency: 'USD' }),
    e('d', 'app_install'),
  ])
})
afterAll(() => t.close())

describe('0032: the (none) rows of the days stored before', () => {
  it('are filled from the stored aggregates: every grouping answers as the fold writes it now', async () => {
    const now = await Promise.all(REPORTS.map((r) => get<RevenueReport | AttributionReport>(r)))
    // Every player has a platform (the game's); every other grouping has players without a value.
    for (const [i, r] of now.entries())
      if (!REPORTS[i]!.endsWith('platform'))
        expect(
          r.data.map((x) => x.group),
          REPORTS[i],
        ).toContain('(none)')
    // The older fold's days: no '' rows of the profile dimensions.
    const dims = "('platform', 'affiliate', 'campaign', 'source', 'medium', 'link')"
    await sqlRows(t, `DELETE FROM game_daily_dims WHERE value = '' AND dim IN ${dims}`)
    await sqlRows(t, "DELETE FROM game_acquisition_daily WHERE value = ''")
    await sqlRows(t, "DELETE FROM game_dim_paying_gaps WHERE value = ''")
    const before = await get<AttributionReport>('attribution?groupBy=source')
    expect(before.data.map((x) => x.group)).toEqual(['ads'])
    for (const s of statements('0032_none_groups.sql')) await sqlRows(t, s)
    // The cost and commission of players without a value were never stored: this data set has none.
    const after = await Promise.all(REPORTS.map((r) => get<RevenueReport | AttributionReport>(r)))
    expect(after).toEqual(now)
  })
})

describe('0031: custom names of the days stored before', () => {
  it('answer uniquePlayers null over ranges holding those days; later days count them', async () => {
    const counted = await get<Events>('events')
    expect(counted.data.find((x) => x.eventType === 'boss_fight')).toMatchObject({
      count: 4,
      uniquePlayers: 2,
    })
    // The older fold's days: custom-name rows with events only; then the migration's UPDATE.
    await sqlRows(t, "UPDATE game_daily_dims SET players = 0 WHERE dim = 'custom_event'")
    for (const s of statements('0031_custom_event_players.sql').filter((x) => x.startsWith('UPDATE')))
      await sqlRows(t, s)
    const old = await get<Events>('events')
    expect(old.data.find((x) => x.eventType === 'boss_fight')).toMatchObject({
      count: 4,
      uniquePlayers: null,
    })
    // A late event on the older day after the upgrade: that day stays uncounted.
    t.clock.set(D0 + DAY + 3_600_000)
    await ingest([
      event(t, {
        player_id: 'e',
        event_type: 'boss_fight',
        timestamp: new Date(D0 + 6 * 3_600_000).toISOString(),
      }),
    ])
    expect(
      (await get<Events>('events', D0, D0)).data.find((x) => x.eventType === 'boss_fight'),
    ).toMatchObject({
      count: 4,
      uniquePlayers: null,
    })
    // Days after the upgrade count their players again.
    t.clock.set(D0 + 2 * DAY)
    await ingest([
      event(t, { player_id: 'b', event_type: 'boss_fight' }),
      event(t, { player_id: 'f', event_type: 'boss_fight' }),
      event(t, { player_id: 'f', event_type: 'boss_fight' }),
    ])
    const later = await get<Events>('events', D0 + 2 * DAY, D0 + 2 * DAY)
    expect(later.data.find((x) => x.eventType === 'boss_fight')).toMatchObject({ count: 3, uniquePlayers: 2 })
    const all = await get<Events>('events', D0, D0 + 2 * DAY)
    expect(all.data.find((x) => x.eventType === 'boss_fight')).toMatchObject({
      count: 8,
      uniquePlayers: null,
    })
  })
})
