import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import type { EventEnvelope } from '../../../daemon/events.js'
import { detailFields, expectError } from '../../support/responses.js'
import { LINK_FIELDS, createLink, iso } from '../../support/links.js'
import type { Link } from '../../../src/contract/links.js'

const HOUR = 3_600_000
const NOW = '2026-11-21T10:00:00.000Z'
const PUBLIC = 'https://sho.rt'

/** A URL of exactly `length` characters. */
const urlOf = (length: number) => {
  const base = 'https://example.com/'
  return base + 'a'.repeat(length - base.length)
}

describe('links API: create', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp({ publicUrl: PUBLIC })
  })
  afterEach(() => t.close())

  const post = (body: Record<string, unknown>) =>
    t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/', ...body } })
  /** The Link of a 201, failing the test with the body on any other status. */
  const created = async (body: Record<string, unknown>) => {
    const res = await post(body)
    expect(res.statusCode, res.body).toBe(201)
    return res.json<Link>()
  }
  const expect400 = async (body: Record<string, unknown>, field: string) => {
    const res = await post(body)
    expectError(res, 400, 'ValidationError', '/api/use/links')
    expect(detailFields(res), JSON.stringify(body).slice(0, 200)).toContain(field)
  }

  it('creates a link with a generated 7-character code, shortUrl on the public URL: 201 and the Link', async () => {
    const res = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/landing?a=1' },
    })
    expect(res.statusCode).toBe(201)
    const l = res.json()
    expect(Object.keys(l).sort()).toEqual(LINK_FIELDS)
    expect(l.id).toMatch(/^lnk_[a-z0-9]+$/)
    expect(l.shortCode).toMatch(/^[A-Za-z0-9]{7}$/)
    expect(l).toMatchObject({
      shortUrl: `${PUBLIC}/${l.shortCode}`,
      destinationUrl: 'https://example.com/landing?a=1',
      title: null,
      status: 'active',
      clicks: 0,
      createdAt: NOW,
      updatedAt: NOW,
      tags: [],
      metadata: {},
      expiresAt: null,
      customDomainId: null,
      redirectType: 302,
    })
    expect((await t.call('GET', `/api/use/links/${l.id}`)).json()).toEqual(l)
  })

  it('keeps every optional field', async () => {
    const expiresAt = iso(t.clock.now() + 24 * HOUR)
    const l = await createLink(t, {
      destinationUrl: 'http://example.org/x',
      title: '  Launch page  ',
      customSlug: 'launch_2026-Q4',
      expiresAt,
      tags: [' promo ', 'promo', 'q4'],
      metadata: { campaign: 'q4', owner: { team: 'growth', ids: [1, 2] } },
      redirectType: 308,
      customDomainId: null,
    })
    expect(l).toMatchObject({
      shortCode: 'launch_2026-Q4',
      shortUrl: `${PUBLIC}/launch_2026-Q4`,
      title: 'Launch page',
      expiresAt,
      tags: ['promo', 'q4'],
      metadata: { campaign: 'q4', owner: { team: 'growth', ids: [1, 2] } },
      redirectType: 308,
    })
  })

  it('generated codes are distinct and never reserved', async () => {
    const codes = new Set<string>()
    for (let i = 0; i < 50; i++) codes.add((await createLink(t)).shortCode)
    expect(codes.size).toBe(50)
    for (const c of codes) expect(t.app.linkd.services.reserved.has(c), c).toBe(false)
  })

  it('destinationUrl: 2,048 characters pass, 2,049 fail; required', async () => {
    expect((await created({ destinationUrl: urlOf(2048) })).destinationUrl).toBe(urlOf(2048))
    await expect400({ destinationUrl: urlOf(2049) }, 'destinationUrl')
    const res = await t.call('POST', '/api/use/links', { body: { title: 'x' } })
    expectError(res, 400, 'ValidationError')
    expect(detailFields(res)).toContain('destinationUrl')
  })

  it('destinationUrl: only http(s) URLs with a host', async () => {
    for (const destinationUrl of [
      'ftp://example.com/file',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'mailto:someone@example.com',
      'example.com',
      'http://',
      'https://exa mple.com/',
      'https://example.com/a b',
      'https://example.com/\tx',
      '//example.com',
    ])
      await expect400({ destinationUrl }, 'destinationUrl')
    expect((await created({ destinationUrl: 'HTTPS://EXAMPLE.COM/Path' })).destinationUrl).toBe(
      'HTTPS://EXAMPLE.COM/Path',
    )
    expect((await created({ destinationUrl: 'http://intranet:3000/x' })).destinationUrl).toBe(
      'http://intranet:3000/x',
    )
  })

  it('title: 255 characters pass, 256 fail', async () => {
    expect((await post({ title: 't'.repeat(255) })).json().title).toBe('t'.repeat(255))
    await expect400({ title: 't'.repeat(256) }, 'title')
  })

  it('customSlug: 3 and 64 characters pass, 2 and 65 fail; letters, digits, - and _ only', async () => {
    for (const customSlug of ['abc', 'x'.repeat(64), 'A-b_9'])
      expect(await created({ customSlug })).toMatchObject({
        shortCode: customSlug,
        shortUrl: `${PUBLIC}/${customSlug}`,
      })
    await expect400({ customSlug: 'ab' }, 'customSlug')
    await expect400({ customSlug: 'y'.repeat(65) }, 'customSlug')
    for (const customSlug of ['bad!slug', 'has space', 'dot.ted', 'sl/ash', 'ümlaut', 'emoji🙂', 'q?x=1'])
      await expect400({ customSlug }, 'customSlug')
  })

  it('customSlug: reserved path names are refused in any case', async () => {
    for (const customSlug of ['api', 'API', 'Api', 'health', 'HEALTH', 'docs', 'DoCs']) {
      const res = await post({ customSlug })
      expectError(res, 400, 'ValidationError')
      expect(detailFields(res)).toEqual(['customSlug'])
      expect(res.json().message).toMatch(/reserved/)
    }
    expect((await created({ customSlug: 'api-v2' })).shortCode).toBe('api-v2')
    expect((await created({ customSlug: 'apis' })).shortCode).toBe('apis')
  })

  it('a duplicate code on the same domain is 409; codes are case-sensitive', async () => {
    await createLink(t, { customSlug: 'promo' })
    const res = await post({ customSlug: 'promo', destinationUrl: 'https://other.example/' })
    expectError(res, 409, 'Conflict', '/api/use/links')
    expect(res.json().message).toContain('promo')
    expect((await created({ customSlug: 'Promo' })).shortCode).toBe('Promo')
    expect((await t.call('GET', '/api/use/links')).json().total).toBe(2)
  })

  it('expiresAt must be in the future', async () => {
    await expect400({ expiresAt: iso(t.clock.now() - 1) }, 'expiresAt')
    await expect400({ expiresAt: iso(t.clock.now()) }, 'expiresAt')
    await expect400({ expiresAt: 'tomorrow' }, 'expiresAt')
    const ok = await post({ expiresAt: iso(t.clock.now() + 1) })
    expect(ok.statusCode).toBe(201)
    expect(ok.json().status).toBe('active')
    expect(ok.json().expiresAt).toBe(iso(t.clock.now() + 1))
  })

  it('tags: trimmed and de-duplicated; at most 20 of at most 50 characters; never blank', async () => {
    const tags = Array.from({ length: 20 }, (_, i) => `t${i}`)
    expect((await post({ tags })).json().tags).toEqual(tags)
    await expect400({ tags: [...tags, 'one-more'] }, 'tags')
    expect((await created({ tags: ['x'.repeat(50)] })).tags).toEqual(['x'.repeat(50)])
    await expect400({ tags: ['x'.repeat(51)] }, 'tags.0')
    await expect400({ tags: ['ok', '   '] }, 'tags.1')
    await expect400({ tags: [''] }, 'tags.0')
    expect((await post({ tags: [' a', 'a ', 'b', 'a'] })).json().tags).toEqual(['a', 'b'])
  })

  it('metadata: 50 keys and 10 KB pass, 51 keys or 10,241 bytes fail', async () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))
    expect((await created({ metadata: keys(50) })).metadata).toEqual(keys(50))
    await expect400({ metadata: keys(51) }, 'metadata')
    // {"k":"…"} is 8 bytes of JSON around the value
    expect((await created({ metadata: { k: 'x'.repeat(10_240 - 8) } })).metadata).toEqual({
      k: 'x'.repeat(10_240 - 8),
    })
    await expect400({ metadata: { k: 'x'.repeat(10_240 - 7) } }, 'metadata')
    // bytes, not characters: é is two bytes in UTF-8
    await expect400({ metadata: { k: 'é'.repeat(5_200) } }, 'metadata')
    await expect400({ metadata: ['not', 'an', 'object'] }, 'metadata')
  })

  it('redirectType: 301, 302, 307, 308 only', async () => {
    for (const redirectType of [301, 302, 307, 308])
      expect((await post({ redirectType })).json().redirectType).toBe(redirectType)
    for (const redirectType of [300, 303, 304, 200]) await expect400({ redirectType }, 'redirectType')
  })

  it('a custom domain that does not exist (or is not verified) is 422', async () => {
    const res = await post({ customDomainId: 'dom_nope' })
    expectError(res, 422, 'Unprocessable')
    expect(res.json().message).toMatch(/custom domain dom_nope not found or not verified/)
    expect((await t.call('GET', '/api/use/links')).json().total).toBe(0)
  })

  it('unknown fields are refused', async () => {
    await expect400({ shortCode: 'nope' }, 'shortCode')
  })

  it('replays a create sent again with the same X-Idempotency-Key', async () => {
    const headers = { 'x-idempotency-key': 'create-once-1' }
    const body = { destinationUrl: 'https://example.com/idem' }
    const first = await t.call('POST', '/api/use/links', { body, headers })
    expect(first.statusCode).toBe(201)
    const again = await t.call('POST', '/api/use/links', { body, headers })
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    expect((await t.call('GET', '/api/use/links')).json().total).toBe(1)
    const other = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/different' },
      headers,
    })
    expectError(other, 422, 'Unprocessable')
  })
})

