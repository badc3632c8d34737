/**
 * A day that its month does not have (2026-02-30) as startDate: every route taking startDate (the
 * OpenAPI document's list) answers the same 400, naming startDate in the same words as for a
 * date that is not one (never a range rolled over to March, never a second wording).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATE_PARAM_WORDS } from '../../../src/contract/text.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createGame } from '../../support/gaming.js'
import { makeLink } from '../../support/redirect.js'
import { expectError } from '../../support/responses.js'

interface Parameter {
  name: string
  in: string
  required?: boolean
}

let t: TestApp
let routes: string[]
beforeAll(async () => {
  t = await createTestApp()
  const game = await createGame(t, { modules: { analytics: true, fraud: true, skan: false } })
  const link = await makeLink(t)
  const doc = (await t.call('GET', '/api/docs/json')).json<{
    paths: Record<string, { get?: { parameters?: Parameter[] } }>
  }>()
  const fill: Record<string, string> = {
    id: link.id,
    gameId: game.id,
    steps: 'a,b',
  }
  routes = Object.entries(doc.paths).flatMap(([path, ops]) => {
    const params = ops.get?.parameters ?? []
    if (!params.some((p) => p.name === 'startDate' && p.in === 'query')) return []
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => fill[name]!)
    // The one other required parameter, type: of the raw export, or of a game's report export.
    const type = path.endsWith('/games/{gameId}/export') ? 'events' : 'raw_events'
    const query = params
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => `${p.name}=${encodeURIComponent(fill[p.name] ?? type)}`)
    return [`${url}?${[...query, 'startDate=DAY'].join('&')}`]
  })
})
afterAll(() => t.close())

describe('startDate of every route that takes it', () => {
  it('a malformed date and a day its month does not have: one 400, in one wording', async () => {
    expect(routes.length).toBeGreaterThanOrEqual(10)
    for (const route of routes)
      for (const day of ['2026-02-30', '2026-13-01', '30.02.2026']) {
        const url = route.replace('DAY', day)
        const res = await t.call('GET', url)
        expect(res.statusCode, url).toBe(400)
        const body = expectError(res, 400, 'ValidationError')
        expect({ url, message: body.message, details: body.details }).toEqual({
          url,
          message: `startDate ${DATE_PARAM_WORDS}`,
          details: [{ field: 'startDate', message: DATE_PARAM_WORDS }],
        })
      }
  })
})
