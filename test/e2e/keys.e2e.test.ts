/**
 * End to end: the built `linkd` on a free port with a temp data dir, driven by the built `linkctl`
 * binary. Needs `npm run build` first (`npm test` does it).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LINKCTL, runBin, startLinkd, type RunningLinkd } from '../support/processes.js'

let daemon: RunningLinkd
let url = ''
let ownerKey = ''
let work = ''

const linkctl = (args: string[], env: Record<string, string> = {}) =>
  runBin(LINKCTL, args, { LINKCTL_CONFIG_DIR: join(work, 'config'), ...env })

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'linkctl-e2e-'))
  daemon = await startLinkd(join(work, 'data'))
  url = daemon.url
  ownerKey = daemon.ownerKey() ?? ''
  expect(ownerKey).toMatch(/^lk_live_[A-Za-z0-9]{32}$/)
}, 60_000)

afterAll(async () => {
  if (daemon) await daemon.stop('SIGKILL')
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('linkctl against a running linkd', () => {
  let created = { id: '', key: '' }

  it('logs in with the owner key and keeps it in a 0600 config file', async () => {
    const r = await linkctl(['login', '--url', url, '--api-key', ownerKey])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/Logged in to/)
    expect(statSync(join(work, 'config', 'config.json')).mode & 0o777).toBe(0o600)
  })

  it('creates a key (the full key is printed once) and lists it', async () => {
    const r = await linkctl(['keys', 'create', '--name', 'ci', '--preset', 'full', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const key = JSON.parse(r.stdout) as { id: string; key: string; name: string; status: string }
    expect(key).toMatchObject({ name: 'ci', status: 'active' })
    expect(key.key).toMatch(/^lk_live_[A-Za-z0-9]{32}$/)
    expect(r.stderr).toMatch(/warning: .*only time/)
    created = { id: key.id, key: key.key }

    const list = await linkctl(['keys', 'list', '--json'])
    expect(list.code, list.stderr).toBe(0)
    const page = JSON.parse(list.stdout) as { data: { id: string }[]; total: number }
    expect(page.data.map((k) => k.id)).toContain(created.id)
    expect(page.total).toBe(2)
    expect(list.stdout).not.toContain(created.key)

    const tsv = await linkctl(['keys', 'list'])
    expect(tsv.stdout.split('\n')[0]).toMatch(/^ID\tNAME\tSTATUS/)
  })

  it('status reports the daemon, readiness, jobs and the key', async () => {
    const r = await linkctl(['status', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const s = JSON.parse(r.stdout) as {
      daemon: { status: string }
      features: { gaming: boolean }
      ready: { ready: boolean; jobs: unknown[] }
      auth: { valid: boolean; key: { organization: { name: string } } }
    }
    expect(s.daemon.status).toBe('ok')
    expect(s.features).toEqual({ gaming: true })
    expect(s.ready.ready).toBe(true)
    expect(Array.isArray(s.ready.jobs)).toBe(true)
    expect(s.auth).toMatchObject({ valid: true, key: { organization: { name: 'default' } } })
  })

  it('revokes the key; using it afterwards exits 4', async () => {
    const ok = await linkctl(['--api-key', created.key, 'keys', 'list'])
    expect(ok.code, ok.stderr).toBe(0)
    const r = await linkctl(['keys', 'revoke', created.id, '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/Revoked key ci/)
    const refused = await linkctl(['--api-key', created.key, 'keys', 'list'])
    expect(refused.code).toBe(4)
    expect(refused.stderr).toMatch(
      /^error: .*\(HTTP 401\): the key from the --api-key flag was refused; [^\n]*\n$/,
    )
    const missing = await linkctl(['keys', 'get', 'key_doesnotexist'])
    expect(missing.code).toBe(5)
  })

  it('usage errors exit 2 with one error line; help exit-codes documents the codes', async () => {
    const r = await linkctl(['keys', 'list', '--limit', '0'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^error: option '--limit <n>' argument '0' is invalid\. [^\n]*\n$/)
    const help = await linkctl(['help', 'exit-codes'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^ {2}7 {4}rate limited/m)
  })

  it('linkd exits 0 on SIGTERM', async () => {
    expect(await daemon.stop('SIGTERM')).toBe(0)
  })
})