describe('links API: get, update, delete', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp({ publicUrl: PUBLIC })
  })
  afterEach(() => t.close())

  const patch = (id: string, body: unknown) => t.call('PATCH', `/api/use/links/${id}`, { body })

  it('GET of an unknown id is 404', async () => {
    expectError(
      await t.call('GET', '/api/use/links/lnk_missing'),
      404,
      'NotFound',
      '/api/use/links/lnk_missing',
    )
  })

  it('PATCH changes the given fields and updatedAt only', async () => {
    const l = await createLink(t, { title: 'Old', tags: ['a'], metadata: { x: 1 }, customSlug: 'keepme' })
    t.clock.advance(HOUR)
    const res = await patch(l.id, {
      destinationUrl: 'https://example.com/new',
      title: ' New ',
      tags: ['b', ' b', 'c'],
      metadata: { y: 2 },
      redirectType: 301,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      ...l,
      destinationUrl: 'https://example.com/new',
      title: 'New',
      tags: ['b', 'c'],
      metadata: { y: 2 },
      redirectType: 301,
      updatedAt: iso(t.clock.now()),
    })
    expect((await patch(l.id, { title: null })).json().title).toBeNull()
    // the tag filter follows the new tags
    expect((await t.call('GET', '/api/use/links?tag=a')).json().total).toBe(0)
    expect((await t.call('GET', '/api/use/links?tag=c')).json().total).toBe(1)
  })

  it('PATCH applies the create rules to its fields', async () => {
    const l = await createLink(t)
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ destinationUrl: 'javascript:alert(1)' }, 'destinationUrl'],
      [{ destinationUrl: urlOf(2049) }, 'destinationUrl'],
      [{ title: 't'.repeat(256) }, 'title'],
      [{ expiresAt: iso(t.clock.now()) }, 'expiresAt'],
      [{ tags: ['  '] }, 'tags.0'],
      [{ metadata: { k: 'x'.repeat(10_233) } }, 'metadata'],
      [{ redirectType: 303 }, 'redirectType'],
      [{ status: 'expired' }, 'status'],
      [{ customSlug: 'newslug' }, 'customSlug'],
    ]
    for (const [body, field] of cases) {
      const res = await patch(l.id, body)
      expectError(res, 400, 'ValidationError')
      expect(detailFields(res), JSON.stringify(body).slice(0, 100)).toContain(field)
    }
    expectError(await patch(l.id, {}), 400, 'ValidationError')
    const longUrl = await patch(l.id, { destinationUrl: urlOf(2048) })
    expect(longUrl.statusCode).toBe(200)
    expect(longUrl.json()).toMatchObject({ id: l.id, destinationUrl: urlOf(2048) })
    const longTitle = await patch(l.id, { title: 't'.repeat(255) })
    expect(longTitle.statusCode).toBe(200)
    expect(longTitle.json()).toMatchObject({ id: l.id, destinationUrl: urlOf(2048), title: 't'.repeat(255) })
  })

  it('PATCH status: active ⇄ inactive', async () => {
    const l = await createLink(t)
    expect((await patch(l.id, { status: 'inactive' })).json().status).toBe('inactive')
    expect((await t.call('GET', `/api/use/links/${l.id}`)).json().status).toBe('inactive')
    expect((await patch(l.id, { status: 'active' })).json().status).toBe('active')
  })

  it('an expired link: status alone is 422; a future expiresAt or null makes it active again', async () => {
    const l = await createLink(t, { expiresAt: iso(t.clock.now() + HOUR) })
    t.clock.advance(HOUR)
    expect((await t.call('GET', `/api/use/links/${l.id}`)).json().status).toBe('expired')
    expectError(await patch(l.id, { status: 'active' }), 422, 'Unprocessable')
    // other fields can still change; it stays expired
    expect((await patch(l.id, { title: 'still expired' })).json().status).toBe('expired')
    const revived = await patch(l.id, { expiresAt: iso(t.clock.now() + HOUR) })
    expect(revived.json()).toMatchObject({ status: 'active', expiresAt: iso(t.clock.now() + HOUR) })

    t.clock.advance(2 * HOUR)
    expect((await patch(l.id, { expiresAt: null })).json()).toMatchObject({
      status: 'active',
      expiresAt: null,
    })

    const other = await createLink(t, { expiresAt: iso(t.clock.now() + 1) })
    t.clock.advance(1)
    const inactive = await patch(other.id, { expiresAt: iso(t.clock.now() + HOUR), status: 'inactive' })
    expect(inactive.json().status).toBe('inactive')
  })

  it('DELETE is 204 with no body, then the link is gone everywhere', async () => {
    const l = await createLink(t, { customSlug: 'gone' })
    const res = await t.call('DELETE', `/api/use/links/${l.id}`)
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expectError(await t.call('GET', `/api/use/links/${l.id}`), 404, 'NotFound')
    expectError(await patch(l.id, { title: 'x' }), 404, 'NotFound')
    expectError(await t.call('DELETE', `/api/use/links/${l.id}`), 404, 'NotFound')
    expectError(await t.call('GET', `/api/use/links/${l.id}/qr`), 404, 'NotFound')
    expect((await t.call('GET', '/api/use/links')).json().total).toBe(0)
    expect(await t.app.linkd.services.links.resolve('', 'gone')).toBeUndefined()
    const tags = await t.db.kysely.selectFrom('link_tags').selectAll().execute()
    expect(tags).toEqual([])
    // the code is free again
    expect((await createLink(t, { customSlug: 'gone' })).shortCode).toBe('gone')
  })

  it("another organization's link is 404 for get, patch, delete and qr, and absent from lists", async () => {
    const other = await t.createOrg('other')
    const theirs = await createLink(t, { customSlug: 'theirs' }, other.ownerKey)
    for (const [method, url, body] of [
      ['GET', `/api/use/links/${theirs.id}`, undefined],
      ['PATCH', `/api/use/links/${theirs.id}`, { title: 'mine now' }],
      ['DELETE', `/api/use/links/${theirs.id}`, undefined],
      ['GET', `/api/use/links/${theirs.id}/qr`, undefined],
      ['GET', `/api/use/links/${theirs.id}/qr?format=png`, undefined],
    ] as const)
      expectError(await t.call(method, url, body ? { body } : {}), 404, 'NotFound')
    expect((await t.call('GET', '/api/use/links')).json().total).toBe(0)
    // untouched for its owner
    const mine = await t.call('GET', `/api/use/links/${theirs.id}`, { key: other.ownerKey })
    expect(mine.json()).toEqual(theirs)
  })

  it('emits link.created, link.updated and link.deleted after the write is committed', async () => {
    const seen: EventEnvelope[] = []
    const stored: unknown[] = []
    // The row as the listener finds it. SQLite: read at once on the raw connection (inside an
    // open transaction it would see the uncommitted row); PostgreSQL: on another pooled
    // connection, which sees committed rows only, awaited after each request.
    const reads: Array<Promise<unknown>> = []
    const titleOf = (id: string) =>
      t.db.dialect === 'sqlite'
        ? Promise.resolve(t.db.sqlite.prepare('SELECT title FROM links WHERE id = ?').get(id))
        : t.db.kysely.selectFrom('links').select('title').where('id', '=', id).executeTakeFirst()
    const settle = async () => stored.push(...(await Promise.all(reads.splice(0))))
    t.app.linkd.services.events.onAny((e) => {
      seen.push(e)
      if (e.type.startsWith('link.')) reads.push(titleOf((e.data as { id: string }).id))
    })
    const l = await createLink(t, { title: 'first' })
    await settle()
    const updated = (await patch(l.id, { title: 'second' })).json()
    await settle()
    t.clock.advance(1000)
    await t.call('DELETE', `/api/use/links/${l.id}`)
    await settle()
    const linkEvents = seen.filter((e) => e.type.startsWith('link.'))
    expect(linkEvents).toEqual([
      { type: 'link.created', at: Date.parse(NOW), organizationId: t.orgId, data: l },
      { type: 'link.updated', at: Date.parse(NOW), organizationId: t.orgId, data: updated },
      {
        type: 'link.deleted',
        at: Date.parse(NOW) + 1000,
        organizationId: t.orgId,
        data: {
          id: l.id,
          shortUrl: l.shortUrl,
          shortCode: l.shortCode,
          deletedAt: iso(Date.parse(NOW) + 1000),
        },
      },
    ])
    // listeners saw the committed state: the row after create/update, nothing after delete
    expect(stored).toEqual([{ title: 'first' }, { title: 'second' }, undefined])
  })

  it('failed writes emit nothing', async () => {
    const seen: string[] = []
    t.app.linkd.services.events.onAny((e) => void seen.push(e.type))
    await createLink(t, { customSlug: 'taken' })
    await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://x.example/', customSlug: 'taken' },
    })
    await t.call('POST', '/api/use/links', { body: { destinationUrl: 'ftp://x.example/' } })
    await t.call('PATCH', '/api/use/links/lnk_nope', { body: { title: 'x' } })
    expect(seen).toEqual(['link.created'])
  })
})

