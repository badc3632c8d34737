import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import type { BulkCreateResult } from '../../../src/contract/links.js'
import type { EventEnvelope } from '../../../daemon/events.js'
import { detailFields, expectError } from '../../support/responses.js'
import { LINK_FIELDS, createLink, iso } from '../../support/links.js'

const url = (i: number) => `https://example.com/item/${i}`

describe('links API: bulk create', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp({ publicUrl: 'https://sho.rt' })
  })
  afterEach(() => t.close())

  const bulk = async (links: unknown[], opts: { headers?: Record<string, string> } = {}) => {
    const res = await t.call('POST', '/api/use/links/bulk', { body: { links }, ...opts })
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200)
    return res.json<BulkCreateResult>()
  }
  const total = async () => (await t.call('GET', '/api/use/links')).json<{ total: number }>().total

  it('creates 1,000 links in one request, each with a unique generated code', async () => {
    const r = await bulk(Array.from({ length: 1000 }, (_, i) => ({ destinationUrl: url(i), tags: ['bulk'] })))
    expect(r.created).toBe(1000)
    expect(r.failed).toBe(0)
    expect(r.results.map((x) => x.index)).toEqual(Array.from({ length: 1000 }, (_, i) => i))
    expect(r.results.every((x) => x.status === 'created' && !x.error)).toBe(true)
    const first = r.results[0]!.link!
    expect(Object.keys(first).sort()).toEqual(LINK_FIELDS)
    expect(first).toMatchObject({ destinationUrl: url(0), status: 'active', tags: ['bulk'], clicks: 0 })
    expect(first.shortUrl).toBe(`https://sho.rt/${first.shortCode}`)
    expect(new Set(r.results.map((x) => x.link!.shortCode)).size).toBe(1000)
    expect(await total()).toBe(1000)
    expect((await t.call('GET', '/api/use/links?tag=bulk')).json().total).toBe(1000)
  })

  it('accepts bulk bodies beyond the global body limit (full items), while a single create keeps it', async () => {
    const metadata = { blob: 'x'.repeat(9_000) }
    const items = Array.from({ length: 200 }, (_, i) => ({ destinationUrl: url(i), metadata }))
    expect(JSON.stringify({ links: items }).length).toBeGreaterThan(t.config.bodyLimitBytes)
    const r = await bulk(items)
    expect(r.created).toBe(200)
    const big = { destinationUrl: url(0), metadata: { blob: 'x'.repeat(t.config.bodyLimitBytes) } }
    expectError(await t.call('POST', '/api/use/links', { body: big }), 413, 'PayloadTooLarge')
  })

  it('1,001 items, no items or a non-array is a 400 for the whole request', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ destinationUrl: url(i) }))
    for (const body of [{ links: many }, { links: [] }, { links: {} }, {}, { links: [{}], extra: 1 }]) {
      const res = await t.call('POST', '/api/use/links/bulk', { body })
      expectError(res, 400, 'ValidationError', '/api/use/links/bulk')
    }
    expect(detailFields(await t.call('POST', '/api/use/links/bulk', { body: { links: many } }))).toContain(
      'links',
    )
    expect(await total()).toBe(0)
  })

  it('commits the valid items and reports each invalid one with its index and reason', async () => {
    const seen: Array<EventEnvelope<'link.created'>> = []
    t.app.linkd.services.events.on('link.created', (e) => void seen.push(e))
    const r = await bulk([
      { destinationUrl: url(0), title: 'ok' },
      { destinationUrl: 'javascript:alert(1)' },
      { destinationUrl: url(2), title: 't'.repeat(256), customSlug: 'x' },
      { destinationUrl: url(3), customSlug: 'api' },
      { destinationUrl: url(4), expiresAt: iso(t.clock.now() - 1) },
      'not an object',
      { destinationUrl: url(6), metadata: { k: 'x'.repeat(10_233) } },
      { destinationUrl: url(7), customDomainId: 'dom_x' },
      { destinationUrl: url(8), customSlug: 'good-one', redirectType: 301 },
    ])
    expect(r.created).toBe(2)
    expect(r.failed).toBe(7)
    const byIndex = new Map(r.results.map((x) => [x.index, x]))
    expect(byIndex.get(0)).toMatchObject({ status: 'created', link: { title: 'ok' } })
    expect(byIndex.get(8)).toMatchObject({
      status: 'created',
      link: { shortCode: 'good-one', redirectType: 301 },
    })
    const failure = (i: number) => {
      const x = byIndex.get(i)!
      expect(x.status).toBe('failed')
      expect(x.link).toBeUndefined()
      expect(typeof x.error!.message).toBe('string')
      return x.error!
    }
    const fields = (i: number) => (failure(i).details ?? []).map((d) => d.field)
    expect(failure(1).error).toBe('ValidationError')
    expect(fields(1)).toEqual(['destinationUrl'])
    expect(fields(2).sort()).toEqual(['customSlug', 'title'])
    expect(failure(3)).toMatchObject({ error: 'ValidationError', details: [{ field: 'customSlug' }] })
    expect(failure(3).message).toMatch(/reserved/)
    expect(fields(4)).toEqual(['expiresAt'])
    expect(failure(5).error).toBe('ValidationError')
    expect(fields(6)).toEqual(['metadata'])
    expect(failure(7).error).toBe('Unprocessable')
    expect(await total()).toBe(2)
    expect(seen.map((e) => e.data.id).sort()).toEqual(
      [byIndex.get(0)!.link!.id, byIndex.get(8)!.link!.id].sort(),
    )
  })

  it('a slug used twice in the batch, or already taken, fails that item with Conflict', async () => {
    await createLink(t, { customSlug: 'existing' })
    const r = await bulk([
      { destinationUrl: url(0), customSlug: 'dup' },
      { destinationUrl: url(1), customSlug: 'dup' },
      { destinationUrl: url(2), customSlug: 'existing' },
      { destinationUrl: url(3), customSlug: 'Existing' },
      { destinationUrl: url(4) },
    ])
    expect(r.results.map((x) => x.status)).toEqual(['created', 'failed', 'failed', 'created', 'created'])
    expect(r.results[1]!.error).toMatchObject({ error: 'Conflict', details: [{ field: 'customSlug' }] })
    expect(r.results[2]!.error!.error).toBe('Conflict')
    expect(r.results[0]!.link!.destinationUrl).toBe(url(0))
    expect(await total()).toBe(4)
  })

  it('when nothing is valid, nothing is created', async () => {
    const r = await bulk([{ destinationUrl: 'ftp://x' }, { nope: true }])
    expect(r).toMatchObject({ created: 0, failed: 2 })
    expect(await total()).toBe(0)
  })

  it('the valid items commit in one transaction: a storage failure leaves none of them', async () => {
    // A storage failure on the third row: a trigger (each engine has its own syntax).
    await sql
      .raw(
        t.db.dialect === 'sqlite'
          ? `CREATE TRIGGER fail_insert BEFORE INSERT ON links
             WHEN NEW.destination_url = 'https://fail.example/' BEGIN SELECT RAISE(ABORT, 'boom'); END`
          : `CREATE FUNCTION fail_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
               IF NEW.destination_url = 'https://fail.example/' THEN RAISE EXCEPTION 'boom'; END IF;
               RETURN NEW; END $$;
             CREATE TRIGGER fail_insert BEFORE INSERT ON links FOR EACH ROW EXECUTE FUNCTION fail_insert()`,
      )
      .execute(t.db.kysely)
    const seen: string[] = []
    t.app.linkd.services.events.onAny((e) => void seen.push(e.type))
    const res = await t.call('POST', '/api/use/links/bulk', {
      body: {
        links: [
          { destinationUrl: url(0), tags: ['x'] },
          { destinationUrl: url(1) },
          { destinationUrl: 'https://fail.example/' },
          { destinationUrl: url(3) },
        ],
      },
    })
    expectError(res, 500, 'InternalError')
    expect(await total()).toBe(0)
    expect(await t.db.kysely.selectFrom('link_tags').selectAll().execute()).toEqual([])
    expect(seen).toEqual([])
  })

  it('a bulk request replays with the same X-Idempotency-Key instead of creating twice', async () => {
    const headers = { 'x-idempotency-key': 'chunk-0001' }
    const links = [{ destinationUrl: url(0) }, { destinationUrl: url(1), customSlug: 'once' }]
    const first = await bulk(links, { headers })
    const res = await t.call('POST', '/api/use/links/bulk', { body: { links }, headers })
    expect(res.statusCode).toBe(200)
    expect(res.headers['idempotent-replayed']).toBe('true')
    expect(res.json()).toEqual(first)
    expect(await total()).toBe(2)
  })
})
