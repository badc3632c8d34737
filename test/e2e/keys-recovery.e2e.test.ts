/**
 * Offline key recovery: `linkd keys create --org ORG [--name N] [--preset P]` on
 * the data dir, with the built binaries, while the daemon runs and while it is stopped; the
 * printed key works against the daemon at once, even when the plan's key limit is reached.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LINKD, OWNER_KEY_RE, runBin, startLinkd, type RunningLinkd } from '../support/processes.js'
import { onPostgres } from '../support/postgres.js'
import { PRESET_NAMES, SCOPES } from '../../src/contract/scopes.js'

let work = ''
let dataDir = ''
let daemon: RunningLinkd | undefined
const linkd = (...args: string[]) => runBin(LINKD, args, { LINKD_DATA_DIR: dataDir, LINKD_LOG_LEVEL: 'info' })

const api = (path: string, key: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${daemon!.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${key}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  })

/** Runs `linkd keys create` and returns the one key it printed. */
async function recover(...args: string[]): Promise<string> {
  const r = await linkd('keys', 'create', ...args)
  expect(r.code, r.stderr).toBe(0)
  const keys = r.stdout.match(new RegExp(OWNER_KEY_RE.source, 'g')) ?? []
  expect(keys).toHaveLength(1)
  expect(r.stderr).not.toMatch(OWNER_KEY_RE)
  return keys[0]!
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'linkd-recovery-e2e-'))
  dataDir = join(work, 'data')
  daemon = await startLinkd(dataDir)
  expect(daemon.ownerKey()).toMatch(OWNER_KEY_RE)
}, 60_000)
afterAll(async () => {
  if (daemon) await daemon.stop('SIGKILL')
  rmSync(work, { recursive: true, force: true })
})

describe('linkd keys create', () => {
  it('prints a full key for the organization that works against the running daemon at once', async () => {
    const r = await linkd('keys', 'create', '--org', 'default')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(
      /Created API key "recovery" \(key_[a-z0-9]+\) in organization "default" with preset full/,
    )
    const key = OWNER_KEY_RE.exec(r.stdout)![0]
    const list = await api('/api/keys?search=recovery', key)
    expect(list.status).toBe(200)
    const page = (await list.json()) as { data: { name: string; permissions: string[]; status: string }[] }
    expect(page.data).toEqual([
      expect.objectContaining({ name: 'recovery', status: 'active', permissions: [...SCOPES] }),
    ])
    // It manages keys: it can create one, and act on the owner key (it holds every scope).
    const created = await api('/api/keys', key, {
      method: 'POST',
      body: { name: 'after recovery', preset: 'full' },
    })
    expect(created.status).toBe(201)
    // Never written to the daemon's logs.
    expect(daemon!.output()).not.toContain(key)
    expect(daemon!.output()).not.toContain(key.slice(8))
  })

  it('--name and --preset; the org may be given by id', async () => {
    const owner = daemon!.ownerKey()!
    const orgId = (
      (await (await api('/api/keys/test', owner, { method: 'POST', body: { key: owner } })).json()) as {
        key: { organization: { id: string } }
      }
    ).key.organization.id
    const key = await recover('--org', orgId, '--name', 'ops reader', '--preset', 'read-only')
    const tested = (await (await api('/api/keys/test', key, { method: 'POST', body: { key } })).json()) as {
      valid: boolean
      key: { name: string; permissions: string[] }
    }
    expect(tested).toMatchObject({ valid: true, key: { name: 'ops reader' } })
    expect(tested.key.permissions.every((s) => s.endsWith(':read'))).toBe(true)
    expect((await api('/api/keys', key)).status).toBe(200)
    expect((await api('/api/keys', key, { method: 'POST', body: { name: 'x' } })).status).toBe(403)
  })

  it('unknown organization or preset: a clear error, exit 1, nothing created', async () => {
    const org = await linkd('keys', 'create', '--org', 'nobody')
    expect(org.code).toBe(1)
    expect(org.stderr).toMatch(/organization "nobody" not found/)
    expect(org.stdout).not.toMatch(OWNER_KEY_RE)
    const preset = await linkd('keys', 'create', '--org', 'default', '--preset', 'god-mode')
    expect(preset.code).toBe(1)
    expect(preset.stderr).toContain(`unknown preset "god-mode"; choose one of ${PRESET_NAMES.join(', ')}`)
    expect(preset.stdout).not.toMatch(OWNER_KEY_RE)
    const missing = await linkd('keys', 'create')
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toMatch(/--org/)
  })

  it("works even at the plan's key limit, where the API refuses a new key", async () => {
    const made = await linkd('org', 'create', 'tiny', '--plan', 'free')
    expect(made.code, made.stderr).toBe(0)
    const tinyOwner = OWNER_KEY_RE.exec(made.stdout)![0]
    for (let i = 1; i <= 4; i++)
      expect((await api('/api/keys', tinyOwner, { method: 'POST', body: { name: `k${i}` } })).status).toBe(
        201,
      )
    expect((await api('/api/keys', tinyOwner, { method: 'POST', body: { name: 'k5' } })).status).toBe(403)
    const key = await recover('--org', 'tiny')
    expect((await api('/api/keys', key)).status).toBe(200)
    const page = (await (await api('/api/keys', key)).json()) as { total: number }
    expect(page.total).toBe(6)
  })

  it('while the daemon is stopped; the key works after the restart', async () => {
    expect(await daemon!.stop('SIGTERM')).toBe(0)
    const key = await recover('--org', 'default', '--name', 'offline')
    daemon = await startLinkd(dataDir)
    expect((await api('/api/keys', key)).status).toBe(200)
  }, 60_000)

  it('refuses a data dir without a database instead of creating one', async () => {
    const r = await runBin(LINKD, ['keys', 'create', '--org', 'default'], {
      LINKD_DATA_DIR: join(work, 'empty'),
    })
    expect(r.code).toBe(1)
    // PostgreSQL (test:pg): the directory's database exists, with the schema but no organization.
    expect(r.stderr).toMatch(onPostgres ? /organization "default" not found/ : /no database at .*linkd init/)
  })
})
