import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { DAY, flush, makeLink, visit } from '../../support/redirect.js'

const CLICK_TABLES = [
  'clicks',
  'link_click_hours',
  'link_click_dims',
  'link_click_dims_month',
  'link_day_visitors',
  'link_day_totals',
] as const

/** Rows of a link in every click table. */
async function rowsOf(t: TestApp, linkId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of CLICK_TABLES) {
    const row = await t.db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('link_id', '=', linkId)
      .executeTakeFirstOrThrow()
    counts[table] = Number(row.n)
  }
  return counts
}

describe('purge-deleted-link-clicks job', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('removes every click row of a deleted link and nothing of the others', async () => {
    t = await createTestApp()
    const gone = await makeLink(t)
    const kept = await makeLink(t)
    for (let day = 0; day < 3; day++) {
      for (let i = 0; i < 4; i++) {
        await visit(t, gone.shortCode, { ip: `203.0.113.${i}`, query: 'utm_source=mail' })
        await visit(t, kept.shortCode, { ip: `203.0.113.${i}` })
      }
      t.clock.advance(DAY)
    }
    await flush(t)
    const before = await rowsOf(t, kept.id)
    expect(Object.values(await rowsOf(t, gone.id)).every((n) => n > 0)).toBe(true)

    expect((await t.call('DELETE', `/api/use/links/${gone.id}`)).statusCode).toBe(204)
    const run = await t.app.linkd.scheduler.runNow('purge-deleted-link-clicks')
    expect(run).toMatchObject({ ran: true, status: 'ok' })
    expect(run.summary).toMatch(/^[\d,]+ click rows? of deleted links purged$/)

    expect(await rowsOf(t, gone.id)).toEqual(Object.fromEntries(CLICK_TABLES.map((table) => [table, 0])))
    expect(await rowsOf(t, kept.id)).toEqual(before)
    expect(await t.app.linkd.scheduler.runNow('purge-deleted-link-clicks')).toEqual({
      ran: true,
      status: 'ok',
    })
  })

  it('works in bounded steps: a budget smaller than the data finishes over several runs', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    for (let i = 0; i < 30; i++) {
      await visit(t, link.shortCode, { ip: `198.51.100.${i}` })
      t.clock.advance(3_600_000)
    }
    await flush(t)
    const total = Object.values(await rowsOf(t, link.id)).reduce((a, b) => a + b, 0)
    await t.call('DELETE', `/api/use/links/${link.id}`)

    const clicks = t.app.linkd.services.clicks
    let purged = 0
    let steps = 0
    for (;;) {
      const n = await clicks.purgeDeletedLinks(7)
      if (n === 0) break
      expect(n).toBeLessThanOrEqual(7)
      purged += n
      steps++
    }
    expect(purged).toBe(total)
    expect(steps).toBeGreaterThan(total / 7 - 1)
    expect(Object.values(await rowsOf(t, link.id)).every((n) => n === 0)).toBe(true)
  })

  it('finds a deleted link behind more than a page of live links with clicks, and keeps theirs', async () => {
    t = await createTestApp()
    const live = await makeLink(t)
    const gone = await makeLink(t)
    await visit(t, gone.shortCode, { ip: '203.0.113.9' })
    await flush(t)
    // 600 live links with hourly counters whose ids sort before the deleted one's: the purge
    // asks the links service about them page by page before it reaches the deleted link.
    const { organization_id: org } = await t.db.kysely
      .selectFrom('links')
      .select('organization_id')
      .where('id', '=', live.id)
      .executeTakeFirstOrThrow()
    const seeded = Array.from({ length: 600 }, (_, i) => `!live-${String(i).padStart(3, '0')}`)
    await t.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('links')
        .values(
          seeded.map((id) => ({
            id,
            organization_id: org,
            domain_key: '',
            short_code: id.slice(1),
            destination_url: 'https://example.com/',
            status: 'active',
            redirect_type: 302,
            custom_domain_id: null,
            title: null,
            expires_at: null,
            qr_created_at: null,
            tags: '[]',
            metadata: '{}',
            created_at: 0,
            updated_at: 0,
          })),
        )
        .execute()
      await trx
        .insertInto('link_click_hours')
        .values(
          seeded.map((id) => ({
            link_id: id,
            hour_start: 0,
            clicks: 1,
            bots: 0,
            qr_scans: 0,
            response_ms_sum: 5,
          })),
        )
        .execute()
    })
    expect((await t.call('DELETE', `/api/use/links/${gone.id}`)).statusCode).toBe(204)

    expect(await t.app.linkd.services.clicks.purgeDeletedLinks(1_000)).toBeGreaterThan(0)
    expect(await rowsOf(t, gone.id)).toEqual(Object.fromEntries(CLICK_TABLES.map((table) => [table, 0])))
    const hours = await t.db.kysely
      .selectFrom('link_click_hours')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('link_id', 'like', '!live-%')
      .executeTakeFirstOrThrow()
    expect(Number(hours.n)).toBe(600)
  })
})
