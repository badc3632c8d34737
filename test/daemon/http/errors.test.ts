import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { PAGE_MAX } from '../../../src/contract/limits.js'
import { MAX_DETAILS } from '../../../daemon/http/errors.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { detailFields, expectError, expectNoStack } from '../../support/responses.js'

describe('error bodies', () => {
  let t: TestApp
  afterEach(() => t.close())

  const post = (payload: string, contentType = 'application/json', url = '/api/keys') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${t.ownerKey}`, 'content-type': contentType },
      payload,
    })

  it('unknown route is 404 NotFound with the error body', async () => {
    t = await createTestApp()
    const res = await t.call('GET', '/api/nothing-here?x=1', { key: null })
    const body = expectError(res, 404, 'NotFound', '/api/nothing-here')
    expect(body.details).toBeUndefined()
    expect(body.message).toContain('/api/nothing-here')
  })

  it('GET / (nothing lives there) points at the API docs and the health check', async () => {
    t = await createTestApp()
    const root = await t.call('GET', '/', { key: null })
    const body = expectError(root, 404, 'NotFound', '/')
    expect(body.message).toBe(
      'nothing at /: short links are /<code>; the API and its docs are at /api/docs, health at /health',
    )
    // A browser gets the same as a page with links.
    const page = await t.call('GET', '/', { key: null, headers: { accept: 'text/html,*/*;q=0.8' } })
    expect(page.statusCode).toBe(404)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain('<a href="/api/docs">/api/docs</a>')
    expect(page.body).toContain('<a href="/health">/health</a>')
    expect((await t.call('GET', '/api/docs', { key: null })).statusCode).toBe(200)
    expect((await t.call('GET', '/health', { key: null })).statusCode).toBe(200)
  })

  it('a database another process holds locked is 503 with Retry-After (try again), not a 500', async () => {
    // `linkd keys create` (documented as safe while linkd runs) writes the same SQLite file.
    const dir = mkdtempSync(join(tmpdir(), 'linkd-locked-'))
    try {
      t = await createTestApp({ databaseUrl: `sqlite:${join(dir, 'linkd.db')}` })
      const other = new SQLite(join(dir, 'linkd.db'))
      other.exec('BEGIN EXCLUSIVE')
      const link = { destinationUrl: 'https://example.com/locked' }
      const locked = await t.call('POST', '/api/use/links', { body: link })
      const body = expectError(locked, 503, 'ServiceUnavailable', '/api/use/links')
      expect(body.message).toBe('the database is busy or does not answer; retry')
      expect(locked.headers['retry-after']).toBe('1')
      other.exec('ROLLBACK')
      other.close()
      expect((await t.call('POST', '/api/use/links', { body: link })).statusCode).toBe(201)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('wrong method on a known path is 404 NotFound', async () => {
    t = await createTestApp()
    expectError(await t.call('PUT', '/api/keys'), 404, 'NotFound', '/api/keys')
    expectError(await t.call('DELETE', '/api/keys'), 404, 'NotFound', '/api/keys')
    expectError(await t.call('POST', '/health'), 404, 'NotFound', '/health')
  })

  it('invalid JSON is 400 ValidationError with details', async () => {
    t = await createTestApp()
    const res = await post('{"name": "x",')
    const body = expectError(res, 400, 'ValidationError', '/api/keys')
    expect(body.details).toEqual([{ field: 'body', message: expect.stringMatching(/not valid JSON/) }])
  })

  it('a non-JSON content type is 415 UnsupportedMediaType', async () => {
    t = await createTestApp()
    const res = await post('name=x', 'text/plain')
    const body = expectError(res, 415, 'UnsupportedMediaType', '/api/keys')
    expect(body.message).toContain('text/plain')
    expectError(await post('<a/>', 'application/xml'), 415, 'UnsupportedMediaType')
    expectError(await post('name=x', 'application/x-www-form-urlencoded'), 415, 'UnsupportedMediaType')
  })

  it('an empty JSON body is 400 ValidationError', async () => {
    t = await createTestApp()
    const body = expectError(await post(''), 400, 'ValidationError', '/api/keys')
    expect(body.details?.[0]?.field).toBe('body')
  })

  it('an empty body sent with Content-Type: application/json where none is needed is no body', async () => {
    t = await createTestApp()
    const link = await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/' } })
    const key = await t.createKey({ name: 'ci' })
    const send = (method: 'POST' | 'DELETE', url: string) =>
      t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${t.ownerKey}`, 'content-type': 'application/json' },
        payload: '',
      })
    expect((await send('POST', `/api/keys/${key.id}/revoke`)).json()).toMatchObject({ status: 'revoked' })
    expect((await send('DELETE', `/api/use/links/${link.json<{ id: string }>().id}`)).statusCode).toBe(204)
    // A route that needs a body still says so.
    const body = expectError(await send('POST', '/api/use/links'), 400, 'ValidationError')
    expect(body.details?.[0]?.field).toBe('body')
  })

  it('a body over the limit is 413 PayloadTooLarge; exactly at the limit passes', async () => {
    t = await createTestApp({ bodyLimitBytes: 2048 })
    const json = JSON.stringify({ name: 'at-limit' })
    const atLimit = json + ' '.repeat(2048 - Buffer.byteLength(json))
    expect(Buffer.byteLength(atLimit)).toBe(2048)
    const ok = await post(atLimit)
    expect(ok.statusCode, ok.body).toBe(201)
    expect(ok.json().name).toBe('at-limit')

    const over = await post(atLimit + ' ')
    const body = expectError(over, 413, 'PayloadTooLarge', '/api/keys')
    expect(body.details).toBeUndefined()
    // multi-byte characters count as bytes
    const wide = JSON.stringify({ name: 'x', description: '\u00e9'.repeat(1100) })
    expectError(await post(wide), 413, 'PayloadTooLarge')
  })

  it('an unknown body field is 400 naming the field', async () => {
    t = await createTestApp()
    const res = await t.call('POST', '/api/keys', { body: { name: 'ok', colour: 'blue' } })
    const body = expectError(res, 400, 'ValidationError', '/api/keys')
    expect(body.details).toContainEqual({ field: 'colour', message: 'is not a known field' })
    expect(body.message).toContain('colour')
  })

  it('a missing required field is 400 with a detail for it', async () => {
    t = await createTestApp()
    const res = await t.call('POST', '/api/keys', { body: { description: 'no name' } })
    const body = expectError(res, 400, 'ValidationError')
    expect(body.details).toEqual([{ field: 'name', message: 'is required' }])
    expect(body.message).toBe('name is required')
  })

  it('several problems are all listed, with dotted paths into arrays', async () => {
    t = await createTestApp()
    const res = await t.call('POST', '/api/keys', {
      body: { permissions: ['links:read', 'links:admin'], timePeriod: 'week', requestLimit: 0 },
    })
    expectError(res, 400, 'ValidationError')
    const fields = detailFields(res)
    expect(fields).toEqual(expect.arrayContaining(['name', 'permissions.1', 'timePeriod', 'requestLimit']))
    const period = res.json().details.find((d: { field: string }) => d.field === 'timePeriod')
    expect(period.message).toBe('must be one of: minute, hour, day')
    expect(res.json().message).toMatch(/\(and \d+ more\)$/)
  })

  it('thousands of problems list the first MAX_DETAILS and count the rest (the answer stays small)', async () => {
    t = await createTestApp()
    const body: Record<string, unknown> = { name: 'ok' }
    for (let i = 0; i < 30_000; i++) body[`unknown${i}`] = 1
    const res = await t.call('POST', '/api/keys', { body })
    const e = expectError(res, 400, 'ValidationError', '/api/keys')
    expect(e.details).toHaveLength(MAX_DETAILS)
    expect(e.details![0]).toEqual({ field: 'unknown0', message: 'is not a known field' })
    expect(e.message).toBe('unknown0 is not a known field (and 29999 more)')
    expect(res.body.length).toBeLessThan(8192)
    const bulk = await t.call('POST', '/api/use/links/bulk', {
      body: { links: [{ destinationUrl: 'https://example.com/', ...body, name: undefined }] },
    })
    const item = bulk.json().results[0].error
    expect(item.details).toHaveLength(MAX_DETAILS)
    expect(item.message).toMatch(/\(and 29999 more\)$/)
  })

  it('a wrong type is 400 naming the field', async () => {
    t = await createTestApp()
    const res = await t.call('POST', '/api/keys', {
      body: { name: 'x', requestLimit: 'lots', allowedOrigins: { a: 1 } },
    })
    expectError(res, 400, 'ValidationError')
    expect(detailFields(res)).toEqual(expect.arrayContaining(['requestLimit', 'allowedOrigins']))
    const arr = await t.call('POST', '/api/keys', { body: [{ name: 'x' }] })
    expectError(arr, 400, 'ValidationError')
    expect(detailFields(arr)).toEqual(['body'])
  })

  it("validation messages are in words, not in the validator's wording", async () => {
    t = await createTestApp()
    const link = (extra: Record<string, unknown>) =>
      t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com', ...extra } })
    const dom = (body: unknown) => t.call('PATCH', '/api/domains/dom_unknown', { body })
    const cases: Array<[Promise<LightMyRequestResponse>, string]> = [
      [link({ customSlug: 'ab' }), 'customSlug must be at least 3 characters'],
      [link({ title: 'x'.repeat(256) }), 'title must be at most 255 characters'],
      [link({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), 'tags must have at most 20 items'],
      [link({ expiresAt: 'tomorrow' }), 'expiresAt must be a date and time such as 2026-05-01T12:00:00Z'],
      [link({ bogus: 1 }), 'bogus is not a known field'],
      [t.call('POST', '/api/use/links', { body: {} }), 'destinationUrl is required'],
      [t.call('GET', '/api/use/links?page=0'), 'page must be at least 1'],
      [t.call('GET', '/api/use/links?page=x'), 'page must be a whole number'],
      [t.call('GET', '/api/use/links?page=99999999999'), `page must be at most ${PAGE_MAX}`],
      [t.call('GET', '/api/use/links?limit=7'), 'limit must be one of: 10, 20, 50, 100'],
      [dom({ isDefault: 'maybe' }), 'isDefault must be true or false'],
      [dom({ rootRedirectUrl: {} }), 'rootRedirectUrl must be a string'],
      [dom({}), 'body must have at least 1 field'],
      [
        t.call('POST', '/api/v1/admin/games', { body: { name: 'Game', platform: 'ios', slug: 'a' } }),
        'slug must be at least 2 characters, or empty',
      ],
    ]
    for (const [pending, message] of cases) {
      const body = expectError(await pending, 400, 'ValidationError')
      expect(body.message).toBe(message)
      expect(body.message).not.toMatch(/NOT|>=|<=|must match|must be (string|integer|boolean)\b/)
    }
  })

  it('a number spelled "Infinity" or out of double range is 400 naming the field, never stored (fuzz finding)', async () => {
    t = await createTestApp()
    // ajv coerces these strings to ±Infinity, which then skips minimum/maximum: they used to be
    // stored and break every later answer that serializes them (500 on GET /api/keys).
    for (const value of ['Infinity', '-Infinity', '1e400']) {
      const key = await t.call('POST', '/api/keys', { body: { name: 'x', requestLimit: value } })
      expectError(key, 400, 'ValidationError', '/api/keys')
      expect(detailFields(key), value).toEqual(['requestLimit'])
      const sig = await t.call('POST', '/api/webhooks/utilities/generate-signature', {
        body: { secret: 's', payload: 'p', timestamp: value },
      })
      expectError(sig, 400, 'ValidationError')
      expect(detailFields(sig), value).toEqual(['timestamp'])
      const page = await t.call('GET', `/api/keys?page=${value}`)
      expectError(page, 400, 'ValidationError', '/api/keys')
      expect(detailFields(page), value).toEqual(['page'])
    }
    const game = await t.call('POST', '/api/v1/admin/games', {
      body: { name: 'Game', platform: 'ios', replayWindowSeconds: 'Infinity', rawRetentionDays: '-Infinity' },
    })
    expectError(game, 400, 'ValidationError')
    expect(detailFields(game).sort()).toEqual(['rawRetentionDays', 'replayWindowSeconds'])
    const list = await t.call('GET', '/api/keys')
    expect(list.statusCode, list.body).toBe(200)
    expect(list.json<{ data: unknown[] }>().data).toHaveLength(1)
  })

  it('invalid query parameters and path parameters are 400 with the field', async () => {
    t = await createTestApp()
    const res = await t.call('GET', '/api/keys?status=sleeping')
    expectError(res, 400, 'ValidationError')
    expect(detailFields(res)).toEqual(['status'])
    const unknown = await t.call('GET', '/api/keys?colour=blue')
    expectError(unknown, 400, 'ValidationError')
    expect(detailFields(unknown)).toEqual(['colour'])
    expect(unknown.json().message).toBe('colour is not a known query parameter')
  })

  it('a query parameter given twice, or outside its values, gets one problem in words', async () => {
    t = await createTestApp()
    const twice = expectError(await t.call('GET', '/api/use/links?limit=10&limit=20'), 400, 'ValidationError')
    expect(twice.details).toEqual([{ field: 'limit', message: 'is given more than once: give it once' }])
    const word = expectError(await t.call('GET', '/api/use/links?limit=abc'), 400, 'ValidationError')
    expect(word.details).toEqual([{ field: 'limit', message: 'must be one of: 10, 20, 50, 100' }])
    expect(word.message).toBe('limit must be one of: 10, 20, 50, 100')
  })

  it('a path parameter too long for the router is 400 ValidationError with the error body', async () => {
    t = await createTestApp()
    const longId = await t.call('GET', `/api/keys/${'x'.repeat(101)}`)
    expectError(longId, 400, 'ValidationError', `/api/keys/${'x'.repeat(101)}`)
    expect(detailFields(longId)).toEqual(['url'])
    expect(longId.headers['x-request-id']).toMatch(/^req_/)
    expect(longId.headers['x-ratelimit-limit']).toBe('3000')
    const atMax = await t.call('GET', `/api/keys/${'x'.repeat(100)}`)
    expectError(atMax, 404, 'NotFound')
  })

  it('a malformed URL is 400 ValidationError with the error body', async () => {
    t = await createTestApp()
    const res = await t.call('GET', '/api/keys/%E0%A4%A')
    expectError(res, 400, 'ValidationError')
    expect(detailFields(res)).toEqual(['url'])
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/)
  })

  it('an unexpected failure is 500 InternalError without internals', async () => {
    t = await createTestApp()
    t.app.get('/api/test-boom', async () => {
      throw new Error('secret detail from /srv/linkd/daemon/thing.ts:42')
    })
    const res = await t.call('GET', '/api/test-boom', { key: null })
    const body = expectError(res, 500, 'InternalError', '/api/test-boom')
    expect(res.body).not.toContain('secret detail')
    expect(body.message).toContain('X-Request-Id')
    expect(res.headers['x-request-id']).toMatch(/^req_/)
  })

  it('error bodies carry the request path without the query string and a fresh ISO timestamp', async () => {
    t = await createTestApp()
    const res = await t.call('GET', '/api/keys/key_missing?verbose=1')
    const body = expectError(res, 404, 'NotFound', '/api/keys/key_missing')
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false)
  })

  it('never returns a stack trace, whatever the failure', async () => {
    t = await createTestApp({ bodyLimitBytes: 2048 })
    const responses = await Promise.all([
      t.call('GET', '/nope'),
      post('{'),
      post('x', 'text/plain'),
      post('{"name":"' + 'a'.repeat(3000) + '"}'),
      t.call('GET', '/api/keys', { key: 'lk_live_short' }),
      t.call('POST', '/api/keys', { body: { nope: true } }),
      t.call('GET', '/api/keys?limit=7'),
    ])
    for (const res of responses) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400)
      expectNoStack(res)
      expect(res.json()).toHaveProperty('error')
    }
  })
})
