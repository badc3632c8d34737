/**
 * The global flags (`--json`, `--url`, `--api-key`, `--profile`) work before the command as well
 * as after it, with the same result, against the real daemon: commands with positional
 * arguments, `linkctl api`, and the refusals (--json on a command without JSON output, --json
 * with --columns) whichever side the flag is on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Link } from '../../src/contract/links.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, tempDir } from '../support/cli.js'

let d: TestDaemon
const cfg = tempDir('linkctl-global-flags-')
const empty = tempDir('linkctl-global-flags-empty-')
beforeAll(async () => {
  d = await startTestDaemon()
  const login = await cli(['login', '--url', d.url, '--api-key', d.ownerKey, '--profile', 'saved'], {
    env: { LINKCTL_CONFIG_DIR: cfg.dir },
  })
  expect(login.code, login.stderr).toBe(0)
})
afterAll(async () => {
  await d.close()
  cfg.remove()
  empty.remove()
})

/** linkctl with the target in the environment. */
const run = (argv: string[]) =>
  cli(argv, { env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, LINKCTL_CONFIG_DIR: cfg.dir } })
/** linkctl with nothing in the environment and no saved profile. */
const bare = (argv: string[]) => cli(argv, { env: { LINKCTL_CONFIG_DIR: empty.dir } })

describe('global flags before or after the command', () => {
  it('--json before the command prints what --json after it prints (create with an argument, get)', async () => {
    const before = await run(['--json', 'links', 'create', 'https://example.com/g1', '--tag', 'global'])
    expect(before.code, before.stderr).toBe(0)
    const link = JSON.parse(before.stdout) as Link
    expect(link).toMatchObject({ destinationUrl: 'https://example.com/g1', tags: ['global'] })

    const after = await run(['links', 'get', link.shortCode, '--json'])
    const first = await run(['--json', 'links', 'get', link.shortCode])
    expect([first.code, after.code]).toEqual([0, 0])
    expect(first.stdout).toBe(after.stdout)
    expect(JSON.parse(first.stdout)).toEqual(link)

    const listed = await run(['--json', 'links', 'list', '--tag', 'global'])
    expect(listed.stdout).toBe((await run(['links', 'list', '--tag', 'global', '--json'])).stdout)
  })

  it('--url and --api-key before the command, after it, or split', async () => {
    for (const argv of [
      ['--url', d.url, '--api-key', d.ownerKey, 'keys', 'list', '--json'],
      ['keys', 'list', '--json', '--url', d.url, '--api-key', d.ownerKey],
      ['--url', d.url, 'keys', '--api-key', d.ownerKey, 'list', '--json'],
    ]) {
      const r = await bare(argv)
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0)
      expect((JSON.parse(r.stdout) as { data: unknown[] }).data.length).toBeGreaterThan(0)
    }
  })

  it('--profile before or after the command', async () => {
    const env = { LINKCTL_CONFIG_DIR: cfg.dir }
    const before = await cli(['--profile', 'saved', '--json', 'whoami'], { env })
    const after = await cli(['whoami', '--json', '--profile', 'saved'], { env })
    expect([before.code, after.code], before.stderr + after.stderr).toEqual([0, 0])
    expect(before.stdout).toBe(after.stdout)
    const ghost = await cli(['--profile', 'ghost', 'whoami'], { env })
    expect([ghost.code, ghost.stderr]).toEqual([1, expect.stringContaining('no profile named "ghost"')])
  })

  it('linkctl api takes them before it too, and its own arguments are left alone', async () => {
    expect((await run(['links', 'create', 'https://example.com/api', '--tag', 'api-global'])).code).toBe(0)
    const r = await bare([
      '--url',
      d.url,
      '--api-key',
      d.ownerKey,
      'api',
      'GET',
      '/api/use/links',
      '-f',
      'tag=api-global',
    ])
    expect(r.code, r.stderr).toBe(0)
    const links = (JSON.parse(r.stdout) as { data: Link[] }).data
    expect(links.map((l) => l.destinationUrl)).toEqual(['https://example.com/api'])
  })

  it('--json on a command without JSON output is refused either side (exit 2, the error as JSON)', async () => {
    for (const argv of [
      ['--json', 'links', 'open', 'nope'],
      ['links', 'open', 'nope', '--json'],
    ]) {
      const r = await run(argv)
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(JSON.parse(r.stderr)).toMatchObject({
        error: 'UsageError',
        message: 'linkctl links open has no JSON output: leave out --json',
      })
    }
  })

  it('--columns with --json is refused either side', async () => {
    for (const argv of [
      ['--json', 'links', 'list', '--columns', 'id'],
      ['links', 'list', '--columns', 'id', '--json'],
    ]) {
      const r = await run(argv)
      expect(r.code).toBe(2)
      expect(JSON.parse(r.stderr)).toMatchObject({
        message: "option '--columns <names>' cannot be used with option '--json'",
      })
    }
  })
})
