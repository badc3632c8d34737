/**
 * Smart links as a resource: CRUD, the envelope list, organization isolation, scopes, the
 * short-code namespace shared with links (both ways), the two resources never seeing each
 * other's rows, and the error bodies of bad input at the limits.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { detailFields, expectError } from '../../support/responses.js'
import { makeLink } from '../../support/redirect.js'
import { createGame } from '../../support/gaming.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'
import type { PageOf } from '../../../src/contract/common.js'

let t: TestApp
beforeEach(async () => {
  t = await createTestApp()
})
afterEach(() => t.close())

const IOS = 'https://apps.apple.com/app/id1234567890'
const PLAY = 'https://play.google.com/store/apps/details?id=com.example.game'
const STEAM = 'https://store.steampowered.com/app/123456/'
const FALLBACK = 'https://example.com/game'

async function makeSmart(body: Record<string, unknown> = {}, key?: string): Promise<SmartLink> {
  const res = await t.call('POST', '/api/use/smart-links', {
    body: { fallbackUrl: FALLBACK, ...body },
    ...(key ? { key } : {}),
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<SmartLink>()
}

describe('smart links CRUD', () => {
  it('creates, gets, lists, updates and deletes a smart link', async () => {
    const game = await createGame(t, { slug: 'space-race' })
    const s = await makeSmart({
      ios: { url: IOS },
      android: { url: PLAY },
      title: 'Play now',
      tags: ['launch', 'launch', ' spring '],
      shortCode: 'play-now',
      gameId: game.id,
    })
    expect(s).toEqual({
      id: expect.stringMatching(/^sml_/),
      shortUrl: `${t.config.publicUrl}/play-now`,
      shortCode: 'play-now',
      customDomainId: null,
      title: 'Play now',
      tags: ['launch', 'spring'],
      fallbackUrl: FALLBACK,
      ios: { url: IOS },
      android: { url: PLAY },
      desktop: null,
      appendClickId: true,
      gameId: game.id,
      variants: [],
      clicks: 0,
      createdAt: new Date(t.clock.now()).toISOString(),
      updatedAt: new Date(t.clock.now()).toISOString(),
    })
    const generated = await makeSmart({ appendClickId: false })
    expect(generated.shortCode).toMatch(/^[A-Za-z0-9]{7}$/)
    expect(generated.appendClickId).toBe(false)

    expect((await t.call('GET', `/api/use/smart-links/${s.id}`)).json()).toEqual(s)

    const page = (await t.call('GET', '/api/use/smart-links')).json<PageOf<SmartLink>>()
    expect(page.data.map((x) => x.id).sort()).toEqual([s.id, generated.id].sort())
    expect(page).toMatchObject({ total: 2, page: 1, hasMore: false })
    const byTarget = (await t.call('GET', '/api/use/smart-links?search=steampowered')).json<
      PageOf<SmartLink>
    >()
    expect(byTarget.data).toEqual([])
    const byPlay = (await t.call('GET', '/api/use/smart-links?search=play.google')).json<PageOf<SmartLink>>()
    expect(byPlay.data.map((x) => x.id)).toEqual([s.id])
    const byTag = (await t.call('GET', '/api/use/smart-links?tag=spring')).json<PageOf<SmartLink>>()
    expect(byTag.data.map((x) => x.id)).toEqual([s.id])
    const paged = (await t.call('GET', '/api/use/smart-links?perPage=10&page=2')).json<PageOf<SmartLink>>()
    expect(paged).toMatchObject({ data: [], total: 2, page: 2, perPage: 10, hasMore: false })

    t.clock.advance(1000)
    const patched = await t.call('PATCH', `/api/use/smart-links/${s.id}`, {
      body: { ios: null, desktop: { url: STEAM }, title: null, shortCode: 'play-later', gameId: null },
    })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json()).toMatchObject({
      ios: null,
      android: { url: PLAY },
      desktop: { url: STEAM },
      title: null,
      shortCode: 'play-later',
      shortUrl: `${t.config.publicUrl}/play-later`,
      gameId: null,
      updatedAt: new Date(t.clock.now()).toISOString(),
    })

    expect((await t.call('DELETE', `/api/use/smart-links/${s.id}`)).statusCode).toBe(204)
    expectError(await t.call('GET', `/api/use/smart-links/${s.id}`), 404, 'NotFound')
    expectError(await t.call('DELETE', `/api/use/smart-links/${s.id}`), 404, 'NotFound')
  })

  it('links and smart links never see each other (404 both ways, separate lists)', async () => {
    const link = await makeLink(t)
    const smart = await makeSmart()
    for (const method of ['GET', 'DELETE'] as const) {
      expectError(await t.call(method, `/api/use/links/${smart.id}`), 404, 'NotFound')
      expectError(await t.call(method, `/api/use/smart-links/${link.id}`), 404, 'NotFound')
    }
    expectError(
      await t.call('PATCH', `/api/use/links/${smart.id}`, { body: { title: 'x' } }),
      404,
      'NotFound',
    )
    expectError(
      await t.call('PATCH', `/api/use/smart-links/${link.id}`, { body: { title: 'x' } }),
      404,
      'NotFound',
    )
    const links = (await t.call('GET', '/api/use/links')).json<PageOf<{ id: string }>>()
    expect(links.data.map((l) => l.id)).toEqual([link.id])
    expect(links.total).toBe(1)
    const smarts = (await t.call('GET', '/api/use/smart-links')).json<PageOf<SmartLink>>()
    expect(smarts.data.map((l) => l.id)).toEqual([smart.id])
    // Both still exist.
    expect((await t.call('GET', `/api/use/links/${link.id}`)).statusCode).toBe(200)
    expect((await t.call('GET', `/api/use/smart-links/${smart.id}`)).statusCode).toBe(200)
  })

  it("answers 404 for another organization's smart link", async () => {
    const other = await t.createOrg('other')
    const s = await makeSmart({}, other.ownerKey)
    expectError(await t.call('GET', `/api/use/smart-links/${s.id}`), 404, 'NotFound')
    expectError(
      await t.call('PATCH', `/api/use/smart-links/${s.id}`, { body: { title: 'x' } }),
      404,
      'NotFound',
    )
    expectError(await t.call('DELETE', `/api/use/smart-links/${s.id}`), 404, 'NotFound')
    expectError(await t.call('GET', `/api/use/analytics/links/${s.id}`), 404, 'NotFound')
    expect((await t.call('GET', '/api/use/smart-links')).json<PageOf<SmartLink>>().data).toEqual([])
    expect((await t.call('GET', `/api/use/smart-links/${s.id}`, { key: other.ownerKey })).statusCode).toBe(
      200,
    )
  })

  it('enforces smartLinks:read, smartLinks:write and smartLinks:delete', async () => {
    const s = await makeSmart()
    const reader = (await t.createKey({ name: 'reader', permissions: ['smartLinks:read'] })).key
    const writer = (
      await t.createKey({ name: 'writer', permissions: ['smartLinks:read', 'smartLinks:write'] })
    ).key
    const linksOnly = (await t.createKey({ name: 'links', permissions: ['links:read', 'links:write'] })).key
    expectError(
      await t.call('POST', '/api/use/smart-links', { body: { fallbackUrl: FALLBACK }, key: reader }),
      403,
      'Forbidden',
    )
    expectError(
      await t.call('PATCH', `/api/use/smart-links/${s.id}`, { body: { title: 'x' }, key: reader }),
      403,
      'Forbidden',
    )
    expect((await t.call('GET', `/api/use/smart-links/${s.id}`, { key: reader })).statusCode).toBe(200)
    expectError(await t.call('GET', '/api/use/smart-links', { key: linksOnly }), 403, 'Forbidden')
    expectError(
      await t.call('POST', '/api/use/smart-links', { body: { fallbackUrl: FALLBACK }, key: linksOnly }),
      403,
      'Forbidden',
    )
    expect(
      (await t.call('POST', '/api/use/smart-links', { body: { fallbackUrl: FALLBACK }, key: writer }))
        .statusCode,
    ).toBe(201)
    expectError(await t.call('DELETE', `/api/use/smart-links/${s.id}`, { key: writer }), 403, 'Forbidden')
    expect((await t.call('GET', `/api/use/smart-links/${s.id}`)).statusCode).toBe(200)
  })
})

describe('the short-code namespace is shared with links', () => {
  it('answers 409 both ways, on create and on a move', async () => {
    await makeLink(t, { customSlug: 'taken-by-link' })
    const s = await makeSmart({ shortCode: 'taken-by-smart' })
    const e1 = expectError(
      await t.call('POST', '/api/use/smart-links', {
        body: { fallbackUrl: FALLBACK, shortCode: 'taken-by-link' },
      }),
      409,
      'Conflict',
    )
    expect(e1.details).toEqual([{ field: 'shortCode', message: 'already in use on this domain' }])
    expectError(
      await t.call('POST', '/api/use/links', {
        body: { destinationUrl: 'https://example.com/x', customSlug: 'taken-by-smart' },
      }),
      409,
      'Conflict',
    )
    expectError(
      await t.call('PATCH', `/api/use/smart-links/${s.id}`, { body: { shortCode: 'taken-by-link' } }),
      409,
      'Conflict',
    )
    const other = await makeLink(t)
    expectError(
      await t.call('PATCH', `/api/use/links/${other.id}`, { body: { shortCode: 'taken-by-smart' } }),
      409,
      'Conflict',
    )
  })
})

describe('bad input', () => {
  const post = (body: Record<string, unknown>) => t.call('POST', '/api/use/smart-links', { body })

  it('answers 400 with the field for each bad create body, and accepts the limits', async () => {
    const url = (n: number) => `https://example.com/${'a'.repeat(n - 'https://example.com/'.length)}`
    expect(detailFields(expectErrorOf(await post({}), 400))).toContain('fallbackUrl')
    expect(detailFields(expectErrorOf(await post({ fallbackUrl: 'ftp://example.com/' }), 400))).toContain(
      'fallbackUrl',
    )
    expect((await post({ fallbackUrl: url(2048), ios: { url: url(2048) } })).statusCode).toBe(201)
    expect(detailFields(expectErrorOf(await post({ fallbackUrl: url(2049) }), 400))).toContain('fallbackUrl')
    expect(
      detailFields(expectErrorOf(await post({ fallbackUrl: FALLBACK, android: { url: url(2049) } }), 400)),
    ).toContain('android.url')
    expect(
      detailFields(
        expectErrorOf(await post({ fallbackUrl: FALLBACK, ios: { url: 'javascript:alert(1)' } }), 400),
      ),
    ).toContain('ios.url')
    expect(
      detailFields(expectErrorOf(await post({ fallbackUrl: FALLBACK, desktop: { href: STEAM } }), 400))
        .length,
    ).toBeGreaterThan(0)
    // Short codes: 3 to 64 characters of the slug alphabet, never a reserved word.
    expect((await post({ fallbackUrl: FALLBACK, shortCode: 'abc' })).statusCode).toBe(201)
    expect((await post({ fallbackUrl: FALLBACK, shortCode: 'x'.repeat(64) })).statusCode).toBe(201)
    expect(
      detailFields(expectErrorOf(await post({ fallbackUrl: FALLBACK, shortCode: 'ab' }), 400)),
    ).toContain('shortCode')
    expect(
      detailFields(expectErrorOf(await post({ fallbackUrl: FALLBACK, shortCode: 'y'.repeat(65) }), 400)),
    ).toContain('shortCode')
    expect(
      detailFields(expectErrorOf(await post({ fallbackUrl: FALLBACK, shortCode: 'a/b' }), 400)),
    ).toContain('shortCode')
    expect(
      detailFields(expectErrorOf(await post({ fallbackUrl: FALLBACK, shortCode: 'health' }), 400)),
    ).toContain('shortCode')
    // Never a short URL of this service (a loop).
    expect(
      detailFields(expectErrorOf(await post({ fallbackUrl: `${t.config.publicUrl}/abc` }), 400)),
    ).toContain('fallbackUrl')
    expect(
      detailFields(
        expectErrorOf(await post({ fallbackUrl: FALLBACK, ios: { url: `${t.config.publicUrl}/abc` } }), 400),
      ),
    ).toContain('ios.url')
    // Tags: at most 20.
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`)
    expect((await post({ fallbackUrl: FALLBACK, tags: tags(20) })).statusCode).toBe(201)
    expect(detailFields(expectErrorOf(await post({ fallbackUrl: FALLBACK, tags: tags(21) }), 400))).toContain(
      'tags',
    )
    expect(detailFields(expectErrorOf(await post({ fallbackUrl: FALLBACK, extra: 1 }), 400)).length).toBe(1)
    expectError(await post({ fallbackUrl: FALLBACK, customDomainId: 'dom_nope' }), 422, 'Unprocessable')
    // gameId: one of the organization's games.
    const other = await t.createOrg('other')
    const theirs = await t.call('POST', '/api/v1/admin/games', {
      body: { name: 'Theirs', platform: 'ios' },
      key: other.ownerKey,
    })
    expect(theirs.statusCode).toBe(201)
    for (const gameId of ['no-such-game', theirs.json<{ id: string }>().id]) {
      const e = expectError(await post({ fallbackUrl: FALLBACK, gameId }), 422, 'Unprocessable')
      expect(e.details).toEqual([{ field: 'gameId', message: 'not a game of this organization' }])
    }
    const s = (await post({ fallbackUrl: FALLBACK })).json<SmartLink>()
    expectError(
      await t.call('PATCH', `/api/use/smart-links/${s.id}`, { body: { gameId: 'no-such-game' } }),
      422,
      'Unprocessable',
    )
  })

  it('answers 400 for an empty or bad update', async () => {
    const s = await makeSmart()
    const patch = (body: unknown) => t.call('PATCH', `/api/use/smart-links/${s.id}`, { body })
    expectErrorOf(await patch({}), 400)
    expect(detailFields(expectErrorOf(await patch({ fallbackUrl: 'nope' }), 400))).toContain('fallbackUrl')
    expect(detailFields(expectErrorOf(await patch({ appendClickId: 'yes' }), 400))).toContain('appendClickId')
    expect((await t.call('GET', `/api/use/smart-links/${s.id}`)).json()).toEqual(s)
  })
})

function expectErrorOf(res: Awaited<ReturnType<TestApp['call']>>, status: number) {
  expectError(res, status, 'ValidationError')
  return res
}
