import { afterEach, describe, expect, it } from 'vitest'
import { count, createTestApp, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import { HOUR, analytics, flush, makeLink, visit } from '../../support/redirect.js'

describe('GET|HEAD /:shortCode', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('answers 302 with Location, Cache-Control: private, max-age=90 and no body (Content-Length: 0)', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { destinationUrl: 'https://example.com/a?x=1&y="2"' })
    const res = await visit(t, link.shortCode)
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('https://example.com/a?x=1&y=%222%22')
    expect(res.headers['cache-control']).toBe('private, max-age=90')
    expect(res.headers['content-length']).toBe('0')
    expect(res.headers['content-type']).toBeUndefined()
    expect(res.body).toBe('')
  })

  it.each([301, 302, 307, 308])('answers the link redirectType %i', async (redirectType) => {
    t = await createTestApp()
    const link = await makeLink(t, { redirectType })
    const res = await visit(t, link.shortCode)
    expect(res.statusCode).toBe(redirectType)
    expect(res.headers.location).toBe('https://example.com/landing')
    expect(res.headers['cache-control']).toBe('private, max-age=90')
  })

  it('answers HEAD with the same status and headers as GET, Content-Length included', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { redirectType: 308 })
    const res = await visit(t, link.shortCode, { method: 'HEAD' })
    const get = await visit(t, link.shortCode)
    expect(res.statusCode).toBe(308)
    expect(res.headers.location).toBe('https://example.com/landing')
    expect(res.headers['cache-control']).toBe('private, max-age=90')
    expect(res.body).toBe('')
    const { date: _d, 'x-request-id': _i, 'x-ratelimit-remaining': _r, ...headHeaders } = res.headers
    const { date: _d2, 'x-request-id': _i2, 'x-ratelimit-remaining': _r2, ...getHeaders } = get.headers
    expect(headHeaders).toEqual(getHeaders)
    expect(headHeaders['content-length']).toBe('0')
  })

  it('encodes a non-ASCII destination in Location', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { destinationUrl: 'https://bücher.example/straße' })
    const res = await visit(t, link.shortCode)
    expect(res.headers.location).toBe('https://xn--bcher-kva.example/stra%C3%9Fe')
  })

  it('forwards the visitor query to the destination but never the QR marker (forwardQuery, on by default)', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const res = await visit(t, link.shortCode, { query: 'qr=1&utm_source=x' })
    expect(res.headers.location).toBe('https://example.com/landing?utm_source=x')
  })

  it('keeps the destination as it is with forwardQuery false', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { forwardQuery: false })
    const res = await visit(t, link.shortCode, { query: 'qr=1&utm_source=x' })
    expect(res.headers.location).toBe('https://example.com/landing')
  })

  it('replies before the click reaches the disk: the click is written by the flush', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    expect((await visit(t, link.shortCode)).statusCode).toBe(302)
    expect(await count(t, 'clicks')).toBe(0)
    expect(t.app.linkd.services.clicks.recorder.pending).toBe(1)
    await flush(t)
    expect(await count(t, 'clicks')).toBe(1)
  })
})

