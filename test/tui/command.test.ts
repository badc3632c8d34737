/** `linkctl tui` from the command line: refuses without a terminal, checks --refresh. */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../src/cli/run.js'
import { EXIT } from '../../src/session/exit-codes.js'
import { parseRefresh, refreshWithin, whoAmI } from '../../src/tui/run.js'
import { SCREENS } from '../../src/tui/screens/index.js'
import { FakeClient } from './fake-client.js'
import { makeMember } from './fake-team.js'
import { testIo } from '../support/cli.js'
import { root } from '../support/processes.js'

describe('linkctl tui', () => {
  it('refuses to start when stdout is not a terminal, pointing to the plain commands (usage error)', async () => {
    for (const verb of ['tui', 'dashboard']) {
      const t = testIo({ isTTY: false })
      const code = await runCli([verb, '--url', 'http://127.0.0.1:2'], t.io)
      expect(code).toBe(EXIT.usage)
      expect(t.err.text).toContain('linkctl tui needs a terminal')
      expect(t.err.text).toContain('linkctl links list')
      expect(t.out.text).toBe('')
    }
  })

  it("linkctl --help and tui --help list the TUI's screens, all of them in tab order", async () => {
    const screens = SCREENS.map((s) => s.title).join(', ')
    for (const argv of [['--help'], ['tui', '--help']]) {
      const t = testIo({ isTTY: false })
      expect(await runCli(argv, t.io)).toBe(EXIT.ok)
      // Help text is wrapped to the width: compare with single spaces.
      expect(t.out.text.replace(/\s+/g, ' '), argv.join(' ')).toContain(`(needs a terminal): ${screens}`)
    }
  })

  it('--refresh takes whole seconds from 1 to 3600 (default 5)', () => {
    expect(parseRefresh(undefined)).toBe(5)
    expect(parseRefresh('2')).toBe(2)
    for (const bad of ['0', '-1', '1.5', 'soon', '3601']) expect(() => parseRefresh(bad)).toThrow(/--refresh/)
  })

  it("refreshes no faster than half the key's rate limit allows", () => {
    expect(refreshWithin(5, { limit: 100_000, period: 'hour' })).toBe(5)
    // 7 requests a refresh within 500 an hour: every 51 s.
    expect(refreshWithin(5, { limit: 1000, period: 'hour' })).toBe(51)
    expect(refreshWithin(120, { limit: 1000, period: 'hour' })).toBe(120)
    expect(refreshWithin(5, { limit: 60, period: 'minute' })).toBe(14)
    expect(refreshWithin(5, undefined)).toBe(5)
  })

  it('starts without the key test when the daemon does not answer it: scopes unknown, every screen tried', async () => {
    const client = new FakeClient()
    client.keys.test = () => new Promise(() => {})
    const who = await whoAmI(client, 'http://10.255.255.1:8080', 'lk_live_abcdefgh', 50)
    expect(who.scopes).toBeNull()
    expect(who.identity).toBe('lk_•••efgh · http://10.255.255.1:8080')
  })

  it('an unusable key is said as such (no key, or the reason the daemon gives), not as missing scopes', async () => {
    const client = new FakeClient()
    client.keys.test = () => Promise.resolve({ valid: false, reason: 'revoked' })
    const revoked = await whoAmI(client, 'http://127.0.0.1:8080', 'lk_live_abcdefgh')
    expect(revoked.scopes).toEqual(new Set())
    expect(revoked.keyProblem).toBe(
      'The key lk_•••efgh is not valid (revoked): run linkctl login --api-key <key> with a valid one.',
    )
    const none = await whoAmI(client, 'http://127.0.0.1:8080', undefined)
    expect(none.keyProblem).toContain('No API key: run linkctl login')
  })

  it('learns the scopes and the rate limit from the key test', async () => {
    const who = await whoAmI(new FakeClient(), 'http://127.0.0.1:8080', 'links:read')
    expect([...(who.scopes ?? [])]).toEqual(['links:read'])
    expect(who.identity).toBe('fake (lk_•••aaaa) · Org · http://127.0.0.1:8080')
  })

  it("takes the scopes within the member's role from whoami, and names the member", async () => {
    const client = new FakeClient()
    client.teamData.whoami = {
      member: makeMember('mem_bo', 'Bo', 'viewer'),
      key: { id: 'key_aaaa', name: 'fake', preview: 'lk_•••aaaa' },
      organization: { id: 'org_1', name: 'Org', plan: 'pro' },
      permissions: ['team:read', 'team:write'],
      effectivePermissions: ['team:read'],
    }
    const who = await whoAmI(client, 'http://127.0.0.1:8080', 'team:write')
    expect([...(who.scopes ?? [])]).toEqual(['team:read'])
    expect(who.identity).toBe('Bo (viewer) · fake (lk_•••aaaa) · Org · http://127.0.0.1:8080')
  })

  it('keeps nothing per render: a screen refreshing for hours does not grow (React production build)', () => {
    // A process of its own, without NODE_ENV, as a user's shell starts linkctl.
    const env = { ...process.env }
    delete env.NODE_ENV
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(root, 'test/tui/refreshes-kept.ts')],
      // A bound for a hang, not for speed: a loaded 2-core machine takes half a minute.
      { cwd: root, env, encoding: 'utf8', timeout: 55_000 },
    )
    const { kept, frames } = JSON.parse(out) as { kept: number; frames: number }
    expect(frames).toBeGreaterThanOrEqual(21)
    expect(kept).toBe(0)
  })
})
