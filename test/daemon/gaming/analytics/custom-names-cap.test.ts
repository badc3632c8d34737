/**
 * A player's day counts its first INGEST_LIMITS.customNamesPerPlayerDay distinct custom names per
 * name; names past that are stored and counted as events only: the events report gives them
 * uniquePlayers null, and retention by such a return event does not count that player's day.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { INGEST_LIMITS } from '../../../../src/contract/limits.js'
import { accepted, batch, createGame, event, send, storedEvents } from '../../../support/gaming.js'
import { createTestApp, type TestApp } from '../../../support/app.js'

const CAP = INGEST_LIMITS.customNamesPerPlayerDay
let t: TestApp
let game: GameWithSecrets
const get = (endpoint: string, query: string) =>
  t.call('GET', `/api/v1/analytics/games/${game.id}/${endpoint}?${query}`).then((r) => r.json())

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t)
  const o = { game, orgId: t.orgId }
  // Alice: an install, then CAP + 1 distinct names in two batches (the last name twice).
  const names = Array.from({ length: CAP + 1 }, (_, i) => `quest_${i}`)
  const alice = (type: string) => event(t, { event_type: type, player_id: 'alice', data: {} })
  accepted(await send(t, batch(t, [alice('app_install'), ...names.slice(0, 100).map(alice)]), o))
  accepted(await send(t, batch(t, [...names.slice(100).map(alice), alice(names[CAP]!)]), o))
  // Bob: the name Alice sent past her day's count, among his first.
  const bob = (type: string) => event(t, { event_type: type, player_id: 'bob', data: {} })
  accepted(await send(t, batch(t, [bob('app_install'), bob(names[CAP]!)]), o))
})
afterAll(() => t.close())

it('every event is stored and counted; a name past a player-day’s count has uniquePlayers null', async () => {
  expect(await storedEvents(t, game)).toBe(CAP + 5)
  const rows = (await get('events', '')).data as Array<{
    eventType: string
    count: number
    uniquePlayers: number | null
  }>
  const row = (type: string) => rows.find((r) => r.eventType === type)
  expect(row('quest_0')).toMatchObject({ count: 1, uniquePlayers: 1 })
  expect(row(`quest_${CAP - 1}`)).toMatchObject({ count: 1, uniquePlayers: 1 })
  expect(row(`quest_${CAP}`)).toMatchObject({ count: 3, uniquePlayers: null })
  expect(rows.reduce((n, r) => n + r.count, 0)).toBe(CAP + 5)
})

it('retention by a return event counts the days that count the name', async () => {
  const d0 = async (returnEvent: string) =>
    ((await get('retention', `returnEvent=${returnEvent}`)).data[0].days.d0 as { retained: number }).retained
  expect(await d0(`quest_${CAP - 1}`)).toBe(1)
  expect(await d0(`quest_${CAP}`)).toBe(1)
})
