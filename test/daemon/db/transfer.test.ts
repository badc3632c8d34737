/**
 * The table list `linkd migrate-data` copies (daemon/db/transfer.ts) against the real schema:
 * every table, parents before children, each read in the order of a key that is unique; and the
 * keyset reader returning every row once across batch boundaries.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type SqliteDb } from '../../../daemon/db/open.js'
import { migrate } from '../../../daemon/db/migrate.js'
import { COPIED_TABLES, readBatches, TABLE_KEYS } from '../../../daemon/db/transfer.js'

let db: SqliteDb | undefined
afterEach(async () => {
  await db?.close()
  db = undefined
})

async function migrated(): Promise<SqliteDb> {
  const opened = openDatabase('sqlite::memory:')
  if (opened.dialect !== 'sqlite') throw new Error('expected SQLite')
  await migrate(opened, 0)
  db = opened
  return opened
}

describe('the tables migrate-data copies', () => {
  it('are every table of the migrated schema but schema_migrations and the rate-limit counters, parents before children', async () => {
    const { sqlite } = await migrated()
    const tables = (
      sqlite
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all() as { name: string }[]
    ).map((r) => r.name)
    expect([...COPIED_TABLES, 'rate_limit_counters', 'schema_migrations'].sort()).toEqual(tables)
    for (const [i, table] of COPIED_TABLES.entries()) {
      const parents = sqlite
        .prepare(`SELECT "table" AS parent FROM pragma_foreign_key_list(?)`)
        .all(table) as {
        parent: string
      }[]
      for (const { parent } of parents)
        expect(COPIED_TABLES.indexOf(parent as never), `${parent} before ${table}`).toBeLessThan(i)
    }
  })

  it("are each read by the table's primary key (or the row address when it has none)", async () => {
    const { sqlite } = await migrated()
    for (const table of COPIED_TABLES) {
      const primaryKey = (
        sqlite.prepare('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk').all(table) as {
          name: string
        }[]
      ).map((r) => r.name)
      const key = TABLE_KEYS[table]
      expect(key === 'row' ? [] : [...key], table).toEqual(primaryKey)
    }
  })
})

describe('readBatches', () => {
  it('returns every row once, in key order, across batch boundaries (composite key and row address)', async () => {
    const d = await migrated()
    d.sqlite.exec(`INSERT INTO organizations (id, name, plan, created_at, updated_at)
      VALUES ('org_1', 'one', 'free', 0, 0)`)
    const link = d.sqlite.prepare(`INSERT INTO links (id, organization_id, domain_key, short_code,
      destination_url, status, tags, metadata, created_at, updated_at)
      VALUES (?, 'org_1', '', ?, 'https://a.example', 'active', '[]', '{}', 0, 0)`)
    link.run('lnk_1', 'a')
    link.run('lnk_2', 'b')
    const tags = d.sqlite.prepare(
      "INSERT INTO link_tags (link_id, organization_id, tag) VALUES (?, 'org_1', ?)",
    )
    for (const [link, tag] of [
      ['lnk_2', 'x'],
      ['lnk_1', 'z'],
      ['lnk_1', 'a'],
      ['lnk_2', 'a'],
      ['lnk_1', 'm'],
    ])
      tags.run(link, tag)
    const batches: unknown[][] = []
    for await (const batch of readBatches(d.kysely, 'sqlite', 'link_tags', 2)) batches.push(batch)
    expect(batches.map((b) => b.length)).toEqual([2, 2, 1])
    expect(batches.flat()).toEqual([
      { link_id: 'lnk_1', organization_id: 'org_1', tag: 'a' },
      { link_id: 'lnk_1', organization_id: 'org_1', tag: 'm' },
      { link_id: 'lnk_1', organization_id: 'org_1', tag: 'z' },
      { link_id: 'lnk_2', organization_id: 'org_1', tag: 'a' },
      { link_id: 'lnk_2', organization_id: 'org_1', tag: 'x' },
    ])

    // Identical rows in a table without a primary key are all read, and the address is not.
    const click = d.sqlite.prepare(`INSERT INTO clicks (link_id, organization_id, ts, visitor_hash, is_bot,
      is_qr, device, response_ms) VALUES ('lnk_1', 'org_1', 5, 'h', 0, 0, 'desktop', 1.5)`)
    for (let i = 0; i < 3; i++) click.run()
    const clicks: Record<string, unknown>[] = []
    for await (const batch of readBatches(d.kysely, 'sqlite', 'clicks', 2)) clicks.push(...batch)
    expect(clicks).toHaveLength(3)
    expect(Object.keys(clicks[0] ?? {})).not.toContain('linkd_row_address')
    expect(clicks[2]).toMatchObject({ link_id: 'lnk_1', ts: 5, response_ms: 1.5 })
  })
})
