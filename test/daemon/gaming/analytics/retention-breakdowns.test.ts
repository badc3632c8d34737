/**
 * Retention by group and by return event on a small game over three days: a source known only
 * from a later day moves the player's earlier days to it, a custom returnEvent counts by name,
 * bad input is a 400, and migration 0033's statements give back the groups of days stored before.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { Retention } from '../../../../src/contract/gaming.js'
import { createTestApp, sqlRows, type TestApp } from '../../../support/app.js'
import { gameIdOf } from '../../../support/fraud.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

const DAY = 86_400_000
const D0 = Date.UTC(2026, 10, 10, 12)
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
let t: TestApp
let game: GameWithSecrets

const ingest = async (events: unknown[]) =>
  accepted(await send(t, batch(t, events), { game, orgId: t.orgId }))
const e = (player: string, type: string, data: Record<string, unknown> = {}) =>
  event(t, { player_id: player, event_type: type, session_id: `s-${player}`, data })

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  t.clock.set(D0)
  game = await createGame(t)
  // Day 0: a (source ads), b (no source yet), c (none ever) install.
  await ingest([e('a', 'app_install', { source: 'ads' }), e('b', 'app_install'), e('c', 'app_install')])
  t.clock.set(D0 + DAY)
  // Day 1: b tells its source now; a and b come back, a with a custom event.
  await ingest([e('b', 'level_start', { source: 'ads' }), e('a', 'chest.opened'), e('c', 'chest.opened.big')])
})
afterAll(() => t.close())

async function retention(query: string): Promise<Retention> {
  const res = await t.call(
    'GET',
    `/api/v1/analytics/games/${game.id}/retention?startDate=${iso(D0)}&endDate=${iso(D0)}&${query}`,
  )
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Retention>()
}
const cell = (retained: number, size: number) => {
  const percentage = Math.round((10_000 * retained) / size) / 100
  const band =
    percentage >= 50
      ? 'green'
      : percentage >= 30
        ? 'yellow'
        : percentage >= 15
          ? 'amber'
          : percentage > 0
            ? 'red'
            : 'none'
  return { retained, percentage, band }
}
const days = (d0: number, d1: number, size: number) => ({
  d0: cell(d0, size),
  d1: cell(d1, size),
  d3: null,
  d7: null,
  d14: null,
  d30: null,
})

describe('retention breakdowns', () => {
  it("groupBy source: b's install day moved to ads when its source became known; c stays (none)", async () => {
    expect((await retention('groupBy=source')).data).toEqual([
      { group: 'ads', cohort: iso(D0), size: 2, days: days(2, 2, 2) },
      { group: '(none)', cohort: iso(D0), size: 1, days: days(1, 1, 1) },
    ])
  })

  it('returnEvent by a custom name counts the players who sent that name, not another custom one', async () => {
    expect((await retention('returnEvent=chest.opened')).data).toEqual([
      { cohort: iso(D0), size: 3, days: days(0, 1, 3) },
    ])
    expect((await retention('returnEvent=app_install&groupBy=source')).data).toEqual([
      { group: 'ads', cohort: iso(D0), size: 2, days: days(2, 0, 2) },
      { group: '(none)', cohort: iso(D0), size: 1, days: days(1, 0, 1) },
    ])
  })

  it('an unknown groupBy or a returnEvent that is not an event type is a 400 naming it', async () => {
    for (const [query, field] of [
      ['groupBy=device', 'groupBy'],
      ['returnEvent=1bad', 'returnEvent'],
      [`returnEvent=${'x'.repeat(65)}`, 'returnEvent'],
    ]) {
      const res = await t.call('GET', `/api/v1/analytics/games/${game.id}/retention?${query}`)
      expect(res.statusCode, query).toBe(400)
      expect(res.body, query).toContain(field)
    }
  })
})

describe('returnEvent when events come late and out of order', () => {
  let late: GameWithSecrets
  const at = (player: string, type: string, ts: number, data: Record<string, unknown> = {}) =>
    event(t, {
      player_id: player,
      event_type: type,
      session_id: `s-${player}`,
      data,
      timestamp: new Date(ts).toISOString(),
    })
  const get = async (day: number, query: string) => {
    const res = await t.call(
      'GET',
      `/api/v1/analytics/games/${late.id}/retention?startDate=${iso(day)}&endDate=${iso(day)}&${query}`,
    )
    expect(res.statusCode, res.body).toBe(200)
    return res.json<Retention>().data
  }

  beforeAll(async () => {
    late = await createGame(t)
    t.clock.set(D0 + DAY)
    const send2 = async (events: unknown[]) =>
      accepted(await send(t, batch(t, events), { game: late, orgId: t.orgId }))
    // m first seen on day 1, n installs on day 1.
    await send2([at('m', 'level_complete', D0 + DAY), at('n', 'app_install', D0 + DAY)])
    // m's older install (day 0, 23:00) arrives later: m's cohort is day 0 now, its level_complete
    // on day 1 is its D1; n completes a level on its install day.
    await send2([at('m', 'app_install', D0 + 11 * 3_600_000), at('n', 'level_complete', D0 + DAY + 60_000)])
    // m's source, known only now: m's days move to ads.
    await send2([at('m', 'session_start', D0 + DAY + 120_000, { source: 'ads' })])
  })

  it("the install day moved back: the type's day counts in the older cohort, under the value known later", async () => {
    const one = (d0: number, d1: number) => ({ ...days(d0, d1, 1) })
    expect(await get(D0, 'returnEvent=level_complete')).toEqual([
      { cohort: iso(D0), size: 1, days: one(0, 1) },
    ])
    expect(await get(D0, 'returnEvent=app_install&groupBy=source')).toEqual([
      { group: 'ads', cohort: iso(D0), size: 1, days: one(1, 0) },
    ])
    expect(await get(D0, 'returnEvent=level_complete&groupBy=source')).toEqual([
      { group: 'ads', cohort: iso(D0), size: 1, days: one(0, 1) },
    ])
    const d1 = { ...days(1, 0, 1), d1: null }
    expect(await get(D0 + DAY, 'returnEvent=level_complete&groupBy=source')).toEqual([
      { group: '(none)', cohort: iso(D0 + DAY), size: 1, days: d1 },
    ])
  })
})

describe('0033 on days stored before it', () => {
  it('fills game_cohort_dims from the player-days and profiles as the fold writes them', async () => {
    const id = await gameIdOf(t, game.id)
    const rows = () =>
      sqlRows(
        t,
        'SELECT dim, install_day, day_offset, value, players FROM game_cohort_dims WHERE game_id = ? AND players <> 0 ORDER BY dim, install_day, day_offset, value',
        id,
      )
    const folded = await rows()
    expect(folded.length).toBeGreaterThan(0)
    await sqlRows(t, 'DELETE FROM game_cohort_dims')
    const file = join(
      import.meta.dirname,
      '..',
      '..',
      '..',
      '..',
      'daemon',
      'db',
      'migrations',
      '0033_funnels_retention_groups.sql',
    )
    const backfill = readFileSync(file, 'utf8')
      .split(/;\s*\n/)
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .find((s) => s.startsWith('INSERT INTO game_cohort_dims'))!
    await sqlRows(t, backfill)
    expect(await rows()).toEqual(folded)
  })
})
