/**
 * Owner-only files: the data directory (0700), the database and its -wal and
 * -shm files (0600) and backups (0600), whatever the process umask; looser modes left by an older
 * version are tightened at start and reported. Runs the code paths linkd itself uses on a temp dir.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../daemon/db/open.js'
import { loadMigrations, migrate } from '../../../daemon/db/migrate.js'
import { loadConfig } from '../../../daemon/config.js'
import { bootstrap } from '../../../daemon/admin/context.js'
import { backupCommand } from '../../../daemon/admin/commands.js'

const mode = (path: string) => statSync(path).mode & 0o777

let work = ''
let umask = 0
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'linkd-modes-'))
  // The usual default: files 0644 and directories 0755 unless linkd says otherwise.
  umask = process.umask(0o022)
})
afterEach(() => {
  process.umask(umask)
  rmSync(work, { recursive: true, force: true })
})

const configFor = (dataDir: string) =>
  loadConfig({ env: {}, flags: { dataDir, logLevel: 'silent', acmeDirectory: 'off' } })

describe.skipIf(process.platform === 'win32')('owner-only database files', () => {
  it('a new database: its directory 0700; the file, -wal and -shm 0600', async () => {
    const dir = join(work, 'data')
    const db = openDatabase(`sqlite:${join(dir, 'linkd.db')}`)
    try {
      await migrate(db, 0) // writes: the -wal and -shm files exist now
      expect(mode(dir)).toBe(0o700)
      for (const f of ['linkd.db', 'linkd.db-wal', 'linkd.db-shm']) expect(mode(join(dir, f)), f).toBe(0o600)
      expect(db.tightened).toEqual([])
    } finally {
      await db.close()
    }
  })

  it('existing database files with looser modes are tightened and reported', async () => {
    const dir = join(work, 'old')
    mkdirSync(dir)
    const file = join(dir, 'linkd.db')
    const first = openDatabase(`sqlite:${file}`)
    await migrate(first, 0)
    await first.close()
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      writeFileSync(f, '', { flag: 'a' })
      chmodSync(f, 0o644)
    }
    const db = openDatabase(`sqlite:${file}`)
    try {
      expect(db.tightened).toEqual([file, `${file}-wal`, `${file}-shm`])
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe(0o600)
      // The data survived the tightening: every migration is still recorded.
      expect(db.sqlite.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({
        n: loadMigrations().length,
      })
      expect(loadMigrations().length).toBeGreaterThan(0)
    } finally {
      await db.close()
    }
  })

  it('bootstrap creates the data directory 0700, or tightens it and the master key file once', async () => {
    const fresh = join(work, 'fresh')
    const a = await bootstrap(configFor(fresh))
    await a.db.close()
    expect(mode(fresh)).toBe(0o700)
    expect(mode(join(fresh, 'secret.key'))).toBe(0o600)
    expect(a.tightened).toEqual([])

    chmodSync(fresh, 0o755)
    chmodSync(join(fresh, 'secret.key'), 0o644)
    chmodSync(join(fresh, 'linkd.db'), 0o664)
    const b = await bootstrap(configFor(fresh))
    await b.db.close()
    expect(b.tightened).toEqual([fresh, join(fresh, 'secret.key'), join(fresh, 'linkd.db')])
    expect(mode(fresh)).toBe(0o700)
    expect(mode(join(fresh, 'secret.key'))).toBe(0o600)
    expect(mode(join(fresh, 'linkd.db'))).toBe(0o600)
    const c = await bootstrap(configFor(fresh))
    await c.db.close()
    expect(c.tightened).toEqual([])
  })

  it('linkd backup writes an owner-only copy', async () => {
    const dataDir = join(work, 'data')
    const b = await bootstrap(configFor(dataDir))
    await b.db.close()
    const target = join(work, 'backup.db')
    let printed = ''
    await backupCommand(configFor(dataDir), target, (t) => (printed += t))
    expect(printed).toMatch(/Backup written to/)
    expect(mode(target)).toBe(0o600)
    const copy = openDatabase(`sqlite:${target}`)
    expect(copy.sqlite.prepare("SELECT name FROM organizations WHERE name = 'default'").get()).toEqual({
      name: 'default',
    })
    await copy.close()
    await expect(backupCommand(configFor(dataDir), target, () => undefined)).rejects.toThrow(/already exists/)
  })
})
