/**
 * The offline `linkd` subcommands on a real PostgreSQL database (LINKD_DATABASE_URL=postgres://…),
 * on the built binary: init and migrate create and update the schema there, org create and keys
 * create work on it, backup explains pg_dump instead of pretending, and a password in the URL is
 * never printed (the test server trusts loopback, so the password is accepted and ignored).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../daemon/db/open.js'
import { loadMigrations, migrate } from '../../daemon/db/migrate.js'
import { LINKD, OWNER_KEY_RE, runBin, startLinkd } from '../support/processes.js'
import { postgresForFile, postgresMissing, type PostgresForFile } from '../support/postgres-file.js'

const PASSWORD = 'pw-never-printed-7Q'
let server: PostgresForFile | undefined
let work = ''
let url = ''

/** The URL with a password in it: what an operator would set. */
const withPassword = (plain: string) => plain.replace('//linkd@', `//linkd:${PASSWORD}@`)
const linkd = (...args: string[]) =>
  runBin(LINKD, args, {
    LINKD_DATA_DIR: join(work, 'data'),
    LINKD_DATABASE_URL: url,
    LINKD_LOG_LEVEL: 'warn',
  })

async function query<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text)).rows
  } finally {
    await client.end()
  }
}

describe.skipIf(postgresMissing())('linkd offline subcommands on PostgreSQL', () => {
  beforeAll(async () => {
    server = await postgresForFile()
    url = withPassword(await server.createDatabase())
    work = mkdtempSync(join(tmpdir(), 'linkd-admin-pg-'))
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(work, { recursive: true, force: true })
  })

  let ownerKey = ''

  it('init creates the schema and organization default on PostgreSQL and prints the owner key once', async () => {
    const first = await linkd('init')
    expect(first.code, first.stderr).toBe(0)
    ownerKey = OWNER_KEY_RE.exec(first.stdout)?.[0] ?? ''
    expect(ownerKey).toMatch(OWNER_KEY_RE)
    expect(first.stdout).toMatch(/Applied migrations: 0001_core/)
    // The master key lives in the data directory whatever the engine; no SQLite file appears.
    expect(existsSync(join(work, 'data', 'secret.key'))).toBe(true)
    expect(existsSync(join(work, 'data', 'linkd.db'))).toBe(false)
    expect(await query('SELECT name FROM organizations')).toEqual([{ name: 'default' }])

    const again = await linkd('init')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/Already initialized/)
  })

  it("a process with a master key other than the installation's refuses to start (exit 2), naming LINKD_SECRET_KEY", async () => {
    const rows = await query<{ fingerprint: string }>('SELECT fingerprint FROM master_key_fingerprint')
    expect(rows).toEqual([{ fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }])
    const r = await runBin(LINKD, [], {
      LINKD_DATA_DIR: join(work, 'second'),
      LINKD_DATABASE_URL: url,
      LINKD_SECRET_KEY: 'ef'.repeat(32),
      LINKD_PORT: '0',
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /^linkd: invalid configuration:\n {2}LINKD_SECRET_KEY \/ --secret-key: the master key in LINKD_SECRET_KEY is not the one of the installation in postgres:\/\/linkd@[^ ]+ \(its fingerprint there differs\)/,
    )
    expect(r.stderr).not.toContain(PASSWORD)
    // With the installation's key it starts.
    const key = readFileSync(join(work, 'data', 'secret.key'), 'utf8').trim()
    const ok = await runBin(LINKD, ['init'], {
      LINKD_DATA_DIR: join(work, 'second'),
      LINKD_DATABASE_URL: url,
      LINKD_SECRET_KEY: key,
    })
    expect(ok.code, ok.stderr).toBe(0)
  })

  it('migrate applies what is pending on PostgreSQL and then reports it up to date', async () => {
    // A database one migration behind this build: what an upgrade finds.
    const older = withPassword(await server!.createDatabase())
    const all = loadMigrations('postgres')
    const db = openDatabase(older)
    await migrate(db, 0, all.slice(0, -1))
    await db.close()
    const env = { LINKD_DATA_DIR: join(work, 'data'), LINKD_DATABASE_URL: older }
    const r = await runBin(LINKD, ['migrate'], env)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe(`Applied: ${all.at(-1)!.name}\n`)
    const again = await runBin(LINKD, ['migrate'], env)
    expect(again.stdout).toMatch(/up to date/)
  })

  it('org create and keys create work on PostgreSQL; the new key authenticates against a daemon on it', async () => {
    const org = await linkd('org', 'create', 'acme', '--plan', 'starter')
    expect(org.code, org.stderr).toBe(0)
    expect(org.stdout).toMatch(/Created organization "acme" \(org_[a-z0-9]+, plan starter\)/)
    const key = await linkd('keys', 'create', '--org', 'acme', '--preset', 'read-only')
    expect(key.code, key.stderr).toBe(0)
    const recovery = OWNER_KEY_RE.exec(key.stdout)?.[0] ?? ''
    expect(recovery).toMatch(OWNER_KEY_RE)

    const d = await startLinkd(join(work, 'data'), { LINKD_DATABASE_URL: url, LINKD_JOBS: 'false' })
    try {
      const res = await fetch(`${d.url}/api/keys`, { headers: { authorization: `Bearer ${recovery}` } })
      expect(res.status).toBe(200)
      const own = await fetch(`${d.url}/api/keys`, { headers: { authorization: `Bearer ${ownerKey}` } })
      expect(own.status).toBe(200)
    } finally {
      await d.stop()
    }
    // The start-up line names the database without its password.
    expect(d.output()).toMatch(/database postgres:\/\/linkd@127\.0\.0\.1:\d+\/f_/)
    expect(d.output()).not.toContain(PASSWORD)
  })

  it('backup exits 1 with the pg_dump command for the database, without the password, and writes nothing', async () => {
    const target = join(work, 'copy.dump')
    const r = await linkd('backup', target)
    expect(r.code).toBe(1)
    const database = new URL(url).pathname.slice(1)
    expect(r.stderr).toContain(
      `pg_dump --format=custom --file='${target}' --dbname='postgres://linkd@${new URL(url).host}/${database}'`,
    )
    expect(r.stderr).toMatch(/PGPASSWORD/)
    expect(r.stdout + r.stderr).not.toContain(PASSWORD)
    expect(existsSync(target)).toBe(false)
  })

  it('keys create names an unknown organization without printing the URL', async () => {
    const r = await linkd('keys', 'create', '--org', 'nobody')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/nobody/)
    expect(r.stdout + r.stderr).not.toContain(PASSWORD)
  })
})
