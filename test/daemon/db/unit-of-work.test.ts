import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../daemon/db/open.js'
import { migrate } from '../../../daemon/db/migrate.js'
import { kyselyOf, kyselyUnit, syncUnit, type UnitOfWork } from '../../../daemon/db/unit-of-work.js'
import { createIngestStore } from '../../../daemon/modules/gaming/ingest/store.js'
import { createStorageStore } from '../../../daemon/modules/gaming/storage/store.js'

describe('the unit of work lent from one store to another', () => {
  let db: Db
  beforeEach(async () => {
    db = openDatabase('sqlite::memory:')
    await migrate(db, 0)
  })
  afterEach(() => db.close())

  const batches = () => db.sqlite.prepare('SELECT game_id, batch_id, response FROM game_batches').all()

  it("a batch_id record joins storage's unit: committed with it, rolled back with it", async () => {
    const ingest = createIngestStore(db.sqlite, db.kysely)
    const storage = createStorageStore(db.sqlite, db.kysely)
    await expect(
      storage.unitOfWork('g1', async (unit) => {
        await ingest.record('g1', 'b1', '{"accepted":1}', 1_000, unit)
        expect(await ingest.responseOf('g1', 'b1', 0, unit)).toBe('{"accepted":1}')
        throw new Error('the fold failed')
      }),
    ).rejects.toThrow('the fold failed')
    expect(batches()).toEqual([])

    await storage.unitOfWork('g1', (unit) => ingest.record('g1', 'b2', '{"accepted":2}', 1_000, unit))
    expect(batches()).toEqual([{ game_id: 'g1', batch_id: 'b2', response: '{"accepted":2}' }])
  })

  it('while a unit awaits, Kysely statements wait for its end instead of joining it', async () => {
    const ingest = createIngestStore(db.sqlite, db.kysely)
    const storage = createStorageStore(db.sqlite, db.kysely)
    let inserted: Promise<unknown> = Promise.resolve()
    let outside: Promise<string | undefined> = Promise.resolve(undefined)
    await expect(
      storage.unitOfWork('g1', async (unit) => {
        await ingest.record('g1', 'b1', '{"accepted":1}', 1_000, unit)
        inserted = db.kysely
          .insertInto('game_batches')
          .values({ game_id: 'g1', batch_id: 'other', response: '{}', received_at: 1 })
          .execute()
        outside = ingest.responseOf('g1', 'b1', 0) // no unit: must not read the open transaction
        await new Promise((resolve) => setTimeout(resolve, 20))
        expect(batches()).toEqual([{ game_id: 'g1', batch_id: 'b1', response: '{"accepted":1}' }])
        throw new Error('the fold failed')
      }),
    ).rejects.toThrow('the fold failed')
    await inserted
    expect(await outside).toBeUndefined()
    expect(batches()).toEqual([{ game_id: 'g1', batch_id: 'other', response: '{}' }])
  })

  it('a store refuses a unit that is not open on its connection, instead of committing alone', async () => {
    const ingest = createIngestStore(db.sqlite, db.kysely)
    await expect(ingest.record('g1', 'b1', '{}', 1_000, syncUnit(db.sqlite))).rejects.toThrow(/not open/)
    const other = openDatabase('sqlite::memory:')
    try {
      let recorded: Promise<void> | undefined
      other.sqlite.transaction(() => {
        recorded = ingest.record('g1', 'b1', '{}', 1_000, syncUnit(other.sqlite))
      })()
      await expect(recorded).rejects.toThrow(/not open on this connection/)
    } finally {
      void other.close()
    }
    await expect(ingest.record('g1', 'b1', '{}', 1_000, {} as UnitOfWork)).rejects.toThrow(
      /not a unit of work/,
    )
    expect(batches()).toEqual([])
  })

  it('a Kysely unit hands its transaction to the stores; a synchronous one has none', async () => {
    await db.kysely.transaction().execute(async (trx) => {
      expect(kyselyOf(kyselyUnit(db.sqlite, trx))).toBe(trx)
    })
    expect(() => kyselyUnit(db.sqlite, db.kysely)).toThrow(/not a transaction/)
    expect(() => kyselyOf(syncUnit(db.sqlite))).toThrow(/no Kysely transaction/)
  })
})
