/**
 * A real PostgreSQL server for the tests (Debian's `postgresql` package, installed by .ci/run):
 * `npm run test:pg` starts one throwaway cluster for the run (test/support/postgres-setup.ts),
 * migrates a template database once, and gives every test app its own database cloned from it.
 */
import { execFileSync, spawn } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { freePort } from './ports.js'
import { recordSkip } from './skipped-tools.js'

/** Set by `npm run test:pg`: the engine every test app and linkd process runs on. */
export const onPostgres = process.env.LINKD_TEST_ENGINE === 'postgres'

/**
 * For a file whose tests mean something only on PostgreSQL (several processes on one database):
 * true under `npm run test:pg`; on SQLite false, and the run's summary names the file as run only
 * on PostgreSQL (test/support/skipped-tools.ts). Call it at the file's top level:
 * `describe.runIf(postgresOnly())(…)`.
 */
export function postgresOnly(): boolean {
  if (!onPostgres) recordSkip({ missing: [], postgresOnly: true })
  return onPostgres
}

/** The template every test database is cloned from (migrated once per run). */
export const TEMPLATE_DB = 'linkd_template'

/** The server's directory of programs: the newest /usr/lib/postgresql/<major>/bin, or pg_config's. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((d) => /^\d+$/.test(d) && existsSync(join(root, d, 'bin', 'postgres')))
      .sort((a, b) => Number(b) - Number(a))
    if (majors[0]) return join(root, majors[0], 'bin')
  }
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim()
    return existsSync(join(dir, 'postgres')) ? dir : undefined
  } catch {
    return undefined
  }
}

export interface PostgresServer {
  /** `postgres://linkd@127.0.0.1:PORT/` + a database name. */
  urlOf(database: string): string
  stop(): Promise<void>
}

/** PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user. */
function serverUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {}
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }))
  return { uid: id('-u'), gid: id('-g') }
}

/**
 * Starts a new cluster in a temporary directory on a free loopback port: C collation (byte
 * order, as SQLite compares text), UTF-8, trust authentication on loopback, and durability off
 * (fsync, full page writes): the tests check behaviour, not power loss. `durable` keeps
 * PostgreSQL's defaults (the benchmarks compare it with SQLite's synced commits).
 */
export async function startPostgres(opts: { durable?: boolean } = {}): Promise<PostgresServer> {
  const bin = postgresBinDir()
  if (!bin) throw new Error('PostgreSQL is not installed (Debian package postgresql; .ci/run installs it)')
  const dir = mkdtempSync(join(tmpdir(), 'linkd-pg-'))
  const user = serverUser()
  if ('uid' in user) chownSync(dir, user.uid, user.gid)
  const data = join(dir, 'data')
  execFileSync(
    join(bin, 'initdb'),
    ['-D', data, '--locale=C', '--encoding=UTF8', '--auth=trust', '--username=linkd'],
    { stdio: 'ignore', ...user },
  )
  const port = await freePort()
  const serverArgs = [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    ...(opts.durable
      ? []
      : ['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off']),
    '-c',
    'max_connections=500',
    '-c',
    'shared_buffers=256MB',
    // An autovacuum worker connected to the template would make cloning it fail.
    '-c',
    'autovacuum=off',
  ]
  const child = spawn(join(bin, 'postgres'), serverArgs, { stdio: ['ignore', 'ignore', 'pipe'], ...user })
  let log = ''
  child.stderr.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)))
  const urlOf = (database: string) => `postgres://linkd@127.0.0.1:${port}/${database}`
  const deadline = Date.now() + 30_000
  for (;;) {
    const client = new pg.Client({ connectionString: urlOf('postgres') })
    try {
      await client.connect()
      await client.end()
      break
    } catch (err) {
      await client.end().catch(() => {})
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`PostgreSQL did not start: ${(err as Error).message}\n${log}`, { cause: err })
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    urlOf,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGINT') // fast shutdown: ends the sessions, no checkpoint wait
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Runs one statement on the server's maintenance database (CREATE/DROP DATABASE), one at a time
 * across the run's workers: PostgreSQL refuses to clone a template while another clone of it is
 * under way ("source database is being accessed by other users").
 */
export async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}postgres` })
  await client.connect()
  try {
    await client.query('SELECT pg_advisory_lock(7346002)')
    await client.query(statement)
  } finally {
    await client.end()
  }
}

let counter = 0

/**
 * A new database for one test app or linkd process on the run's server (LINKD_TEST_POSTGRES),
 * cloned from the migrated template (`empty`: from template0, no tables); `drop()` removes it.
 */
export async function createTestDatabase(
  opts: { empty?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.LINKD_TEST_POSTGRES
  if (!server) throw new Error('no test PostgreSQL server: run the PostgreSQL suite with npm run test:pg')
  const name = `t_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`
  await admin(server, `CREATE DATABASE ${name} TEMPLATE ${opts.empty ? 'template0' : TEMPLATE_DB}`)
  return {
    url: `${server}${name}`,
    drop: () => admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}
