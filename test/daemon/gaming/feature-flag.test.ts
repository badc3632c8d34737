/**
 * NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED=false: gaming is absent (404s that say why,
 * no OpenAPI path, no discovery route, no job) and its data stays: a database written with gaming
 * on, reopened with it off, then on again.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp, JOB_NAMES, type TestApp } from '../../support/app.js'
import { createTestDatabase, onPostgres } from '../../support/postgres.js'
import { accepted, batch, createGame, event, send } from '../../support/gaming.js'
import { gamingPrefixes } from '../../../daemon/modules/gaming/off.js'

const dir = mkdtempSync(join(tmpdir(), 'linkd-gaming-flag-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const OFF = /gaming is turned off on this linkd/
const GAMING_JOBS = [
  'fraud-blocklist-expiry',
  'gaming-compaction',
  'gaming-raw-retention',
  'gdpr-deletions',
  'gdpr-records-purge',
]
const isGaming = (path: string) =>
  /^\/api\/v1\/(admin\/games|admin\/fraud|gaming|analytics|skan|fraud)|skadnetwork/.test(path)

/** A request to each kind of gaming route, with the owner key. */
const GAMING_CALLS: Array<[string, string]> = [
  ['GET', '/api/v1/admin/games'],
  ['POST', '/api/v1/admin/games'],
  ['GET', '/api/v1/admin/games/gam_x'],
  ['GET', '/api/v1/analytics/games/gam_x/overview'],
  ['POST', '/api/v1/gaming/events'],
  ['GET', '/api/v1/gaming/gdpr/deletions'],
  ['GET', '/api/v1/admin/fraud/games/gam_x'],
  ['GET', '/api/v1/skan/games/gam_x/campaigns'],
  ['POST', '/api/v1/skan/postbacks'],
  ['POST', '/.well-known/skadnetwork/report-attribution'],
]

async function expectGamingOff(t: TestApp, key?: string) {
  for (const [method, url] of GAMING_CALLS) {
    const res = await t.call(method as 'GET', url, { ...(key ? { key } : {}), body: {} })
    expect({ method, url, status: res.statusCode }).toEqual({ method, url, status: 404 })
    expect(res.json()).toMatchObject({ error: 'NotFound', message: expect.stringMatching(OFF) })
  }
}

describe('gaming turned off', () => {
  it('every gaming route answers 404 saying why; OpenAPI, discovery and jobs leave gaming out', async () => {
    const t = await createTestApp({ gamingEnabled: false })
    try {
      await expectGamingOff(t)
      // Without a key too: the path is gone, not forbidden.
      const anon = await t.call('GET', '/api/v1/admin/games', { key: null })
      expect(anon.statusCode).toBe(404)

      const doc = (await t.call('GET', '/api/docs/openapi.json')).json<{ paths: Record<string, unknown> }>()
      const paths = Object.keys(doc.paths)
      expect(paths).toContain('/api/use/links')
      expect(paths.filter(isGaming)).toEqual([])

      const use = (await t.call('GET', '/api/use', { key: null })).json<{
        features: { gaming: boolean }
        routes: Array<{ path: string }>
      }>()
      expect(use.features).toEqual({ gaming: false })
      expect(use.routes.some((r) => r.path === '/api/use/links')).toBe(true)
      expect(use.routes.filter((r) => isGaming(r.path))).toEqual([])

      const ready = (await t.call('GET', '/health/ready')).json<{ jobs: Array<{ name: string }> }>()
      expect(ready.jobs.map((j) => j.name)).toEqual(JOB_NAMES.filter((n) => !GAMING_JOBS.includes(n)))

      // Other modules: links work; a smart link naming a game is a 400 that says gaming is off.
      const smart = await t.call('POST', '/api/use/smart-links', {
        body: { fallbackUrl: 'https://example.com/play', gameId: 'gam_x' },
      })
      expect(smart.statusCode).toBe(400)
      expect(smart.json().message).toMatch(OFF)
      const plain = await t.call('POST', '/api/use/smart-links', {
        body: { fallbackUrl: 'https://example.com/p' },
      })
      expect(plain.statusCode).toBe(201)
    } finally {
      await t.close()
    }
  })

  it('with gaming on, discovery says so and lists the gaming routes', async () => {
    const t = await createTestApp()
    try {
      const use = (await t.call('GET', '/api/use', { key: null })).json<{
        features: { gaming: boolean }
        routes: Array<{ path: string }>
      }>()
      expect(use.features).toEqual({ gaming: true })
      expect(use.routes.some((r) => r.path === '/api/v1/admin/games')).toBe(true)
    } finally {
      await t.close()
    }
  })

  it('the data stays: written with gaming on, hidden while off, back when on again', async () => {
    const shared = onPostgres ? await createTestDatabase() : undefined
    const databaseUrl = shared?.url ?? `sqlite:${join(dir, 'linkd.db')}`
    const masterKey = randomBytes(32)
    const on = await createTestApp({ databaseUrl }, { masterKey })
    const game = await createGame(on, { name: 'Kept' })
    const o = { game, orgId: on.orgId }
    expect(accepted(await send(on, batch(on, [event(on)]), o)).accepted).toBe(1)
    const before = (await on.call('GET', `/api/v1/analytics/games/${game.id}/overview`)).json()
    const key = on.ownerKey
    const now = on.clock.now()
    await on.close()

    const off = await createTestApp({ databaseUrl, gamingEnabled: false }, { masterKey }, { orgName: 'off' })
    try {
      off.clock.set(now)
      await expectGamingOff(off, key)
      expect((await send(off, batch(off, [event(off)]), o)).statusCode).toBe(404)
    } finally {
      await off.close()
    }

    const again = await createTestApp({ databaseUrl }, { masterKey }, { orgName: 'again' })
    try {
      again.clock.set(now)
      const games = await again.call('GET', '/api/v1/admin/games', { key })
      expect(games.statusCode).toBe(200)
      expect(games.json().data.map((g: { name: string }) => g.name)).toEqual(['Kept'])
      const after = await again.call('GET', `/api/v1/analytics/games/${game.id}/overview`, { key })
      expect(after.json()).toEqual(before)
      // The SDK key still ingests.
      expect(accepted(await send(again, batch(again, [event(again)]), o)).accepted).toBe(1)
    } finally {
      await again.close()
      await shared?.drop()
    }
  })
})

describe('gamingPrefixes', () => {
  it('cuts each path at its first parameter and keeps the outermost prefixes', () => {
    expect(
      gamingPrefixes([
        '/api/v1/admin/games',
        '/api/v1/admin/games/:gameId/sdk-key',
        '/api/v1/analytics/games/:gameId/overview',
        '/api/v1/gaming/events',
        '/.well-known/skadnetwork/report-attribution/',
      ]),
    ).toEqual([
      '/.well-known/skadnetwork/report-attribution',
      '/api/v1/admin/games',
      '/api/v1/analytics/games',
      '/api/v1/gaming/events',
    ])
  })

  it('refuses a prefix that would cover other modules (one segment)', () => {
    expect(() => gamingPrefixes(['/api/:x'])).toThrow(/too short/)
  })
})