describe('links API: scopes', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  it('links:read, links:write, links:delete and qrCodes:read are each required', async () => {
    const l = await createLink(t)
    const key = async (permissions: string[]) =>
      (await t.createKey({ name: permissions.join(' '), permissions })).key
    const read = await key(['links:read'])
    const write = await key(['links:write'])
    const del = await key(['links:delete'])
    const qr = await key(['qr:read'])
    const none = await key(['analytics:read'])
    const calls = {
      list: ['GET', '/api/use/links', undefined],
      get: ['GET', `/api/use/links/${l.id}`, undefined],
      create: ['POST', '/api/use/links', { destinationUrl: 'https://example.com/' }],
      bulk: ['POST', '/api/use/links/bulk', { links: [{ destinationUrl: 'https://example.com/' }] }],
      update: ['PATCH', `/api/use/links/${l.id}`, { title: 't' }],
      qr: ['GET', `/api/use/links/${l.id}/qr`, undefined],
      delete: ['DELETE', `/api/use/links/${l.id}`, undefined],
    } as const
    const allowed: Record<string, Array<keyof typeof calls>> = {
      [read]: ['list', 'get'],
      [write]: ['create', 'bulk', 'update'],
      [qr]: ['qr'],
      [none]: [],
      [del]: ['delete'],
    }
    for (const [k, ok] of Object.entries(allowed)) {
      for (const [name, [method, url, body]] of Object.entries(calls)) {
        if (name === 'delete' && k !== del) continue
        const res = await t.call(method, url, { key: k, ...(body ? { body } : {}) })
        if (ok.includes(name as keyof typeof calls))
          expect(res.statusCode, `${name} ${res.body}`).toBeLessThan(300)
        else expectError(res, 403, 'Forbidden')
      }
    }
    // a key lacking links:delete is refused before anything is deleted
    const other = await createLink(t)
    expectError(await t.call('DELETE', `/api/use/links/${other.id}`, { key: write }), 403, 'Forbidden')
    const kept = await t.call('GET', `/api/use/links/${other.id}`)
    expect(kept.statusCode).toBe(200)
    expect(kept.json()).toEqual(other)
    expectError(await t.call('GET', '/api/use/links', { key: null }), 401, 'Unauthorized')
  })
})
