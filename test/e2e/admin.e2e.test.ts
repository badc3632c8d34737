/**
 * The offline `linkd` subcommands and the daemon's lifecycle, on the built binary with a temp
 * data dir: init, org create / set-plan, migrate, backup, restart on an existing database, and
 * the graceful shutdown that flushes buffered usage before closing the database.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { createSecretBox, parseMasterKey } from '../../daemon/crypto.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LINKD, OWNER_KEY_RE, runBin, startLinkd } from '../support/processes.js'

let work = ''
let dataDir = ''
const linkd = (...args: string[]) => runBin(LINKD, args, { LINKD_DATA_DIR: dataDir, LINKD_LOG_LEVEL: 'warn' })
const openDb = () => new SQLite(join(dataDir, 'linkd.db'), { readonly: true })

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'linkd-admin-e2e-'))
  dataDir = join(work, 'data')
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('linkd offline subcommands', () => {
  let defaultKey = ''

  it('init creates the master key (0600), the schema and the default organization, printing its key once', async () => {
    const first = await linkd('init')
    expect(first.code, first.stderr).toBe(0)
    defaultKey = OWNER_KEY_RE.exec(first.stdout)?.[0] ?? ''
    expect(defaultKey).toMatch(OWNER_KEY_RE)
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600)

    const again = await linkd('init')
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/Already initialized/)
    expect(again.stdout).not.toMatch(OWNER_KEY_RE)
  })

  it('org create prints the new owner key; a duplicate name fails with exit 1', async () => {
    const r = await linkd('org', 'create', 'acme', '--plan', 'free')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/Created organization "acme" \(org_[a-z0-9]+, plan free\)/)
    expect(r.stdout).toMatch(OWNER_KEY_RE)
    const dup = await linkd('org', 'create', 'acme')
    expect(dup.code).toBe(1)
    expect(dup.stderr).toMatch(/already exists/)
    const badPlan = await linkd('org', 'create', 'beta', '--plan', 'gold')
    expect(badPlan.code).toBe(1)
    expect(badPlan.stderr).toMatch(/plan must be one of/)
  })

  it("org create names the daemon's URL as configured: LINKD_PORT and LINKD_HOST, or the public URL", async () => {
    const hint = async (name: string, env: Record<string, string>) => {
      const r = await runBin(LINKD, ['org', 'create', name], { LINKD_DATA_DIR: join(work, 'urls'), ...env })
      expect(r.code, r.stderr).toBe(0)
      return /Use it with: linkctl login --url (.+) --api-key lk_live_…/.exec(r.stdout)?.[1]
    }
    expect(await hint('url-port', { LINKD_PORT: '18111' })).toBe('http://127.0.0.1:18111')
    expect(await hint('url-host', { LINKD_HOST: '0.0.0.0', LINKD_PORT: '18112' })).toBe(
      'http://127.0.0.1:18112',
    )
    expect(await hint('url-public', { LINKD_PUBLIC_URL: 'https://l.example/', LINKD_PORT: '18113' })).toBe(
      'https://l.example',
    )
    // Port 0: the port is picked when linkd starts, so none can be named offline.
    expect(await hint('url-free', { LINKD_PORT: '0' })).toBe('http://127.0.0.1:<the port linkd listens on>')
  })

  it('org set-plan changes the plan by name', async () => {
    const r = await linkd('org', 'set-plan', 'acme', 'starter')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/"acme" is now on the starter plan/)
    const db = openDb()
    expect(db.prepare("SELECT plan FROM organizations WHERE name = 'acme'").get()).toEqual({
      plan: 'starter',
    })
    db.close()
    expect((await linkd('org', 'set-plan', 'nobody', 'free')).code).toBe(1)
  })

  it('migrate reports an up-to-date database', async () => {
    const r = await linkd('migrate')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/up to date/)
  })

  it('a database a newer linkd migrated: the daemon and migrate refuse it (exit 1), saying what to do', async () => {
    const db = new SQLite(join(dataDir, 'linkd.db'))
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, ?, 0)').run(
      '9999_future',
    )
    db.close()
    try {
      for (const args of [['migrate'], ['--port', '0']]) {
        const r = await linkd(...args)
        expect({ args, code: r.code }).toEqual({ args, code: 1 })
        expect(r.stderr).toMatch(
          /^linkd: the database was migrated by a newer linkd \(9999_future unknown to linkd [\d.]+\): run that version, or restore the backup taken before the upgrade \(docs\/deployment\.md, "Upgrading"\)\n$/,
        )
        expect(r.stdout).toBe('')
      }
    } finally {
      const rw = new SQLite(join(dataDir, 'linkd.db'))
      rw.prepare('DELETE FROM schema_migrations WHERE version = 9999').run()
      rw.close()
    }
  })

  it('migrate, backup and org set-plan on a data dir holding no database refuse (exit 1), creating nothing', async () => {
    // A mistyped LINKD_DATA_DIR (or a command run without the service's environment) must not
    // migrate, back up or change a new empty database in its place and report success.
    const typo = join(work, 'typo')
    const env = { LINKD_DATA_DIR: typo, LINKD_DATABASE_URL: `sqlite:${join(typo, 'linkd.db')}` }
    for (const args of [
      ['migrate'],
      ['backup', join(work, 'empty.db')],
      ['org', 'set-plan', 'default', 'free'],
    ]) {
      const r = await runBin(LINKD, args, env)
      expect({ args, code: r.code }).toEqual({ args, code: 1 })
      expect(r.stderr).toBe(
        `linkd: no database at ${join(typo, 'linkd.db')}; run linkd init first (or set LINKD_DATA_DIR / LINKD_DATABASE_URL)\n`,
      )
    }
    expect(readdirSync(work).filter((f) => f === 'typo' || f === 'empty.db')).toEqual([])
  })

  it('a process without the master key of an existing installation refuses to start rather than make a new one', async () => {
    // A second process on the database (or a restore) whose LINKD_SECRET_KEY was forgotten.
    const other = join(work, 'other-data')
    const database = join(dataDir, 'linkd.db')
    const r = await runBin(LINKD, [], {
      LINKD_DATA_DIR: other,
      LINKD_DATABASE_URL: `sqlite:${database}`,
      LINKD_PORT: '0',
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      new RegExp(
        `^linkd: invalid configuration:\\n {2}LINKD_SECRET_KEY / --secret-key: the database sqlite:${database} holds an installation, but there is no master key \\(no LINKD_SECRET_KEY, no ${join(other, 'secret.key')}\\): give it the one its secrets were sealed with`,
      ),
    )
    expect(readdirSync(other)).toEqual([])
    // With the installation's key it starts.
    const key = readFileSync(join(dataDir, 'secret.key'), 'utf8').trim()
    const ok = await runBin(LINKD, ['init'], {
      LINKD_DATA_DIR: other,
      LINKD_DATABASE_URL: `sqlite:${database}`,
      LINKD_SECRET_KEY: key,
    })
    expect(ok.code, ok.stderr).toBe(0)
  })

  it("a master key other than the installation's is refused (exit 2) by its fingerprint, recorded again after an upgrade", async () => {
    const database = join(dataDir, 'linkd.db')
    const key = readFileSync(join(dataDir, 'secret.key'), 'utf8').trim()
    const fingerprint = () => {
      const db = openDb()
      try {
        return db.prepare('SELECT fingerprint FROM master_key_fingerprint').all() as { fingerprint: string }[]
      } finally {
        db.close()
      }
    }
    const recorded = fingerprint()
    expect(recorded).toEqual([{ fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }])
    expect(recorded[0]!.fingerprint).not.toContain(key)
    const other = 'cd'.repeat(32)
    const refused = `linkd: invalid configuration:\n  LINKD_SECRET_KEY / --secret-key: the master key in LINKD_SECRET_KEY is not the one of the installation in sqlite:${database} (its fingerprint there differs): webhook and game secrets and TLS keys would not open. Give it the key they were sealed with (the other processes' LINKD_SECRET_KEY, or the backed-up secret.key)\n`
    for (const args of [[], ['init'], ['org', 'create', 'never']]) {
      const r = await runBin(LINKD, args, {
        LINKD_DATA_DIR: dataDir,
        LINKD_SECRET_KEY: other,
        LINKD_PORT: '0',
      })
      expect({ args, code: r.code }).toEqual({ args, code: 2 })
      expect(r.stderr).toBe(refused)
    }
    // A secret.key file that is another key is named as the file.
    const elsewhere = join(work, 'other-key')
    mkdirSync(elsewhere)
    writeFileSync(join(elsewhere, 'secret.key'), `${other}\n`)
    const byFile = await runBin(LINKD, ['init'], {
      LINKD_DATA_DIR: elsewhere,
      LINKD_DATABASE_URL: `sqlite:${database}`,
    })
    expect(byFile.code).toBe(2)
    expect(byFile.stderr).toContain(
      `the master key in ${join(elsewhere, 'secret.key')} is not the one of the installation`,
    )

    // A database from before the fingerprint (an upgrade) that holds a sealed secret: another key,
    // which cannot open it, is refused even then and not recorded; the first start with the right
    // key records it, then refuses another key.
    const db = new SQLite(database)
    db.prepare('DELETE FROM master_key_fingerprint').run()
    const box = createSecretBox(parseMasterKey(key))
    const org = db.prepare('SELECT id FROM organizations LIMIT 1').get() as { id: string }
    db.prepare(
      `INSERT INTO webhooks (id, organization_id, name, url, events, retry_policy, max_retries, timeout_seconds,
         headers, secret_sealed, status, created_at, updated_at)
       VALUES ('wh_sealed', ?, 'sealed', 'https://hooks.example/', '[]', 'none', 0, 5, ?, ?, 'active', 0, 0)`,
    ).run(org.id, box.encrypt('{}'), box.encrypt('whsec_test'))
    db.close()
    const wrong = await runBin(LINKD, ['init'], { LINKD_DATA_DIR: dataDir, LINKD_SECRET_KEY: other })
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('the master key in LINKD_SECRET_KEY is not the one of the installation')
    expect(fingerprint()).toEqual([])
    expect((await linkd('init')).code).toBe(0)
    expect(fingerprint()).toEqual(recorded)
    expect((await runBin(LINKD, ['init'], { LINKD_DATA_DIR: dataDir, LINKD_SECRET_KEY: other })).code).toBe(2)
    const cleanup = new SQLite(database)
    cleanup.prepare("DELETE FROM webhooks WHERE id = 'wh_sealed'").run()
    cleanup.close()
  })

  it('a mistyped subcommand is named as an unknown command, not as too many arguments', async () => {
    const r = await linkd('migrat')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: unknown command 'migrat' \(did you mean migrate\?\)\n/)
    expect(r.stdout).toBe('')
  })

  it('linkd --help and its commands wrap at 80 columns beside their long setting names', async () => {
    for (const args of [['--help'], ['migrate-data', '--help'], ['org', '--help']]) {
      const r = await linkd(...args)
      expect(r.code, r.stderr).toBe(0)
      // Only a word longer than the column may pass it (an environment name, a URL pattern).
      expect(r.stdout.split('\n').filter((l) => l.length > 80 && /\s/.test(l.trim()))).toEqual([])
    }
  })

  it('invalid configuration exits 2 naming the setting', async () => {
    const r = await runBin(LINKD, ['migrate'], { LINKD_DATA_DIR: dataDir, LINKD_PORT: 'eighty' })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/LINKD_PORT/)
  })

  it('a data dir that cannot be one (a file, a path through a file) exits 2 naming LINKD_DATA_DIR', async () => {
    const file = join(work, 'not-a-dir')
    writeFileSync(file, 'x')
    for (const dir of [file, join(file, 'data')]) {
      const r = await runBin(LINKD, ['init'], {
        LINKD_DATA_DIR: dir,
        LINKD_DATABASE_URL: `sqlite:${join(dir, 'linkd.db')}`,
      })
      expect({ dir, code: r.code }).toEqual({ dir, code: 2 })
      expect(r.stderr).toBe(
        `linkd: invalid configuration:\n  LINKD_DATA_DIR / --data-dir: cannot use ${dir} as the data directory: ${file} is not a directory\n`,
      )
    }
  })

  it.runIf(existsSync('/proc/self'))(
    'a data dir, database or backup where nothing can be made (/proc) is refused in words, at once',
    async () => {
      const dir = '/proc/linkd-test/data'
      const inProc = { LINKD_DATA_DIR: dir, LINKD_DATABASE_URL: `sqlite:${join(dir, 'linkd.db')}` }
      for (const args of [[], ['init'], ['org', 'create', 'acme']]) {
        const r = await runBin(LINKD, args, inProc)
        expect({ args, code: r.code }).toEqual({ args, code: 2 })
        expect(r.stderr).toBe(
          `linkd: invalid configuration:\n  LINKD_DATA_DIR / --data-dir: cannot use ${dir} as the data directory: nothing can be created in /proc\n`,
        )
      }
      const database = await runBin(LINKD, ['init'], {
        LINKD_DATA_DIR: join(work, 'proc-db'),
        LINKD_DATABASE_URL: 'sqlite:/proc/linkd-test/linkd.db',
      })
      expect(database.code).toBe(2)
      expect(database.stderr).toBe(
        'linkd: invalid configuration:\n  LINKD_DATABASE_URL / --database-url: cannot create the database /proc/linkd-test/linkd.db: nothing can be created in /proc\n',
      )
      for (const args of [['migrate'], ['backup', join(work, 'never.db')]]) {
        const r = await runBin(LINKD, args, inProc)
        expect({ args, code: r.code }).toEqual({ args, code: 1 })
        expect(r.stderr).toMatch(
          /^linkd: no database at \/proc\/linkd-test\/data\/linkd\.db; run linkd init first/,
        )
      }
      for (const [file, why] of [
        ['/proc/copy.db', 'nothing can be created in /proc'],
        [join(work, 'missing', 'copy.db'), `${join(work, 'missing')} does not exist`],
      ]) {
        const r = await linkd('backup', file!)
        expect({ file, code: r.code }).toEqual({ file, code: 1 })
        expect(r.stderr).toBe(`linkd: cannot create ${file}: ${why}\n`)
      }
    },
  )

  it('a port in use stops linkd with exit 1 naming the setting and the address, before a first start makes its key', async () => {
    const busy = createServer()
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done))
    const port = (busy.address() as AddressInfo).port
    const fresh = mkdtempSync(join(tmpdir(), 'linkd-busy-'))
    try {
      for (const env of [
        { LINKD_PORT: String(port) },
        { LINKD_PORT: '0', LINKD_HTTPS_PORT: String(port) },
      ] as Record<string, string>[]) {
        const r = await runBin(LINKD, [], {
          LINKD_DATA_DIR: join(fresh, 'data'),
          LINKD_DATABASE_URL: `sqlite:${join(fresh, 'data', 'linkd.db')}`,
          ...env,
        })
        const setting = env.LINKD_HTTPS_PORT ? 'LINKD_HTTPS_PORT / --https-port' : 'LINKD_PORT / --port'
        expect({ env, code: r.code }).toEqual({ env, code: 1 })
        expect(r.stderr).toBe(
          `linkd: ${setting}: 127.0.0.1:${port} is already in use (another linkd, or another program)\n`,
        )
        // Nothing made: the owner key of a first start is not created, printed and left behind.
        expect(r.stdout).toBe('')
        expect(readdirSync(fresh)).toEqual([])
      }
    } finally {
      busy.close()
      rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('a city database or ACME CA file that is not there exits 2 naming the setting, nothing created', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'linkd-files-'))
    const missing = join(fresh, 'missing')
    try {
      for (const [variable, flag] of [
        ['LINKD_GEO_CITY_DB', '--geo-city-db'],
        ['LINKD_ACME_CA_FILE', '--acme-ca-file'],
      ] as const) {
        const r = await runBin(LINKD, [], {
          LINKD_DATA_DIR: join(fresh, 'data'),
          LINKD_DATABASE_URL: `sqlite:${join(fresh, 'data', 'linkd.db')}`,
          LINKD_PORT: '0',
          [variable]: missing,
        })
        expect({ variable, code: r.code }).toEqual({ variable, code: 2 })
        expect(r.stderr).toBe(`linkd: invalid configuration:\n  ${variable} / ${flag}: no file ${missing}\n`)
        expect(readdirSync(fresh)).toEqual([])
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('a PostgreSQL server that is not there is named with its setting and address, in words', async () => {
    const closed = createServer()
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
    const port = (closed.address() as AddressInfo).port
    await new Promise((done) => closed.close(done))
    const url = `postgres://linkd@127.0.0.1:${port}/linkd`
    for (const args of [[], ['migrate'], ['keys', 'create', '--org', 'default']]) {
      const r = await runBin(LINKD, args, {
        LINKD_DATA_DIR: dataDir,
        LINKD_PORT: '0',
        LINKD_DATABASE_URL: url,
      })
      expect({ args, code: r.code }).toEqual({ args, code: 1 })
      expect(r.stderr).toBe(
        `linkd: LINKD_DATABASE_URL / --database-url: PostgreSQL at 127.0.0.1:${port} unreachable (connection refused)\n`,
      )
    }
    // migrate-data names the side that failed, with its address and never its password.
    const copy = await runBin(LINKD, [
      'migrate-data',
      '--from',
      url,
      '--to',
      `sqlite:${join(work, 'copy.db')}`,
    ])
    expect(copy.code).toBe(1)
    expect(copy.stderr).toBe(
      `linkd: --from: PostgreSQL at 127.0.0.1:${port} unreachable (connection refused)\n`,
    )
    await runBin(LINKD, ['init'], { LINKD_DATA_DIR: join(work, 'copy-source') })
    const to = await runBin(LINKD, [
      'migrate-data',
      '--from',
      `sqlite:${join(work, 'copy-source', 'linkd.db')}`,
      '--to',
      `postgres://linkd:hunter2@127.0.0.1:${port}/linkd`,
    ])
    expect(to.code).toBe(1)
    expect(to.stderr).toBe(`linkd: --to: PostgreSQL at 127.0.0.1:${port} unreachable (connection refused)\n`)
    expect(to.stdout + to.stderr).not.toContain('hunter2')
  })

  it('a first start that fails after making the owner key has printed it (it is never shown again)', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'linkd-first-'))
    const notCities = join(fresh, 'city.mmdb')
    writeFileSync(notCities, 'not a MaxMind database')
    try {
      const r = await runBin(LINKD, [], {
        LINKD_DATA_DIR: join(fresh, 'data'),
        LINKD_DATABASE_URL: `sqlite:${join(fresh, 'data', 'linkd.db')}`,
        LINKD_PORT: '0',
        LINKD_GEO_CITY_DB: notCities,
      })
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(
        new RegExp(
          `^linkd: LINKD_GEO_CITY_DB / --geo-city-db: cannot read the city database ${notCities}: .+\\n$`,
        ),
      )
      expect(r.stdout).toMatch(OWNER_KEY_RE)
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('linkd does not start on a port browsers and linkctl refuse: exit 2 naming it, nothing created', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'linkd-port-'))
    try {
      const r = await runBin(LINKD, [], { LINKD_DATA_DIR: fresh, LINKD_PORT: '6000' })
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toMatch(
        /^linkd: invalid configuration:\n {2}LINKD_PORT \/ --port: port 6000 is one browsers/,
      )
      expect(r.stdout).toBe('')
      expect(readdirSync(fresh)).toEqual([])
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('the daemon restarts on the existing database without printing a key, and SIGTERM flushes usage', async () => {
    const d = await startLinkd(dataDir)
    expect(d.ownerKey()).toBeUndefined()
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${d.url}/api/keys`, { headers: { authorization: `Bearer ${defaultKey}` } })
      expect(res.status).toBe(200)
    }
    // Shut down at once: the buffered activity must reach the database before it closes.
    expect(await d.stop('SIGTERM')).toBe(0)
    const db = openDb()
    const row = db
      .prepare(
        "SELECT total_requests AS n FROM api_keys WHERE name = 'owner' AND organization_id = (SELECT id FROM organizations WHERE name = 'default')",
      )
      .get() as { n: number }
    expect(row.n).toBe(3)
    const activity = db
      .prepare('SELECT endpoint, method, status_code FROM api_key_activity ORDER BY ts')
      .all()
    expect(activity).toHaveLength(3)
    expect(activity[0]).toEqual({ endpoint: '/api/keys', method: 'GET', status_code: 200 })
    db.close()
  })

  it('backup writes a consistent copy that opens as a database; an existing target is refused', async () => {
    const target = join(work, 'backup.db')
    const r = await linkd('backup', target)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/Backup written to/)
    const copy = new SQLite(target, { readonly: true })
    expect(copy.prepare('SELECT name FROM organizations ORDER BY name').all()).toEqual([
      { name: 'acme' },
      { name: 'default' },
    ])
    copy.close()
    const again = await linkd('backup', target)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already exists/)
  })
})
