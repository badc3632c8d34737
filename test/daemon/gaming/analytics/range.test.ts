/** The date range of gaming analytics: a day that does not exist is a 400 naming it, never another day. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { createGame } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
beforeAll(async () => {
  t = await createTestApp()
  game = await createGame(t)
})
afterAll(() => t.close())

const overview = (query: string) => t.call('GET', `/api/v1/analytics/games/${game.id}/overview?${query}`)

describe('overview date range', () => {
  it('refuses days that do not exist, naming the parameter', async () => {
    for (const [query, field] of [
      ['startDate=2026-02-30&endDate=2026-03-10', 'startDate'],
      ['startDate=2026-01-01&endDate=2026-13-01', 'endDate'],
      ['startDate=2026-04-31', 'startDate'],
      ['endDate=2026-02-29T00:00:00Z', 'endDate'],
      ['startDate=2026-01-00', 'startDate'],
    ] as const) {
      const res = await overview(query)
      expect(res.statusCode, query).toBe(400)
      expect(res.json()).toMatchObject({ error: 'ValidationError', statusCode: 400 })
      expect(res.json().details[0].field, query).toBe(field)
    }
  })

  it('accepts real days, leap days included, and answers the range asked for', async () => {
    const res = await overview('startDate=2024-02-29&endDate=2024-03-01')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().range).toEqual({ startDate: '2024-02-29', endDate: '2024-03-01' })
  })
})

describe('the range rule of every analytics endpoint (contract: at most 366 days)', () => {
  const ENDPOINTS = ['overview', 'retention', 'leaderboard', 'geography', 'events', 'export?type=events&']
  const url = (endpoint: string, query: string) =>
    `/api/v1/analytics/games/${game.id}/${endpoint}${endpoint.includes('?') ? '' : '?'}${query}`

  it.each(ENDPOINTS)('%s: 366 days pass, 367 are a 400 naming startDate', async (endpoint) => {
    const ok = await t.call('GET', url(endpoint, 'startDate=2025-01-01&endDate=2026-01-01'))
    expect(ok.statusCode, ok.body).toBe(200)
    const tooLong = await t.call('GET', url(endpoint, 'startDate=2024-12-31&endDate=2026-01-01'))
    expect(tooLong.statusCode, tooLong.body).toBe(400)
    expect(tooLong.json()).toMatchObject({ error: 'ValidationError', details: [{ field: 'startDate' }] })
  })
})
