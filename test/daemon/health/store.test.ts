import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../daemon/db/open.js'
import { loadMigrations, migrate } from '../../../daemon/db/migrate.js'
import { createHealthStore } from '../../../daemon/modules/health/store.js'

describe('health store (the readiness probe)', () => {
  it('counts the migrations not applied yet: all of them on a new database, none once migrated', async () => {
    const db = openDatabase('sqlite::memory:')
    try {
      const store = createHealthStore(db)
      const shipped = loadMigrations().length
      expect(shipped).toBeGreaterThan(0)
      expect(await store.pendingMigrations()).toBe(shipped)
      await migrate(db, 0)
      expect(await store.pendingMigrations()).toBe(0)
      await expect(store.ping()).resolves.toBeUndefined()
    } finally {
      await db.close()
    }
  })

  it('both reject once the connection is gone (health then says database: down)', async () => {
    const db = openDatabase('sqlite::memory:')
    const store = createHealthStore(db)
    db.sqlite.close()
    await expect(store.ping()).rejects.toThrow(/not open/)
    await expect(store.pendingMigrations()).rejects.toThrow(/not open/)
  })
})
