/**
 * One click credits one install even when batches claiming it are stored at once: on PostgreSQL
 * two linkd processes (two pools) on one database, on SQLite one process (one writer). Each click
 * id is sent by several batches of different players at the same time; exactly one is credited.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { AttributionReport } from '../../../../src/contract/gaming-revenue.js'
import type { SmartLink } from '../../../../src/contract/smart-links.js'
import { createTestApp, sqlRows, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'
import { createTestDatabase, onPostgres } from '../../../support/postgres.js'
import { flush, SAFARI_IPHONE, visit } from '../../../support/redirect.js'

const CLICKS = 12
const RIVALS = 4
let shared: Awaited<ReturnType<typeof createTestDatabase>> | undefined
const apps: TestApp[] = []

beforeAll(async () => {
  shared = onPostgres ? await createTestDatabase() : undefined
  const options = {
    ...(shared ? { databaseUrl: shared.url } : {}),
    ingestRateLimitPerGame: 1_000_000,
    ingestRateLimitPerClient: 1_000_000,
  }
  apps.push(await createTestApp(options))
  if (shared) apps.push(await createTestApp(options, {}, { orgName: 'second-process' }))
})
afterAll(async () => {
  for (const t of apps) await t.close()
  await shared?.drop()
})

it('batches of different players claiming one click id at once: exactly one install is credited', async () => {
  const t = apps[0]!
  const game = await createGame(t, { slug: 'race' })
  const res = await t.call('POST', '/api/use/smart-links', {
    body: { fallbackUrl: 'https://example.com/?utm_source=x' },
  })
  const link = res.json<SmartLink>()
  const ids: string[] = []
  for (let i = 0; i < CLICKS; i++) {
    const v = await visit(t, link.shortCode, { ua: SAFARI_IPHONE })
    ids.push(new URL(String(v.headers.location)).searchParams.get('linkd_click')!)
  }
  // Another process finds a click once its recorder flushed it (every 500 ms in the daemon).
  await flush(t)
  const sends = ids.flatMap((id, c) =>
    Array.from({ length: RIVALS }, (_, k) => {
      const app = apps[(c + k) % apps.length]!
      const body = batch(t, [
        event(t, {
          event_id: randomUUID(),
          event_type: 'app_install',
          player_id: `p${c}-${k}`,
          data: { click_id: id },
        }),
      ])
      return send(app, body, { game, orgId: t.orgId }).then(accepted)
    }),
  )
  const results = await Promise.all(sends)
  expect(results.every((r) => r.accepted === 1)).toBe(true)

  const credited = await sqlRows<{ click_id: string; n: number }>(
    t,
    `SELECT click_id, COUNT(*) AS n FROM game_players WHERE click_id IS NOT NULL GROUP BY click_id ORDER BY click_id`,
  )
  expect(credited.map((r) => [r.click_id, Number(r.n)])).toEqual([...ids].sort().map((id) => [id, 1]))
  const claims = await sqlRows<{ click_id: string; player_id: string }>(
    t,
    'SELECT click_id, player_id FROM install_click_claims ORDER BY click_id',
  )
  const players = await sqlRows<{ click_id: string; player_id: string }>(
    t,
    'SELECT click_id, player_id FROM game_players WHERE click_id IS NOT NULL ORDER BY click_id',
  )
  expect(claims).toEqual(players)
  const report = await t.call('GET', `/api/v1/analytics/games/${game.id}/attribution?groupBy=link`)
  // The rivals that lost a click are installs without a link: the (none) row.
  expect(report.json<AttributionReport>().data).toEqual([
    expect.objectContaining({ group: '(none)', installs: CLICKS * (RIVALS - 1), shortUrl: null }),
    expect.objectContaining({ group: link.id, installs: CLICKS, shortUrl: link.shortUrl }),
  ])
})
