import { existsSync, rmSync, rmdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { checkDatabaseUrl, redactDatabaseUrl } from '../config.js'
import { missingDirs } from '../db/files.js'
import { isPostgresUrl, openDatabase, sqlitePath, type Db } from '../db/open.js'
import { migrate } from '../db/migrate.js'
import {
  appliedVersions,
  COPIED_TABLES,
  countRows,
  hasRows,
  insertRows,
  readBatches,
  type CopiedTable,
} from '../db/transfer.js'
import { systemClock } from '../clock.js'
import { NamedDatabaseProblem, postgresProblem } from '../socket-errors.js'
import { plural } from '../../src/contract/numbers.js'

type Out = (text: string) => void

/** Rows read and written per batch. */
const BATCH_ROWS = 1000
/** A progress line per table every this many rows (and one when it is done). */
const PROGRESS_EVERY = 50_000

export interface MigrateDataOptions {
  from: string
  to: string
}

/**
 * `linkd migrate-data --from sqlite:PATH --to postgres://…` (or the other way): copies every
 * table of an installation into an empty database, as it is (key hashes and sealed secrets
 * unchanged, so the same master key reads them). Both sides are migrated first by this build;
 * the copy runs in one transaction on the target and checks the row counts before committing, so
 * a failed or interrupted copy leaves the target as empty as it found it; a SQLite file it made
 * is removed.
 */
export async function migrateDataCommand(opts: MigrateDataOptions, out: Out): Promise<void> {
  checkDatabaseUrl(opts.from, '--from')
  checkDatabaseUrl(opts.to, '--to')
  if (opts.from === opts.to) throw new Error('--from and --to name the same database')
  if (!isPostgresUrl(opts.from)) {
    const path = sqlitePath(opts.from)
    if (path === ':memory:' || !existsSync(path))
      throw new Error(`no SQLite database at ${path} (--from); give the path of linkd.db`)
  }
  const started = performance.now()
  out(`Copying ${redactDatabaseUrl(opts.from)} to ${redactDatabaseUrl(opts.to)}\n`)
  const made = madeByTarget(opts.to)
  const source = openDatabase(opts.from)
  try {
    let target: Db
    try {
      target = openDatabase(opts.to)
    } catch (err) {
      removeMade(made)
      throw err
    }
    let done = false
    try {
      await prepare(source, target, out)
      const copied = await copyAll(source, target, out)
      const total = copied.reduce((sum, c) => sum + c.rows, 0)
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      out(
        `Done: ${plural(total, 'row')} in ${plural(copied.length, 'table')} copied and verified in ${seconds} s.\n` +
          'Start linkd with LINKD_DATABASE_URL set to the target and the same master key ' +
          '(LINKD_SECRET_KEY or DATA_DIR/secret.key).\n',
      )
      done = true
    } finally {
      await target.close()
      if (!done) removeMade(made)
    }
  } finally {
    await source.close()
  }
}

/**
 * What opening a SQLite target creates: its file (with -wal, -shm) and the folders missing on
 * the way, innermost last; nothing for an existing file or a PostgreSQL database.
 */
function madeByTarget(to: string): { files: string[]; dirs: string[] } {
  if (isPostgresUrl(to)) return { files: [], dirs: [] }
  const path = resolve(sqlitePath(to))
  if (existsSync(path)) return { files: [], dirs: [] }
  return { files: [path, `${path}-wal`, `${path}-shm`], dirs: missingDirs(dirname(path)) }
}

/** Removes a failed copy's target file and the folders made for it (those left empty). */
function removeMade(made: { files: string[]; dirs: string[] }): void {
  for (const file of made.files) rmSync(file, { force: true })
  for (const dir of made.dirs.toReversed()) {
    try {
      rmdirSync(dir)
    } catch {
      break // not empty: something else was put there meanwhile
    }
  }
}

/**
 * A PostgreSQL side that cannot be used (unreachable, unknown host, login refused, no database),
 * named by its flag: the error's address is the server's, never the URL's password.
 */
async function onSide<T>(flag: '--from' | '--to', work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (err) {
    const problem = postgresProblem(err)
    if (problem) throw new NamedDatabaseProblem(flag, problem, { cause: err })
    throw err
  }
}

/** Migrates both sides, then refuses a target holding any row or a schema the source differs from. */
async function prepare(source: Db, target: Db, out: Out): Promise<void> {
  const now = systemClock.now()
  const sourceApplied = await onSide('--from', migrate(source, now))
  if (sourceApplied.length) out(`Applied to the source first: ${sourceApplied.join(', ')}\n`)
  const targetApplied = await onSide('--to', migrate(target, now))
  if (targetApplied.length) out(`Created the schema on the target: ${targetApplied.length} migrations\n`)
  const [sourceVersions, targetVersions] = await Promise.all([
    appliedVersions(source.kysely),
    appliedVersions(target.kysely),
  ])
  if (sourceVersions.join() !== targetVersions.join())
    throw new Error(
      `the source's migrations (${sourceVersions.join(', ')}) differ from this linkd's ` +
        `(${targetVersions.join(', ')}); run migrate-data with the linkd version that wrote the source`,
    )
  const filled: string[] = []
  for (const table of COPIED_TABLES) if (await hasRows(target.kysely, table)) filled.push(table)
  if (filled.length)
    throw new Error(
      `the target is not empty (rows in ${filled.join(', ')}); migrate-data copies into an empty ` +
        'database only: create a new one (or drop and re-create this one) and run it again',
    )
}

interface Copied {
  table: CopiedTable
  rows: number
}

/**
 * Reads the source in one read transaction (a consistent snapshot, also if a linkd still writes
 * to it) and writes the target in one transaction, table by table in foreign-key order.
 */
async function copyAll(source: Db, target: Db, out: Out): Promise<Copied[]> {
  const reading = source.kysely.transaction()
  // PostgreSQL's default (read committed) takes a new snapshot per statement.
  const snapshot = source.dialect === 'postgres' ? reading.setIsolationLevel('repeatable read') : reading
  return snapshot.execute((read) =>
    target.kysely.transaction().execute(async (write) => {
      const copied: Copied[] = []
      for (const table of COPIED_TABLES) {
        const expected = await countRows(read, table)
        let rows = 0
        let reported = 0
        try {
          for await (const batch of readBatches(read, source.dialect, table, BATCH_ROWS)) {
            await insertRows(write, table, batch)
            rows += batch.length
            if (rows - reported >= PROGRESS_EVERY) {
              reported = rows
              out(`  ${table}: ${rows.toLocaleString('en-US')} of ${plural(expected, 'row')}\n`)
            }
          }
        } catch (err) {
          throw new Error(
            `copying ${table} failed after ${plural(rows, 'row')}: ${(err as Error).message}; nothing was committed`,
            { cause: err },
          )
        }
        const written = await countRows(write, table)
        if (rows !== expected || written !== expected)
          throw new Error(
            `${table}: the source holds ${expected} rows, ${rows} were read and the target holds ` +
              `${written}; nothing was committed`,
          )
        if (expected) out(`  ${table}: ${plural(expected, 'row')}\n`)
        copied.push({ table, rows: expected })
      }
      return copied
    }),
  )
}
