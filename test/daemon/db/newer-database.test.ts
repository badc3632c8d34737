/**
 * A database migrated by a newer linkd (a migration this build does not know) is refused by
 * migrate, which every start, `linkd migrate` and `linkd migrate-data` run: an older linkd would
 * otherwise serve tables it does not understand after a rollback without the backup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadMigrations, migrate, pendingMigrations } from '../../../daemon/db/migrate.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('a database migrated by a newer linkd', () => {
  it('is refused, naming the unknown migrations and what to do; known ones alone pass', async () => {
    expect(await migrate(t.db, 0)).toEqual([])
    await sqlRows(
      t,
      'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
      9998,
      '9998_later',
      0,
    )
    await sqlRows(
      t,
      'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
      9999,
      '9999_latest',
      0,
    )
    await expect(migrate(t.db, 0)).rejects.toThrow(
      /^the database was migrated by a newer linkd \(9998_later, 9999_latest unknown to linkd \d+\.\d+\.\d+\): run that version, or restore the backup taken before the upgrade/,
    )
    // Readiness still answers (it reports pending migrations, never throws on newer ones).
    expect(await pendingMigrations(t.db)).toEqual([])
    await sqlRows(t, 'DELETE FROM schema_migrations WHERE version >= 9998')
    expect(await migrate(t.db, 0, loadMigrations(t.db.dialect))).toEqual([])
  })
})
