/**
 * `null` where a field takes no null: ajv's type coercion turned it into "", 0, false or [""], so
 * `forwardQuery: null` silently switched query forwarding off and `customSlug: null` was refused
 * with two messages about an empty string. Every body refuses it, 400 naming the type it takes;
 * fields that take null (a PATCH's clearing values) and free-form metadata keep it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import type { Link } from '../../../src/contract/links.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const E = 'https://example.com/'

describe('null in a field that takes no null', () => {
  it('creating a link: 400 naming what the field takes, and nothing is stored', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ forwardQuery: null }, 'forwardQuery', 'must be true or false'],
      [{ customSlug: null }, 'customSlug', 'must be a string'],
      [{ redirectType: null }, 'redirectType', 'must be a whole number'],
      [{ tags: null }, 'tags', 'must be an array'],
      [{ tags: ['a', null] }, 'tags.1', 'must be a string'],
      [{ destinationUrl: null }, 'destinationUrl', 'must be a string'],
    ]
    for (const [body, field, message] of cases) {
      const res = await t.call('POST', '/api/use/links', { body: { destinationUrl: E, ...body } })
      const err = expectError(res, 400, 'ValidationError')
      expect(err.details, JSON.stringify(body)).toEqual([{ field, message }])
    }
    expect((await t.call('GET', '/api/use/links')).json<{ total: number }>().total).toBe(0)
  })

  it('updating a link: 400, the link unchanged; nullable fields still clear', async () => {
    const created = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: E, title: 'Spring', tags: ['a'], metadata: { keep: 1 } },
    })
    const link = created.json<Link>()
    for (const [field, message] of [
      ['forwardQuery', 'must be true or false'],
      ['destinationUrl', 'must be a string'],
      ['shortCode', 'must be a string'],
    ]) {
      const res = await t.call('PATCH', `/api/use/links/${link.id}`, { body: { [field!]: null } })
      expect(expectError(res, 400, 'ValidationError').details, field).toEqual([{ field, message }])
    }
    const unchanged = (await t.call('GET', `/api/use/links/${link.id}`)).json<Link>()
    expect(unchanged).toMatchObject({ forwardQuery: true, destinationUrl: E, shortCode: link.shortCode })

    const cleared = await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { title: null, expiresAt: null, metadata: { keep: null } },
    })
    expect(cleared.statusCode, cleared.body).toBe(200)
    expect(cleared.json<Link>()).toMatchObject({ title: null, expiresAt: null, metadata: { keep: null } })
  })

  it('in a bulk item: that item fails naming the field, the others are created', async () => {
    const res = await t.call('POST', '/api/use/links/bulk', {
      body: { links: [{ destinationUrl: E, forwardQuery: null }, { destinationUrl: E }, null] },
    })
    expect(res.statusCode, res.body).toBe(200)
    const { created, results } = res.json<{ created: number; results: Array<Record<string, any>> }>()
    expect(created).toBe(1)
    expect(results[0]!.error.details).toEqual([{ field: 'forwardQuery', message: 'must be true or false' }])
    expect(results.map((r) => r.status)).toEqual(['failed', 'created', 'failed'])
  })

  it('on other resources too: an API key', async () => {
    const res = await t.call('POST', '/api/keys', { body: { name: 'ci', requestLimit: null } })
    expect(expectError(res, 400, 'ValidationError').details).toEqual([
      { field: 'requestLimit', message: 'must be a whole number' },
    ])
  })
})
