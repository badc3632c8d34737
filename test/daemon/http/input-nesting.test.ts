/**
 * Deeply nested JSON: free-form objects have a nesting limit, whole request
 * bodies another, and neither ever ends in a 500 (JSON.parse copes with any depth; recursion
 * afterwards, in hashing, validation or serialization, would not).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { BODY_NESTING_MAX, FREE_FORM_NESTING_MAX } from '../../../src/contract/limits.js'
import type { BulkCreateResult } from '../../../src/contract/links.js'
import { detailFields, expectError } from '../../support/responses.js'
import { createLink } from '../../support/links.js'

/** An object nested `levels` deep: `{"a":{"a":…{"a":1}…}}` has `levels` objects. */
const nested = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)
/** The same as a value. */
const nestedValue = (levels: number): unknown => JSON.parse(nested(levels))

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'https://sho.rt' })
})
afterAll(() => t.close())

const send = (method: 'POST' | 'PATCH', url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url,
    payload,
    headers: { authorization: `Bearer ${t.ownerKey}`, 'content-type': 'application/json', ...headers },
  })

describe('link metadata nesting', () => {
  it(`metadata nested ${FREE_FORM_NESTING_MAX} levels is kept; one more is 400 naming metadata`, async () => {
    const ok = await createLink(t, { metadata: nestedValue(FREE_FORM_NESTING_MAX) })
    expect(ok.metadata).toEqual(nestedValue(FREE_FORM_NESTING_MAX))
    const res = await send(
      'POST',
      '/api/use/links',
      `{"destinationUrl":"https://example.com/","metadata":${nested(FREE_FORM_NESTING_MAX + 1)}}`,
    )
    const body = expectError(res, 400, 'ValidationError', '/api/use/links')
    expect(body.details).toEqual([
      { field: 'metadata', message: `must not be nested more than ${FREE_FORM_NESTING_MAX} levels deep` },
    ])
  })

  it('arrays count as levels too', async () => {
    const deep = '['.repeat(FREE_FORM_NESTING_MAX) + ']'.repeat(FREE_FORM_NESTING_MAX)
    const res = await send(
      'POST',
      '/api/use/links',
      `{"destinationUrl":"https://example.com/","metadata":{"x":${deep}}}`,
    )
    expectError(res, 400, 'ValidationError', '/api/use/links')
    expect(detailFields(res)).toEqual(['metadata'])
  })

  it('10,000 and 100,000 levels: 400 naming metadata, never a 500 (create, PATCH, idempotent create)', async () => {
    const link = await createLink(t)
    for (const levels of [10_000, 100_000]) {
      const meta = `{"destinationUrl":"https://example.com/","metadata":${nested(levels)}}`
      const created = await send('POST', '/api/use/links', meta)
      expectError(created, 400, 'ValidationError', '/api/use/links')
      expect(detailFields(created)).toEqual(['metadata'])
      // With X-Idempotency-Key the body is hashed (canonical JSON) before the route runs.
      const idem = await send('POST', '/api/use/links', meta, { 'x-idempotency-key': `deep-${levels}` })
      expectError(idem, 400, 'ValidationError', '/api/use/links')
      expect(detailFields(idem)).toEqual(['metadata'])
      const patched = await send('PATCH', `/api/use/links/${link.id}`, `{"metadata":${nested(levels)}}`, {
        'x-idempotency-key': `deep-patch-${levels}`,
      })
      expectError(patched, 400, 'ValidationError', `/api/use/links/${link.id}`)
      expect(detailFields(patched)).toEqual(['metadata'])
    }
    expect((await t.call('GET', `/api/use/links/${link.id}`)).json().metadata).toEqual({})
  })

  it('bulk: an item with too deep metadata fails alone; a body too deep for any route is 400', async () => {
    const res = await send(
      'POST',
      '/api/use/links/bulk',
      JSON.stringify({
        links: [
          { destinationUrl: 'https://example.com/1', metadata: nestedValue(FREE_FORM_NESTING_MAX + 1) },
          { destinationUrl: 'https://example.com/2' },
        ],
      }),
    )
    expect(res.statusCode, res.body).toBe(200)
    const r = res.json<BulkCreateResult>()
    expect(r).toMatchObject({ created: 1, failed: 1 })
    expect(r.results[0]).toMatchObject({
      status: 'failed',
      error: { error: 'ValidationError', details: [{ field: 'metadata' }] },
    })
    const huge = await send(
      'POST',
      '/api/use/links/bulk',
      `{"links":[{"destinationUrl":"https://example.com/","metadata":${nested(100_000)}}]}`,
    )
    const body = expectError(huge, 400, 'ValidationError', '/api/use/links/bulk')
    expect(body.details).toEqual([
      { field: 'links', message: `must not be nested more than ${BODY_NESTING_MAX} levels deep` },
    ])
  })
})

describe('request bodies of every route', () => {
  it(`a body field nested more than ${BODY_NESTING_MAX} levels is 400 naming it, whatever the route`, async () => {
    for (const levels of [BODY_NESTING_MAX + 1, 100_000]) {
      for (const [method, url] of [
        ['POST', '/api/webhooks'],
        ['POST', '/api/keys'],
        ['POST', '/api/v1/admin/games'],
        ['POST', '/api/domains'],
        ['POST', '/api/keys/test'],
      ] as const) {
        const res = await send(method, url, `{"name":${nested(levels)}}`)
        const body = expectError(res, 400, 'ValidationError', url)
        expect(body.details).toEqual([
          { field: 'name', message: `must not be nested more than ${BODY_NESTING_MAX} levels deep` },
        ])
      }
    }
    // A root array too deep has no field name of its own.
    const arr = await send('POST', '/api/webhooks', '['.repeat(50_000) + ']'.repeat(50_000))
    expect(detailFields(arr)).toEqual(['body'])
  })

  it(`a field nested exactly ${BODY_NESTING_MAX} levels reaches the route's own validation`, async () => {
    const res = await send('POST', '/api/webhooks', `{"name":${nested(BODY_NESTING_MAX)}}`)
    expectError(res, 400, 'ValidationError', '/api/webhooks')
    expect(detailFields(res)).toContain('url')
  })
})
