import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import type { Link } from '../../../src/contract/links.js'
import { expectError, detailFields } from '../../support/responses.js'
import { createLink, iso } from '../../support/links.js'

const MIN = 60_000
const HOUR = 60 * MIN

interface PageBody {
  data: Link[]
  total: number
  page: number
  perPage: number
  hasMore: boolean
}

describe('links API: list', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  const list = async (query = '') => {
    const res = await t.call('GET', `/api/use/links${query}`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<PageBody>()
  }
  const codes = (p: PageBody) => p.data.map((l) => l.shortCode)
  /** Creates a link one minute after the previous one, so that creation order is the sort order. */
  const make = async (body: Record<string, unknown>, key?: string) => {
    t.clock.advance(MIN)
    return createLink(t, body, key)
  }

  /** Links c01..cNN created one minute apart. */
  async function seed(n: number): Promise<Link[]> {
    const out: Link[] = []
    for (let i = 1; i <= n; i++) {
      out.push(await createLink(t, { customSlug: `c${String(i).padStart(2, '0')}` }))
      t.clock.advance(MIN)
    }
    return out
  }

  it('an empty list is the envelope with no data', async () => {
    expect(await list()).toEqual({ data: [], total: 0, page: 1, perPage: 20, hasMore: false })
  })

  it('pages with limit/perPage 10, 20, 50, 100 (default 20), newest first', async () => {
    await seed(25)
    const first = await list()
    expect(first).toMatchObject({ total: 25, page: 1, perPage: 20, hasMore: true })
    expect(first.data).toHaveLength(20)
    expect(first.data[0]!.shortCode).toBe('c25')
    const p3 = await list('?limit=10&page=3')
    expect(p3).toMatchObject({ total: 25, page: 3, perPage: 10, hasMore: false })
    expect(codes(p3)).toEqual(['c05', 'c04', 'c03', 'c02', 'c01'])
    const p2 = await list('?perPage=10&page=2')
    expect(p2).toMatchObject({ page: 2, perPage: 10, hasMore: true })
    expect(codes(p2)[0]).toBe('c15')
    expect((await list('?limit=50')).data).toHaveLength(25)
    expect((await list('?limit=100')).perPage).toBe(100)
    expect(await list('?page=4&limit=10')).toMatchObject({ data: [], total: 25, hasMore: false })
    for (const q of ['?limit=15', '?perPage=0', '?limit=200', '?page=0', '?page=-1', '?page=x']) {
      const res = await t.call('GET', `/api/use/links${q}`)
      expectError(res, 400, 'ValidationError')
    }
  })

  it('sorts by createdAt or clicks, ascending or descending', async () => {
    const [a, b, c] = await seed(3)
    expect(codes(await list('?sortBy=createdAt&sortOrder=asc'))).toEqual(['c01', 'c02', 'c03'])
    expect(codes(await list('?sortOrder=desc'))).toEqual(['c03', 'c02', 'c01'])
    await t.app.linkd.services.links.addClicks([
      { linkId: a!.id, clicks: 5 },
      { linkId: b!.id, clicks: 40 },
      { linkId: c!.id, clicks: 1 },
    ])
    const byClicks = await list('?sortBy=clicks')
    expect(codes(byClicks)).toEqual(['c02', 'c01', 'c03'])
    expect(byClicks.data.map((l) => l.clicks)).toEqual([40, 5, 1])
    expect(codes(await list('?sortBy=clicks&sortOrder=asc'))).toEqual(['c03', 'c01', 'c02'])
    // ties on clicks fall back to creation order
    await t.app.linkd.services.links.addClicks([{ linkId: c!.id, clicks: 4 }])
    expect(codes(await list('?sortBy=clicks&sortOrder=desc'))).toEqual(['c02', 'c03', 'c01'])
    for (const q of ['?sortBy=title', '?sortOrder=up'])
      expect(detailFields(await t.call('GET', `/api/use/links${q}`)).length).toBeGreaterThan(0)
  })

  it('sorting by clicks is served by the (organization_id, clicks) index, not a scan of clicks', async () => {
    const query =
      "SELECT * FROM links WHERE organization_id = 'org_x' ORDER BY clicks DESC, created_at DESC, id DESC LIMIT 20"
    // PostgreSQL plans a table this small as a scan whatever its indexes: asked not to, it must
    // still read the index that serves the order, not sort.
    const plan =
      t.db.dialect === 'sqlite'
        ? (t.db.sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as Array<{ detail: string }>).map(
            (p) => p.detail,
          )
        : await t.db.kysely.transaction().execute(async (trx) => {
            await sql`SET LOCAL enable_seqscan = off`.execute(trx)
            const rows = await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`).execute(trx)
            return rows.rows.map((r) => r['QUERY PLAN'])
          })
    expect(plan.join(' ')).toMatch(/links_org_clicks/)
  })

  it('search is case-insensitive over title, short code and destination URL', async () => {
    await make({ customSlug: 'summer-sale', title: 'Beach gear', destinationUrl: 'https://shop.example/a' })
    await make({ customSlug: 'xmas', title: 'Winter SALE', destinationUrl: 'https://shop.example/b' })
    await make({ customSlug: 'docs-link', destinationUrl: 'https://docs.example/SALEs-guide' })
    await make({ customSlug: 'other', title: 'Nothing here', destinationUrl: 'https://x.example/' })
    expect(codes(await list('?search=sale&sortOrder=asc'))).toEqual(['summer-sale', 'xmas', 'docs-link'])
    expect(codes(await list('?search=BEACH'))).toEqual(['summer-sale'])
    expect(codes(await list('?search=XMA'))).toEqual(['xmas'])
    expect(codes(await list('?search=shop.example&sortOrder=asc'))).toEqual(['summer-sale', 'xmas'])
    expect((await list('?search=nomatch')).total).toBe(0)
    // LIKE wildcards are literal
    expect((await list('?search=%25')).total).toBe(0)
    expect((await list('?search=_')).total).toBe(0)
    expect(codes(await list('?search=summer-')).length).toBe(1)
    // shortCode: that code exactly (case-sensitive), not every link mentioning it.
    expect(codes(await list('?shortCode=xmas'))).toEqual(['xmas'])
    expect((await list('?shortCode=XMAS')).total).toBe(0)
    expect((await list('?shortCode=sale')).total).toBe(0)
  })

  it('filters by status, deriving expired from expiresAt', async () => {
    const active = await make({ customSlug: 'active1' })
    const inactive = await make({ customSlug: 'inactive1' })
    await t.call('PATCH', `/api/use/links/${inactive.id}`, { body: { status: 'inactive' } })
    await make({ customSlug: 'expiring', expiresAt: iso(t.clock.now() + HOUR) })
    expect(codes(await list('?status=active&sortOrder=asc'))).toEqual(['active1', 'expiring'])
    expect(codes(await list('?status=expired'))).toEqual([])
    t.clock.advance(HOUR)
    expect(codes(await list('?status=active'))).toEqual([active.shortCode])
    expect(codes(await list('?status=inactive'))).toEqual(['inactive1'])
    expect(codes(await list('?status=expired'))).toEqual(['expiring'])
    expect((await list('?status=expired')).data[0]!.status).toBe('expired')
    // the same after the job persisted it
    await t.app.linkd.scheduler.runNow('expire-links')
    expect(codes(await list('?status=expired'))).toEqual(['expiring'])
    expect(codes(await list('?status=active'))).toEqual(['active1'])
    expectError(await t.call('GET', '/api/use/links?status=deleted'), 400, 'ValidationError')
  })

  it('filters by tag (exact, trimmed) and combines filters', async () => {
    await make({ customSlug: 'one', tags: ['promo', 'q4'], title: 'Alpha' })
    await make({ customSlug: 'two', tags: ['promo'], title: 'Beta' })
    await make({ customSlug: 'three', tags: ['Promo'], title: 'Alpha too' })
    await make({ customSlug: 'four' })
    expect(codes(await list('?tag=promo&sortOrder=asc'))).toEqual(['one', 'two'])
    expect(codes(await list('?tag=%20q4%20'))).toEqual(['one'])
    expect(codes(await list('?tag=Promo'))).toEqual(['three'])
    expect(codes(await list('?tag=promo&search=alpha'))).toEqual(['one'])
    expect((await list('?tag=none')).total).toBe(0)
    expect((await list('?tag=promo&limit=10')).total).toBe(2)
  })

  it("lists only the caller's organization", async () => {
    const other = await t.createOrg('other')
    await make({ customSlug: 'mine', tags: ['t'] })
    await make({ customSlug: 'theirs', tags: ['t'] }, other.ownerKey)
    expect(codes(await list())).toEqual(['mine'])
    expect(codes(await list('?tag=t'))).toEqual(['mine'])
    expect(codes(await list('?search=theirs'))).toEqual([])
  })
})
