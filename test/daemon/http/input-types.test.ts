/**
 * A JSON body's types are its own: ajv's type coercion turned `{"customSlug": true}` into the slug
 * "true", `{"tags": "a"}` into ["a"] and `{"forwardQuery": "false"}` into false. A wrong type in a
 * body is now a 400 naming the field; querystrings and path parameters are text and keep theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createLink } from '../../support/links.js'
import { expectError } from '../../support/responses.js'
import type { BulkCreateResult, Link } from '../../../src/contract/links.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const E = 'https://example.com/'
type Details = { details: { field: string; message: string }[] }

describe('a wrong type in a JSON body', () => {
  it('is a 400 naming the field, and nothing is stored', async () => {
    const total = async () => (await t.call('GET', '/api/use/links')).json<{ total: number }>().total
    const before = await total()
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ customSlug: true }, 'customSlug', 'must be a string'],
      [{ customSlug: 12345 }, 'customSlug', 'must be a string'],
      [{ tags: 'a' }, 'tags', 'must be an array'],
      [{ forwardQuery: 'true' }, 'forwardQuery', 'must be true or false'],
      [{ maxClicks: '5' }, 'maxClicks', 'must be a whole number'],
      [{ title: ['x'] }, 'title', 'must be a string'],
    ]
    for (const [extra, field, message] of cases) {
      const res = await t.call('POST', '/api/use/links', { body: { destinationUrl: E, ...extra } })
      expectError(res, 400, 'ValidationError', '/api/use/links')
      expect(res.json<Details>().details, JSON.stringify(extra)).toEqual([{ field, message }])
    }
    expect(await total()).toBe(before)
  })

  it('in other bodies too: a key, a webhook, a bulk item, a PATCH', async () => {
    const key = await t.call('POST', '/api/keys', { body: { name: 'k', requestLimit: '100' } })
    expectError(key, 400, 'ValidationError', '/api/keys')
    expect(key.json<Details>().details).toEqual([
      { field: 'requestLimit', message: 'must be a whole number' },
    ])
    const hook = await t.call('POST', '/api/webhooks', {
      body: { name: 'w', url: 'https://example.com/h', events: 'link.created' },
    })
    expectError(hook, 400, 'ValidationError', '/api/webhooks')
    expect(hook.json<Details>().details).toEqual([{ field: 'events', message: 'must be an array' }])
    const bulk = await t.call('POST', '/api/use/links/bulk', {
      body: { links: [{ destinationUrl: E, customSlug: true }, { destinationUrl: E }] },
    })
    expect(bulk.statusCode, bulk.body).toBe(200)
    const result = bulk.json<BulkCreateResult>()
    expect(result).toMatchObject({ created: 1, failed: 1 })
    expect(result.results[0]?.error?.details).toEqual([{ field: 'customSlug', message: 'must be a string' }])
    const link = await createLink(t, { destinationUrl: E })
    const patch = await t.call('PATCH', `/api/use/links/${link.id}`, { body: { forwardQuery: 0 } })
    expectError(patch, 400, 'ValidationError')
    const after = (await t.call('GET', `/api/use/links/${link.id}`)).json<Link>()
    expect(after.forwardQuery).toBe(true)
  })

  it('right types still pass; querystrings and path parameters keep being read as text', async () => {
    const res = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: E, customSlug: 'typed-slug', tags: ['a'], forwardQuery: false, maxClicks: 5 },
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json<Link>()).toMatchObject({
      shortCode: 'typed-slug',
      tags: ['a'],
      forwardQuery: false,
      maxClicks: 5,
    })
    // limit=10 is a number, tag=a one tag: both from text.
    const list = await t.call('GET', '/api/use/links?limit=10&page=1&tag=a')
    expect(list.statusCode, list.body).toBe(200)
    expect(list.json<{ perPage: number; data: Link[] }>()).toMatchObject({
      perPage: 10,
      data: [{ shortCode: 'typed-slug' }],
    })
    const bad = await t.call('GET', '/api/use/links?limit=7')
    expectError(bad, 400, 'ValidationError', '/api/use/links')
  })
})
