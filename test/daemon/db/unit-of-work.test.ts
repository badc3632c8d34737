import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../daemon/db/open.js'
import { migrate } from '../../../daemon/db/migrate.js'
import { kyselyOf, kyselyUnit, syncUnit, type UnitOfWork } from '../../../daemon/db/unit-of-work.js'
import { createIngestStore } from '../../../daemon/modules/ingest/store.js'
import { createGamedataStore } from '../../../daemon/modules/gamedata/store.js'

describe('the unit of work lent from one store to another', () => {
  let db: Db
  beforeEach(async () => {
    db = openDatabase('sqlite::memory:')
    await migrate(db, 0)
  })
  afterEach(() => db.close())

  const batches = () => db.sqlite.prepare('SELECT game_id, batch_id, response FROM game_batches').all()

  it("a batch_id record joins gamedata's unit: committed with it, rolled back with it", async () => {
    const ingest = createIngestStore(db.sqlite, db.kysely)
    const gamedata = createGamedataStore(db.sqlite, db.kysely)
    await expect(
      gamedata.unitOfWork((unit) => {
        ingest.record('g1', 'b1', '{"accepted":1}', 1_000, unit)
        expect(ingest.responseOf('g1', 'b1', 0, unit)).toBe('{"accepted":1}')
        throw new Error('the fold failed')
      }),
    ).rejects.toThrow('the fold failed')
    expect(batches()).toEqual([])

    await gamedata.unitOfWork((unit) => ingest.record('g1', 'b2', '{"accepted":2}', 1_000, unit))
    expect(batches()).toEqual([{ game_id: 'g1', batch_id: 'b2', response: '{"accepted":2}' }])
  })

  it('a store refuses a unit that is not open on its connection, instead of committing alone', () => {
    const ingest = createIngestStore(db.sqlite, db.kysely)
    expect(() => ingest.record('g1', 'b1', '{}', 1_000, syncUnit(db.sqlite))).toThrow(/not open/)
    const other = openDatabase('sqlite::memory:')
    try {
      expect(() =>
        other.sqlite.transaction(() => ingest.record('g1', 'b1', '{}', 1_000, syncUnit(other.sqlite)))(),
      ).toThrow(/not open on this connection/)
    } finally {
      void other.close()
    }
    expect(() => ingest.record('g1', 'b1', '{}', 1_000, {} as UnitOfWork)).toThrow(/not a unit of work/)
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