describe('404 and 410', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('404 for an unknown code: the JSON error body, or a small page for browsers', async () => {
    t = await createTestApp()
    const json = await visit(t, 'nope123')
    expectError(json, 404, 'NotFound', '/nope123')
    expect(json.json<{ message: string }>().message).toContain('/nope123')

    const html = await visit(t, 'nope123', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    })
    expect(html.statusCode).toBe(404)
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(html.body).toContain('<h1>Link not found</h1>')
    expect(html.headers.location).toBeUndefined()

    // text/html refused with q=0 is not a browser asking for a page.
    expectError(
      await visit(t, 'nope123', { headers: { accept: 'text/html;q=0, application/json' } }),
      404,
      'NotFound',
    )
  })

  it('404 for codes no link can have and for hosts that are not the short domain', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    expectError(await visit(t, 'favicon.ico'), 404, 'NotFound')
    expectError(await visit(t, link.shortCode, { host: 'elsewhere.example' }), 404, 'NotFound')
    expectError(await visit(t, link.shortCode, { host: '127.0.0.1:9999' }), 404, 'NotFound')
    // Host names compare case-insensitively.
    expect((await visit(t, link.shortCode, { host: t.config.shortDomain.toUpperCase() })).statusCode).toBe(
      302,
    )
  })

  it('a short domain without a port matches its host on any port', async () => {
    t = await createTestApp({ shortDomain: 'sho.rt' })
    const link = await makeLink(t)
    expect((await visit(t, link.shortCode, { host: 'sho.rt' })).statusCode).toBe(302)
    expect((await visit(t, link.shortCode, { host: 'sho.rt:8443' })).statusCode).toBe(302)
    expectError(await visit(t, link.shortCode, { host: 'x.sho.rt' }), 404, 'NotFound')
  })

  it('one trailing slash is ignored: /code/ redirects (query forwarded), HEAD too; a deeper path is 404', async () => {
    t = await createTestApp()
    const link = await makeLink(t, { redirectType: 301 })
    const res = await visit(t, `${link.shortCode}/`, { query: 'utm_source=x' })
    expect(res.statusCode).toBe(301)
    expect(res.headers.location).toBe('https://example.com/landing?utm_source=x')
    expect(res.headers['cache-control']).toBe('private, max-age=90')
    expect((await visit(t, `${link.shortCode}/`, { method: 'HEAD' })).statusCode).toBe(301)
    expectError(await visit(t, `${link.shortCode}//`), 404, 'NotFound')
    expectError(await visit(t, `${link.shortCode}/more`), 404, 'NotFound')
    expectError(await visit(t, 'nope123/'), 404, 'NotFound')
    await flush(t)
    expect((await analytics(t, link.id)).totalClicks).toBe(1) // HEAD is never a click
  })

  it('404 for an inactive link, 302 again once reactivated', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    await t.call('PATCH', `/api/use/links/${link.id}`, { body: { status: 'inactive' } })
    expectError(await visit(t, link.shortCode), 404, 'NotFound')
    await t.call('PATCH', `/api/use/links/${link.id}`, { body: { status: 'active' } })
    expect((await visit(t, link.shortCode)).statusCode).toBe(302)
  })

  it('410 from the moment expiresAt passes (JSON or a page), even for a link in the cache', async () => {
    t = await createTestApp()
    const expiresAt = t.clock.now() + HOUR
    const link = await makeLink(t, { expiresAt: new Date(expiresAt).toISOString() })
    t.clock.set(expiresAt - 1)
    expect((await visit(t, link.shortCode)).statusCode).toBe(302) // now cached
    t.clock.set(expiresAt)
    const gone = expectError(await visit(t, link.shortCode), 410, 'Gone', `/${link.shortCode}`)
    expect(gone.message).toContain('expired')
    const html = await visit(t, link.shortCode, { headers: { accept: 'text/html' } })
    expect(html.statusCode).toBe(410)
    expect(html.body).toContain('<h1>Link expired</h1>')
    await flush(t)
    expect(await count(t, 'clicks')).toBe(1) // only the redirect before expiry is a click
  })
})

describe('reserved first path segments', () => {
  let t: TestApp
  afterEach(() => t.close())

  it.each(['api', 'API', 'Health', 'docs', '.well-known'])('/%s is never a short code', async (segment) => {
    t = await createTestApp()
    const res = await visit(t, segment)
    const body = expectError(res, 404, 'NotFound', `/${segment}`)
    expect(body.message).toBe(`no route GET /${segment}`)
  })

  it('the routes under them keep working', async () => {
    t = await createTestApp()
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: '/api/use' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).statusCode).toBe(200)
    expectError(await t.app.inject({ method: 'GET', url: '/.well-known/nothing' }), 404, 'NotFound')
  })
})

describe('hot-link cache', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('forgets a link when it is updated or deleted through the API', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    expect((await visit(t, link.shortCode)).headers.location).toBe('https://example.com/landing')

    await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { destinationUrl: 'https://example.org/new', redirectType: 307 },
    })
    const moved = await visit(t, link.shortCode)
    expect(moved.statusCode).toBe(307)
    expect(moved.headers.location).toBe('https://example.org/new')

    await t.call('PATCH', `/api/use/links/${link.id}`, { body: { status: 'inactive' } })
    expectError(await visit(t, link.shortCode), 404, 'NotFound')
    await t.call('PATCH', `/api/use/links/${link.id}`, { body: { status: 'active' } })
    expect((await visit(t, link.shortCode)).statusCode).toBe(307)

    expect((await t.call('DELETE', `/api/use/links/${link.id}`)).statusCode).toBe(204)
    expectError(await visit(t, link.shortCode), 404, 'NotFound')
  })

  it('trusts a cached link for at most 60 s (changes made by another process)', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    expect((await visit(t, link.shortCode)).headers.location).toBe('https://example.com/landing')
    // Another linkd process sharing the database changes the link: no event reaches this one.
    await t.db.kysely
      .updateTable('links')
      .set({ destination_url: 'https://example.net/' })
      .where('id', '=', link.id)
      .execute()
    expect((await visit(t, link.shortCode)).headers.location).toBe('https://example.com/landing')
    t.clock.advance(60_000)
    expect((await visit(t, link.shortCode)).headers.location).toBe('https://example.net/')
  })

  it('does not remember unknown codes: a link created after a miss redirects at once', async () => {
    t = await createTestApp()
    expectError(await visit(t, 'late-one'), 404, 'NotFound')
    await makeLink(t, { customSlug: 'late-one' })
    expect((await visit(t, 'late-one')).statusCode).toBe(302)
  })
})
