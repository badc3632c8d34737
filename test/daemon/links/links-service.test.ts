import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { assignCodes } from '../../../daemon/modules/links/codes.js'
import { createLinkStore } from '../../../daemon/modules/links/store.js'
import { SHARED_DOMAIN_KEY, createReservedCodes } from '../../../daemon/modules/links/index.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import type { EventEnvelope } from '../../../daemon/events.js'
import { createLink, iso } from '../../support/links.js'
import type { Kysely } from 'kysely'
import { kyselyUnit, postgresUnit } from '../../../daemon/db/unit-of-work.js'
import type { Database } from '../../../daemon/db/schema.js'

const HOUR = 3_600_000

describe('short code generation', () => {
  const reserved = createReservedCodes()
  reserved.addRoute('/health/live')
  /** Codes on the domain already, and the generator's codes in the order it gives them. */
  const assign = (onDomain: string[], script: string[], items: Array<string | undefined>) => {
    const taken = async (codes: string[]) => new Set(codes.filter((c) => onDomain.includes(c)))
    const next = () => script.shift() ?? 'ZZZZZZZ'
    return assignCodes(
      taken,
      items.map((customSlug, index) => ({ index, customSlug })),
      reserved,
      { generate: next },
    )
  }

  it('retries on a collision and never hands out a reserved code', async () => {
    // The collision is a link in the database, found by the store's own query.
    const t = await createTestApp()
    try {
      await createLink(t, { customSlug: 'AAAAAAA' })
      const store = createLinkStore(t.db.kysely)
      const script = ['AAAAAAA', 'Health', 'BBBBBBB']
      const codes = await assignCodes(
        (list) => store.takenCodes(SHARED_DOMAIN_KEY, list),
        [{ index: 0, customSlug: undefined }],
        t.app.linkd.services.reserved,
        { generate: () => script.shift()! },
      )
      expect([...codes.values()]).toEqual(['BBBBBBB'])
    } finally {
      await t.close()
    }
    // within a bulk request, codes already given to earlier items are not reused
    const bulk = await assign([], ['CCCCCCC', 'CCCCCCC', 'BBBBBBB'], [undefined, 'BBBBBBB', undefined])
    expect([...bulk.entries()].sort()).toEqual([
      [0, 'CCCCCCC'],
      [1, 'BBBBBBB'],
      [2, 'ZZZZZZZ'],
    ])
  })

  it('a custom slug taken on the domain or by an earlier item is a 409; gives up after 10 rounds', async () => {
    const r = await assign(['taken'], [], ['taken', 'mine', 'mine'])
    expect(r.get(0)).toMatchObject({ type: 'Conflict' })
    expect(r.get(1)).toBe('mine')
    expect(r.get(2)).toMatchObject({ type: 'Conflict' })
    // every code proposed is taken: distinct codes, ten rounds, then an error for that item only
    let n = 0
    const proposed: string[] = []
    const full = await assignCodes(
      async (codes) => new Set(codes.filter((c) => c !== 'free')),
      [
        { index: 0, customSlug: undefined },
        { index: 1, customSlug: 'free' },
      ],
      reserved,
      { generate: () => (proposed.push(`X${String(++n).padStart(6, '0')}`), proposed.at(-1)!) },
    )
    expect(proposed).toHaveLength(10)
    expect(full.get(1)).toBe('free')
    expect(full.get(0)).toMatchObject({ type: 'InternalError' })
  })
})

