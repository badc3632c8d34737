/**
 * A PostgreSQL server for one test file that needs PostgreSQL whatever engine the suite runs on
 * (the admin commands and `linkd migrate-data` on PostgreSQL): the run's server under
 * `npm run test:pg`, otherwise one the file starts itself. Without Debian's postgresql package the
 * file is skipped on a developer machine and fails in CI (test/support/binaries.ts conventions).
 */
import { missingTools } from './binaries.js'
import { admin, postgresBinDir, startPostgres, type PostgresServer } from './postgres.js'

/** Why the file cannot run here (undefined: it can). Throws in CI. */
export function postgresMissing(): string | undefined {
  if (process.env.LINKD_TEST_POSTGRES || postgresBinDir()) return undefined
  return missingTools(['postgres'])
}

export interface PostgresForFile {
  /** A new, empty database (no schema): its URL. */
  createDatabase(): Promise<string>
  /** Drops the databases made here and stops the server if this file started it. */
  stop(): Promise<void>
}

let counter = 0

export async function postgresForFile(): Promise<PostgresForFile> {
  const shared = process.env.LINKD_TEST_POSTGRES
  const own: PostgresServer | undefined = shared ? undefined : await startPostgres()
  const made: string[] = []
  const server = own ? own.urlOf('') : (shared as string)
  return {
    async createDatabase() {
      const name = `f_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`
      await admin(server, `CREATE DATABASE ${name}`)
      made.push(name)
      return `${server}${name}`
    },
    async stop() {
      if (own) return own.stop()
      for (const name of made) await admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}
