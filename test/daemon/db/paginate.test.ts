import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../daemon/db/open.js'
import { migrate } from '../../../daemon/db/migrate.js'
import { newestFirstPage } from '../../../daemon/db/paginate.js'

describe('newestFirstPage (the list-plus-count query of the stores)', () => {
  let db: Db
  afterEach(() => db.close())

  async function seed() {
    db = openDatabase('sqlite::memory:')
    await migrate(db, 0)
    // Two rows share created_at 2000: the id breaks the tie, descending too.
    const rows = [
      { id: 'org_a', name: 'alpha', plan: 'free', created_at: 1000, updated_at: 1000 },
      { id: 'org_b', name: 'beta', plan: 'pro', created_at: 2000, updated_at: 2000 },
      { id: 'org_c', name: 'gamma', plan: 'free', created_at: 2000, updated_at: 2000 },
      { id: 'org_d', name: 'delta', plan: 'free', created_at: 3000, updated_at: 3000 },
    ]
    await db.kysely.insertInto('organizations').values(rows).execute()
  }

  it('answers one page newest first and the count of every row matching the filter', async () => {
    await seed()
    const all = db.kysely.selectFrom('organizations')
    const first = await newestFirstPage(all, { limit: 2, offset: 0 })
    expect(first.rows.map((r) => r.id)).toEqual(['org_d', 'org_c'])
    expect(first.total).toBe(4)
    const second = await newestFirstPage(all, { limit: 2, offset: 2 })
    expect(second.rows.map((r) => r.id)).toEqual(['org_b', 'org_a'])
    expect(second.rows[0]).toEqual({
      id: 'org_b',
      name: 'beta',
      plan: 'pro',
      created_at: 2000,
      updated_at: 2000,
    })
    expect(second.total).toBe(4)
  })

  it('counts only the filtered rows, and a page past the end is empty with the total kept', async () => {
    await seed()
    const free = db.kysely.selectFrom('organizations').where('plan', '=', 'free')
    const page = await newestFirstPage(free, { limit: 10, offset: 0 })
    expect(page.rows.map((r) => r.id)).toEqual(['org_d', 'org_c', 'org_a'])
    expect(page.total).toBe(3)
    expect(await newestFirstPage(free, { limit: 10, offset: 3 })).toEqual({ rows: [], total: 3 })
  })
})
