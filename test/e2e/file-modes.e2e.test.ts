/**
 * Owner-only data files with the built `linkd`: the data directory 0700, the
 * database and its -wal and -shm files 0600 while the daemon runs, `linkd backup` copies 0600,
 * and files an older version left readable tightened (and said so once) at the next start.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LINKD, runBin, startLinkd, type RunningLinkd } from '../support/processes.js'

const mode = (path: string) => statSync(path).mode & 0o777

let work = ''
let dataDir = ''
let daemon: RunningLinkd | undefined

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'linkd-modes-e2e-'))
  dataDir = join(work, 'data')
})
afterAll(async () => {
  if (daemon) await daemon.stop('SIGKILL')
  rmSync(work, { recursive: true, force: true })
})

describe.skipIf(process.platform === 'win32')('linkd data file modes', () => {
  it('a first start creates everything owner-only, -wal and -shm included', async () => {
    daemon = await startLinkd(dataDir)
    const owner = daemon.ownerKey()!
    // A write, so that the WAL holds something.
    const res = await fetch(`${daemon.url}/api/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'modes' }),
    })
    expect(res.status).toBe(201)
    expect(mode(dataDir)).toBe(0o700)
    for (const f of ['linkd.db', 'linkd.db-wal', 'linkd.db-shm', 'secret.key'])
      expect(mode(join(dataDir, f)), f).toBe(0o600)
    expect(daemon.output()).not.toMatch(/owner-only/)
  }, 60_000)

  it('linkd backup writes a 0600 copy while the daemon runs', async () => {
    const target = join(work, 'backup.db')
    const r = await runBin(LINKD, ['backup', target], { LINKD_DATA_DIR: dataDir })
    expect(r.code, r.stderr).toBe(0)
    expect(mode(target)).toBe(0o600)
  })

  it('looser modes left by an older version are tightened at start and logged once', async () => {
    expect(await daemon!.stop('SIGTERM')).toBe(0)
    chmodSync(dataDir, 0o755)
    chmodSync(join(dataDir, 'linkd.db'), 0o644)
    daemon = await startLinkd(dataDir)
    expect(mode(dataDir)).toBe(0o700)
    expect(mode(join(dataDir, 'linkd.db'))).toBe(0o600)
    const lines = daemon
      .output()
      .split('\n')
      .filter((l) => l.includes('owner-only'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(join(dataDir, 'linkd.db'))
    // The next start has nothing to say.
    expect(await daemon.stop('SIGTERM')).toBe(0)
    daemon = await startLinkd(dataDir)
    expect(daemon.output()).not.toMatch(/owner-only/)
  }, 60_000)
})
