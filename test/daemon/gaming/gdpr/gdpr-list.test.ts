/**
 * GET /api/v1/gaming/gdpr/deletions: the organization's deletion records, newest first, in the
 * project's pages, filtered by game and status; a bad filter is a 400; another organization's
 * records are never listed; a completed record stays listed 365 days, then goes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../../src/contract/common.js'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { GdprDeletion } from '../../../../src/contract/gaming.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { createGame } from '../../../support/gaming.js'

const URL = '/api/v1/gaming/gdpr/deletions'
const DAY = 86_400_000

let t: TestApp
let first: GameWithSecrets
let second: GameWithSecrets

async function request(gameId: string, playerId: string, key?: string): Promise<GdprDeletion> {
  const res = await t.call('POST', URL, {
    key,
    body: { gameId, playerId, reason: 'gdpr_request', confirmation: 'DELETE' },
  })
  expect(res.statusCode, res.body).toBe(202)
  return res.json<GdprDeletion>()
}

async function list(query = '', key?: string): Promise<PageOf<GdprDeletion>> {
  const res = await t.call('GET', `${URL}${query}`, { key })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<PageOf<GdprDeletion>>()
}
const players = (p: PageOf<GdprDeletion>) => p.data.map((d) => d.playerId)

beforeAll(async () => {
  t = await createTestApp()
  first = await createGame(t)
  second = await createGame(t)
  // Three in the first game (one a minute), the first two completed by the job, then two queued.
  await request(first.id, 'p1')
  t.clock.advance(60_000)
  await request(first.id, 'p2')
  expect(await t.app.linkd.scheduler.runNow('gdpr-deletions')).toMatchObject({ ran: true, status: 'ok' })
  t.clock.advance(60_000)
  await request(first.id, 'p3')
  t.clock.advance(60_000)
  await request(second.id, 'p4')
})
afterAll(() => t.close())

describe('GET /api/v1/gaming/gdpr/deletions', () => {
  it('lists every record of the organization, newest first, in the envelope', async () => {
    const all = await list()
    expect(all).toMatchObject({ total: 4, page: 1, perPage: 20, hasMore: false })
    expect(players(all)).toEqual(['p4', 'p3', 'p2', 'p1'])
    expect(all.data[2]).toMatchObject({
      gameId: first.id,
      playerId: 'p2',
      status: 'completed',
      purged: expect.any(Object),
      completedAt: expect.any(String),
    })
    expect(all.data[0]).toMatchObject({ gameId: second.id, status: 'queued', completedAt: null })
  })

  it('filters by gameId and status, together; an unknown game lists nothing', async () => {
    expect(players(await list(`?gameId=${first.id}`))).toEqual(['p3', 'p2', 'p1'])
    expect(players(await list('?status=completed'))).toEqual(['p2', 'p1'])
    expect(players(await list('?status=queued'))).toEqual(['p4', 'p3'])
    expect(players(await list(`?gameId=${first.id}&status=queued`))).toEqual(['p3'])
    expect(await list('?gameId=no-such-game')).toMatchObject({ data: [], total: 0 })
  })

  it('pages of 10/20/50/100: page 2 of size 10 after 12 records', async () => {
    const other = await t.createOrg('gdpr-pages')
    const game = (
      await t.call('POST', '/api/v1/admin/games', {
        key: other.ownerKey,
        body: { name: 'Paged', platform: 'ios' },
      })
    ).json<GameWithSecrets>()
    for (let i = 0; i < 12; i++) {
      await request(game.id, `pp${String(i).padStart(2, '0')}`, other.ownerKey)
      t.clock.advance(1000)
    }
    const one = await list('?limit=10', other.ownerKey)
    expect(one).toMatchObject({ total: 12, page: 1, perPage: 10, hasMore: true })
    const two = await list('?limit=10&page=2', other.ownerKey)
    expect(two).toMatchObject({ total: 12, page: 2, perPage: 10, hasMore: false })
    expect(players(two)).toEqual(['pp01', 'pp00'])
  })

  it.each([
    ['?status=done', 'status'],
    ['?gameId=', 'gameId'],
    [`?gameId=${'g'.repeat(65)}`, 'gameId'],
    ['?limit=15', 'limit'],
    ['?page=0', 'page'],
  ])('%s is a 400 naming %s', async (query, field) => {
    const res = await t.call('GET', `${URL}${query}`)
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toMatchObject({ error: 'ValidationError' })
    expect(res.body).toContain(field)
  })

  it("another organization's records are never listed; the scope is gdpr:read", async () => {
    const other = await t.createOrg('gdpr-list-other')
    expect(await list('', other.ownerKey)).toMatchObject({ data: [], total: 0 })
    expect(await list(`?gameId=${first.id}`, other.ownerKey)).toMatchObject({ data: [], total: 0 })
    const reader = await t.createKey({ permissions: ['gdpr:read'] })
    expect((await list('', reader.key)).total).toBe(4)
    const noScope = await t.createKey({ permissions: ['analytics:read'] })
    expect((await t.call('GET', URL, { key: noScope.key })).statusCode).toBe(403)
  })

  it('a completed record stays listed 365 days after completion, then the purge job removes it', async () => {
    const completedAt = Date.parse((await list('?status=completed')).data.at(-1)!.completedAt!)
    t.clock.set(completedAt + 364 * DAY)
    await t.app.linkd.scheduler.runNow('gdpr-records-purge')
    expect(players(await list(`?gameId=${first.id}&status=completed`))).toEqual(['p2', 'p1'])
    t.clock.set(completedAt + 366 * DAY)
    await t.app.linkd.scheduler.runNow('gdpr-records-purge')
    expect(players(await list(`?gameId=${first.id}`))).toEqual(['p3'])
  })
})
