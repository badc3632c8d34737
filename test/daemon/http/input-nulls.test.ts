/**
 * `null` where a field takes no null: ajv's type coercion turned it into "", 0, false or [""], so
 * `forwardQuery: null` silently switched query forwarding off and `customSlug: null` was refused
 * with two messages about an empty string. An optional field given as null is now as if left
 * out; a required one, or an array item, is a 400 naming the type it takes. Fields that take null
 * (a PATCH's clearing values) and free-form metadata keep it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import type { BulkCreateResult, Link } from '../../../src/contract/links.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const E = 'https://example.com/'

describe('null in a field that takes no null', () => {
  it('creating a link: an optional field given as null takes its default', async () => {
    const res = await t.call('POST', '/api/use/links', {
      body: {
        destinationUrl: E,
        forwardQuery: null,
        customSlug: null,
        redirectType: null,
        tags: null,
        title: null,
      },
    })
    expect(res.statusCode, res.body).toBe(201)
    const link = res.json<Link>()
    expect(link).toMatchObject({ forwardQuery: true, redirectType: 302, tags: [], title: null })
    expect(link.shortCode).toMatch(/^[A-Za-z0-9]{7}$/)
  })

  it('a required field or an array item given as null: 400 naming the type it takes', async () => {
    const before = (await t.call('GET', '/api/use/links')).json<{ total: number }>().total
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ destinationUrl: null }, 'destinationUrl', 'must be a string'],
      [{ tags: ['a', null] }, 'tags.1', 'must be a string'],
      [
        { rules: [{ conditions: [{ type: 'country', value: null }], destinationUrl: E }] },
        'rules.0.conditions.0.value',
        'must be a string',
      ],
    ]
    for (const [body, field, message] of cases) {
      const res = await t.call('POST', '/api/use/links', { body: { destinationUrl: E, ...body } })
      expect(expectError(res, 400, 'ValidationError').details, field).toEqual([{ field, message }])
    }
    expect((await t.call('GET', '/api/use/links')).json<{ total: number }>().total).toBe(before)
  })

  it('updating a link: null leaves a field that takes none as it is; nullable fields clear', async () => {
    const created = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: E, title: 'Spring', tags: ['a'], metadata: { keep: 1 } },
    })
    const link = created.json<Link>()
    const kept = await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { forwardQuery: null, destinationUrl: null, shortCode: null, title: 'Summer' },
    })
    expect(kept.statusCode, kept.body).toBe(200)
    expect(kept.json<Link>()).toMatchObject({
      forwardQuery: true,
      destinationUrl: E,
      shortCode: link.shortCode,
      title: 'Summer',
    })

    const cleared = await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { title: null, expiresAt: null, metadata: { keep: null } },
    })
    expect(cleared.statusCode, cleared.body).toBe(200)
    expect(cleared.json<Link>()).toMatchObject({ title: null, expiresAt: null, metadata: { keep: null } })
  })

  it('in a bulk item: as in a single create; an item that is null fails alone', async () => {
    const res = await t.call('POST', '/api/use/links/bulk', {
      body: { links: [{ destinationUrl: E, forwardQuery: null }, { destinationUrl: null }, null] },
    })
    expect(res.statusCode, res.body).toBe(200)
    const { results } = res.json<BulkCreateResult>()
    expect(results.map((r) => r.status)).toEqual(['created', 'failed', 'failed'])
    expect(results[0]!.link?.forwardQuery).toBe(true)
    expect(results[1]!.error?.details).toEqual([{ field: 'destinationUrl', message: 'must be a string' }])
  })

  it('on other resources too: an API key takes its default request limit', async () => {
    const res = await t.call('POST', '/api/keys', { body: { name: 'ci', requestLimit: null } })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ requestLimit: 1000 })
  })
})
