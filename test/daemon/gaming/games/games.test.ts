/** Game admin routes: create, list, get, update, SDK key regeneration. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Game, GameWithSecrets } from '../../../../src/contract/games.js'
import type { PageOf } from '../../../../src/contract/common.js'
import { createTestApp, type TestApp, sqlRows } from '../../../support/app.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

async function create(body: Record<string, unknown>): Promise<GameWithSecrets> {
  const res = await t.call('POST', '/api/v1/admin/games', { body })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<GameWithSecrets>()
}

describe('games admin', () => {
  it('creates a game with defaults; the SDK key and signing secret are shown once', async () => {
    const g = await create({ name: 'Space Shooter!', platform: 'ios' })
    expect(g).toMatchObject({
      id: 'space-shooter',
      name: 'Space Shooter!',
      platform: 'ios',
      status: 'active',
      modules: { analytics: true, fraud: false, skan: false },
      rawRetentionDays: 30,
      compactedRetentionMonths: 12,
      hmacRequired: false,
      replayWindowSeconds: 300,
      organizationId: t.orgId,
    })
    expect(g.sdkKey).toMatch(/^sdk_[A-Za-z0-9]{32}$/)
    expect(g.signingSecret).toMatch(/^sig_/)
    expect(g.sdkKeyPreview).toBe(`sdk_•••${g.sdkKey.slice(-4)}`)
    const got = await t.call('GET', '/api/v1/admin/games/space-shooter')
    expect(got.statusCode).toBe(200)
    expect(got.json()).not.toHaveProperty('sdkKey')
    expect(got.json()).not.toHaveProperty('signingSecret')
    // Stored hashed / encrypted, never in clear.
    const row = (await sqlRows(t, "SELECT * FROM games WHERE slug = 'space-shooter'"))[0] as Record<
      string,
      unknown
    >
    expect(JSON.stringify(row)).not.toContain(g.sdkKey)
    expect(JSON.stringify(row)).not.toContain(g.signingSecret)
  })

  it('generated slugs are suffixed when taken; an explicit slug that is taken is 409', async () => {
    const a = await create({ name: 'Puzzle Land', platform: 'web' })
    const b = await create({ name: 'Puzzle  Land', platform: 'web', slug: '' })
    expect([a.id, b.id]).toEqual(['puzzle-land', 'puzzle-land-2'])
    const dup = await t.call('POST', '/api/v1/admin/games', {
      body: { name: 'Other', platform: 'web', slug: 'puzzle-land' },
    })
    expect(dup.statusCode).toBe(409)
    expect(dup.json()).toMatchObject({ error: 'Conflict', statusCode: 409 })
  })

  it('validates the fields at their limits', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await t.call('POST', '/api/v1/admin/games', {
        body: { name: 'Okay', platform: 'ios', ...body },
      })
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json<{ details: { field: string }[] }>().details.map((d) => d.field)).toContain(field)
    }
    await bad({ name: 'x' }, 'name')
    await bad({ name: 'x'.repeat(121) }, 'name')
    await bad({ platform: 'gameboy' }, 'platform')
    await bad({ slug: 'a' }, 'slug')
    await bad({ slug: 'has space' }, 'slug')
    await bad({ slug: 'x'.repeat(65) }, 'slug')
    await bad({ rawRetentionDays: 0 }, 'rawRetentionDays')
    await bad({ rawRetentionDays: 3651 }, 'rawRetentionDays')
    await bad({ compactedRetentionMonths: 121 }, 'compactedRetentionMonths')
    await bad({ replayWindowSeconds: 59 }, 'replayWindowSeconds')
    await bad({ replayWindowSeconds: 601 }, 'replayWindowSeconds')
    await bad({ modules: { analytics: true, billing: true } }, 'modules.billing')
    const ok = await create({
      name: 'xy',
      platform: 'switch',
      slug: 'x'.repeat(64),
      rawRetentionDays: 3650,
      compactedRetentionMonths: 120,
      replayWindowSeconds: 600,
    })
    expect(ok.id).toHaveLength(64)
  })

  it('updates settings; slug and platform are read-only', async () => {
    await create({ name: 'Racer', platform: 'android' })
    const res = await t.call('PATCH', '/api/v1/admin/games/racer', {
      body: { status: 'paused', modules: { fraud: true }, hmacRequired: true, replayWindowSeconds: 60 },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<Game>()).toMatchObject({
      status: 'paused',
      modules: { analytics: true, fraud: true, skan: false },
      hmacRequired: true,
      replayWindowSeconds: 60,
    })
    for (const body of [{ platform: 'ios' }, { slug: 'other' }]) {
      const r = await t.call('PATCH', '/api/v1/admin/games/racer', { body })
      expect(r.statusCode).toBe(400)
      expect(r.json<{ message: string }>().message).toMatch(/cannot be changed/)
    }
    const same = await t.call('PATCH', '/api/v1/admin/games/racer', { body: { platform: 'android' } })
    expect(same.statusCode).toBe(200)
    expect(same.json<Game>()).toMatchObject({ id: 'racer', platform: 'android', status: 'paused' })
  })

  it('lists with the pagination envelope and a status filter', async () => {
    const all = (await t.call('GET', '/api/v1/admin/games?limit=10')).json<PageOf<Game>>()
    expect(all.total).toBeGreaterThanOrEqual(5)
    expect(all.perPage).toBe(10)
    const paused = (await t.call('GET', '/api/v1/admin/games?status=paused')).json<PageOf<Game>>()
    expect(paused.data.map((g) => g.id)).toEqual(['racer'])
  })

  it('regenerating gives a new key and secret', async () => {
    const g = await create({ name: 'Regen', platform: 'steam' })
    const res = await t.call('POST', '/api/v1/admin/games/regen/sdk-key')
    expect(res.statusCode).toBe(200)
    const r = res.json<GameWithSecrets>()
    expect(r.sdkKey).not.toBe(g.sdkKey)
    expect(r.signingSecret).not.toBe(g.signingSecret)
    expect(r.sdkKey).toMatch(/^sdk_[A-Za-z0-9]{32}$/)
    expect(r.signingSecret).toMatch(/^sig_/)
    expect(r).toMatchObject({ id: 'regen', sdkKeyPreview: `sdk_•••${r.sdkKey.slice(-4)}` })
    // Reads show the new key's preview.
    expect((await t.call('GET', '/api/v1/admin/games/regen')).json<Game>().sdkKeyPreview).toBe(
      r.sdkKeyPreview,
    )
  })

  it('scopes games:read / games:write; another organization sees 404', async () => {
    const reader = await t.createKey({ permissions: ['games:read'] })
    expect((await t.call('GET', '/api/v1/admin/games', { key: reader.key })).statusCode).toBe(200)
    const w = await t.call('POST', '/api/v1/admin/games', {
      key: reader.key,
      body: { name: 'Nope', platform: 'ios' },
    })
    expect(w.statusCode).toBe(403)
    const other = await t.createOrg('other-org')
    expect((await t.call('GET', '/api/v1/admin/games/racer', { key: other.ownerKey })).statusCode).toBe(404)
    expect((await t.call('GET', '/api/v1/admin/games', { key: null })).statusCode).toBe(401)
  })
})
