import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { pageOf, pageParams } from '../../../daemon/http/pagination.js'
import { PAGE_MAX } from '../../../src/contract/limits.js'
import { detailFields, expectError } from '../../support/responses.js'

interface Envelope {
  data: Array<{ id: string; name: string; createdAt: string }>
  total: number
  page: number
  perPage: number
  hasMore: boolean
}

describe('pagination', () => {
  let t: TestApp
  /** The 26 keys (owner + 25), newest first. */
  let ids: string[]

  beforeAll(async () => {
    t = await createTestApp()
    const { keys } = t.app.linkd.services
    const created: string[] = []
    for (let i = 1; i <= 25; i++) {
      t.clock.advance(1000)
      created.push((await keys.create(t.orgId, { name: `key ${String(i).padStart(2, '0')}` })).id)
    }
    const owner = (await t.call('GET', '/api/keys?limit=100'))
      .json<Envelope>()
      .data.find((k) => k.name === 'owner')!
    ids = [...created.reverse(), owner.id]
  })
  afterAll(() => t.close())

  const page = async (query: string) => {
    const res = await t.call('GET', `/api/keys${query}`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<Envelope>()
  }

  it('defaults to page 1 of 20', async () => {
    const p = await page('')
    expect(p).toMatchObject({ total: 26, page: 1, perPage: 20, hasMore: true })
    expect(p.data.map((k) => k.id)).toEqual(ids.slice(0, 20))
    const p2 = await page('?page=2')
    expect(p2).toMatchObject({ total: 26, page: 2, perPage: 20, hasMore: false })
    expect(p2.data.map((k) => k.id)).toEqual(ids.slice(20))
  })

  it('walks every page of 10 without gaps or repeats, newest first', async () => {
    const seen: string[] = []
    const times: number[] = []
    const expected = [
      { page: 1, n: 10, hasMore: true },
      { page: 2, n: 10, hasMore: true },
      { page: 3, n: 6, hasMore: false },
    ]
    for (const e of expected) {
      const p = await page(`?limit=10&page=${e.page}`)
      expect(p).toMatchObject({ total: 26, page: e.page, perPage: 10, hasMore: e.hasMore })
      expect(p.data).toHaveLength(e.n)
      seen.push(...p.data.map((k) => k.id))
      times.push(...p.data.map((k) => Date.parse(k.createdAt)))
    }
    expect(seen).toEqual(ids)
    expect(new Set(seen).size).toBe(26)
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  it('perPage is an alias of limit', async () => {
    const p = await page('?perPage=10&page=3')
    expect(p).toMatchObject({ perPage: 10, page: 3, hasMore: false })
    expect(p.data.map((k) => k.id)).toEqual(ids.slice(20))
  })

  it('accepts 10, 20, 50 and 100', async () => {
    for (const n of [10, 20, 50, 100]) {
      const p = await page(`?limit=${n}`)
      expect(p.perPage).toBe(n)
      expect(p.data).toHaveLength(Math.min(n, 26))
      expect(p.hasMore).toBe(n < 26)
      expect((await page(`?perPage=${n}`)).perPage).toBe(n)
    }
  })

  it('any other page size is 400 naming the parameter', async () => {
    for (const bad of ['0', '1', '5', '15', '21', '25', '99', '101', '1000', '-10', '10.5', 'ten', '']) {
      const res = await t.call('GET', `/api/keys?limit=${bad}`)
      expectError(res, 400, 'ValidationError', '/api/keys')
      expect(new Set(detailFields(res)), `limit=${bad}`).toEqual(new Set(['limit']))
      const alias = await t.call('GET', `/api/keys?perPage=${bad}`)
      expectError(alias, 400, 'ValidationError')
      expect(new Set(detailFields(alias))).toEqual(new Set(['perPage']))
    }
  })

  it('page starts at 1; 0, negatives and non-integers are 400', async () => {
    expect((await page('?page=1')).page).toBe(1)
    for (const bad of ['0', '-1', '1.5', 'first']) {
      const res = await t.call('GET', `/api/keys?page=${bad}`)
      expectError(res, 400, 'ValidationError')
      expect(new Set(detailFields(res))).toEqual(new Set(['page']))
    }
  })

  it(`page is at most ${PAGE_MAX.toLocaleString('en')} on every list: huge numbers are 400 naming page, never a 500`, async () => {
    expect(await page(`?page=${PAGE_MAX}&limit=100`)).toMatchObject({
      data: [],
      page: PAGE_MAX,
      hasMore: false,
    })
    const lists = ['/api/keys', '/api/use/links', '/api/webhooks', '/api/domains', '/api/v1/admin/games']
    const huge = [String(PAGE_MAX + 1), '9007199254740993', '99999999999999999999', '1e300', '1e15']
    for (const url of lists)
      for (const bad of huge) {
        const res = await t.call('GET', `${url}?page=${bad}&limit=100`)
        const body = expectError(res, 400, 'ValidationError', url)
        expect(body.details, `${url}?page=${bad}`).toEqual([
          { field: 'page', message: `must be at most ${PAGE_MAX}` },
        ])
      }
  })

  it('a page past the end is empty with hasMore false', async () => {
    const p = await page('?page=4&limit=10')
    expect(p).toEqual({ data: [], total: 26, page: 4, perPage: 10, hasMore: false })
    expect(await page('?page=1000')).toMatchObject({ data: [], total: 26, hasMore: false })
  })

  it('an exact multiple has hasMore false on its last page', async () => {
    // "key 1" matches key 10 … key 19: exactly one page of 10
    const filtered = await page('?limit=10&search=key%201')
    expect(filtered).toMatchObject({ total: 10, page: 1, hasMore: false })
    expect(filtered.data).toHaveLength(10)
    expect(await page('?limit=10&page=2&search=key%201')).toMatchObject({
      data: [],
      total: 10,
      hasMore: false,
    })
    // "key 0" matches key 01 … key 09
    const nine = await page('?limit=10&search=key%200')
    expect(nine).toMatchObject({ total: 9, hasMore: false })
  })

  it('the activity log is paginated the same way', async () => {
    const k = ids[0]!
    const value = (await t.call('POST', `/api/keys/${k}/regenerate`)).json().key as string
    await t.call('PATCH', `/api/keys/${k}`, { body: { permissions: ['keys:read'] } })
    for (let i = 0; i < 12; i++) await t.call('GET', `/api/keys/${k}`, { key: value })
    const p1 = await t.call('GET', `/api/keys/${k}/activity?limit=10`)
    expect(p1.json()).toMatchObject({ total: 12, page: 1, perPage: 10, hasMore: true })
    const p2 = (await t.call('GET', `/api/keys/${k}/activity?perPage=10&page=2`)).json()
    expect(p2).toMatchObject({ total: 12, page: 2, hasMore: false })
    expect(p2.data).toHaveLength(2)
    expect((await t.call('GET', `/api/keys/${k}/activity`)).json().perPage).toBe(20)
    expectError(await t.call('GET', `/api/keys/${k}/activity?limit=7`), 400, 'ValidationError')
    expectError(await t.call('GET', `/api/keys/${k}/activity?page=0`), 400, 'ValidationError')
  })

  it('pageParams and pageOf compute offsets and hasMore', () => {
    expect(pageParams({})).toEqual({ page: 1, perPage: 20, offset: 0 })
    expect(pageParams({ page: 3, limit: 10 })).toEqual({ page: 3, perPage: 10, offset: 20 })
    expect(pageParams({ page: 2, perPage: 50 })).toEqual({ page: 2, perPage: 50, offset: 50 })
    expect(pageOf([1, 2], 12, { page: 2, perPage: 10, offset: 10 })).toEqual({
      data: [1, 2],
      total: 12,
      page: 2,
      perPage: 10,
      hasMore: false,
    })
    expect(pageOf([1], 12, { page: 1, perPage: 1, offset: 0 }).hasMore).toBe(true)
  })
})