describe('links service: resolve and addClicks (used by the redirect)', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp({ publicUrl: 'https://sho.rt' })
  })
  afterEach(() => t.close())

  it('resolves a code on the shared domain with its effective status', async () => {
    const links = t.app.linkd.services.links
    const l = await createLink(t, {
      customSlug: 'go-now',
      redirectType: 307,
      expiresAt: iso(t.clock.now() + HOUR),
    })
    expect(await links.resolve('', 'go-now')).toEqual({
      id: l.id,
      organizationId: t.orgId,
      shortCode: 'go-now',
      shortUrl: 'https://sho.rt/go-now',
      destinationUrl: 'https://example.com/page',
      redirectType: 307,
      status: 'active',
      expiresAt: t.clock.now() + HOUR,
      expiredUrl: null,
      maxClicks: null,
      startsAt: null,
      forwardQuery: true,
      rules: [],
      title: null,
      passwordHash: null,
      og: null,
      smart: null,
      variants: [],
      flagged: null,
    })
    expect(await links.resolve('', 'GO-NOW')).toBeUndefined()
    expect(await links.resolve('', 'nope')).toBeUndefined()
    expect(await links.resolve('dom_other', 'go-now')).toBeUndefined()
    await t.call('PATCH', `/api/use/links/${l.id}`, { body: { status: 'inactive' } })
    expect((await links.resolve('', 'go-now'))?.status).toBe('inactive')
    t.clock.advance(HOUR)
    expect((await links.resolve('', 'go-now'))?.status).toBe('expired')
  })

  it('addClicks increments links.clicks, skips deleted links, and joins the caller transaction', async () => {
    const links = t.app.linkd.services.links
    const a = await createLink(t)
    const b = await createLink(t)
    await links.addClicks([
      { linkId: a.id, clicks: 3 },
      { linkId: b.id, clicks: 1 },
      { linkId: 'lnk_deleted', clicks: 9 },
    ])
    await links.addClicks([{ linkId: a.id, clicks: 2 }])
    expect((await t.call('GET', `/api/use/links/${a.id}`)).json().clicks).toBe(5)
    expect((await t.call('GET', `/api/use/links/${b.id}`)).json().clicks).toBe(1)
    // rolled back with the caller's transaction
    const unitOf = (trx: Kysely<Database>) =>
      t.db.dialect === 'sqlite' ? kyselyUnit(t.db.sqlite, trx) : postgresUnit(trx)
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await links.addClicks([{ linkId: a.id, clicks: 100 }], unitOf(trx))
        throw new Error('rollback')
      }),
    ).rejects.toThrow('rollback')
    expect((await t.call('GET', `/api/use/links/${a.id}`)).json().clicks).toBe(5)
    await t.db.kysely
      .transaction()
      .execute((trx) => links.addClicks([{ linkId: a.id, clicks: 1 }], unitOf(trx)))
    expect((await t.call('GET', `/api/use/links/${a.id}`)).json().clicks).toBe(6)
  })

  it('existingIds answers which of many ids are links that exist (deleted ones not)', async () => {
    const links = t.app.linkd.services.links
    const a = await createLink(t)
    const b = await createLink(t)
    expect((await t.call('DELETE', `/api/use/links/${b.id}`)).statusCode).toBe(204)
    const unknown = Array.from({ length: 1_200 }, (_, i) => `lnk_missing${i}`)
    const found = await links.existingIds([...unknown.slice(0, 700), a.id, b.id, ...unknown.slice(700)])
    expect([...found]).toEqual([a.id])
    expect(await links.existingIds([])).toEqual(new Set())
  })
})

describe('expire-links job', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  const stored = async (id: string) =>
    t.db.kysely
      .selectFrom('links')
      .select(['status', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  it('is registered to run every minute', () => {
    expect(t.app.linkd.scheduler.names()).toContain('expire-links')
  })

  it('persists expired for active and inactive links past expiresAt, once', async () => {
    const a = await createLink(t, { expiresAt: iso(t.clock.now() + HOUR) })
    const b = await createLink(t, { expiresAt: iso(t.clock.now() + HOUR) })
    const later = await createLink(t, { expiresAt: iso(t.clock.now() + 2 * HOUR) })
    const never = await createLink(t)
    await t.call('PATCH', `/api/use/links/${b.id}`, { body: { status: 'inactive' } })
    const updates: Array<EventEnvelope<'link.updated'>> = []
    t.app.linkd.services.events.on('link.updated', (e) => void updates.push(e))

    expect(await t.app.linkd.scheduler.runNow('expire-links')).toEqual({ ran: true, status: 'ok' })
    expect((await stored(a.id)).status).toBe('active')

    t.clock.advance(HOUR)
    // readers see it at once; storage catches up when the job runs
    expect((await t.call('GET', `/api/use/links/${a.id}`)).json().status).toBe('expired')
    expect((await stored(a.id)).status).toBe('active')
    expect(await t.app.linkd.scheduler.runNow('expire-links')).toEqual({
      ran: true,
      status: 'ok',
      summary: '2 links expired',
    })
    expect(await stored(a.id)).toEqual({ status: 'expired', updated_at: t.clock.now() })
    expect((await stored(b.id)).status).toBe('expired')
    expect((await stored(later.id)).status).toBe('active')
    expect((await stored(never.id)).status).toBe('active')
    expect(updates.map((e) => [e.data.id, 'status' in e.data ? e.data.status : 'smart']).sort()).toEqual(
      [
        [a.id, 'expired'],
        [b.id, 'expired'],
      ].sort(),
    )
    // idempotent
    expect(await t.app.linkd.scheduler.runNow('expire-links')).toEqual({ ran: true, status: 'ok' })
    expect(updates).toHaveLength(2)

    // a new expiry brings it back, also once persisted
    const revived = await t.call('PATCH', `/api/use/links/${a.id}`, {
      body: { expiresAt: iso(t.clock.now() + HOUR) },
    })
    expect(revived.json().status).toBe('active')
    expect((await stored(a.id)).status).toBe('active')
    expect((await t.app.linkd.services.links.resolve('', a.shortCode))?.status).toBe('active')
  })

  it('expires more links than one batch in a single run', async () => {
    const expiresAt = iso(t.clock.now() + HOUR)
    const links = Array.from({ length: 1000 }, (_, i) => ({
      destinationUrl: `https://e.example/${i}`,
      expiresAt,
    }))
    expect((await t.call('POST', '/api/use/links/bulk', { body: { links } })).json().created).toBe(1000)
    await createLink(t, { expiresAt })
    t.clock.advance(HOUR)
    expect((await t.app.linkd.scheduler.runNow('expire-links')).summary).toBe('1,001 links expired')
    expect((await t.call('GET', '/api/use/links?status=active')).json().total).toBe(0)
  })
})
