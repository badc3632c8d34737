/**
 * The README's five-minute tour, run as a reader would: its shell block, line by line in one bash
 * session (so the alias and exported variables carry over), against the real built linkd, with
 * only the daemon's address and the owner key it printed put in place of the README's. Every line
 * must succeed; the figures the tour promises are then checked through the API. CI runs it again
 * against the global install (LINKD_TEST_INSTALL_PREFIX) and the single executable (LINKD_TEST_BINARY).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BINARY, LINKCTL, root, startLinkd, type RunningLinkd } from '../support/processes.js'

let dir = ''
let linkd: RunningLinkd
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkd-tour-'))
  linkd = await startLinkd(join(dir, 'data'))
})
afterAll(async () => {
  await linkd?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** The lines of the first ```sh block after the tour's heading. */
function tourLines(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## A five-minute tour'))
  const block = /```sh\n([\s\S]*?)```/.exec(section)
  if (!block) throw new Error('no shell block in the README tour')
  return block[1]!.split('\n').filter((line) => line.trim() !== '')
}

describe('README five-minute tour', () => {
  it("linkd's first-start hint names its own URL (a free port here, not 8080)", () => {
    const hint = /Use it with: linkctl login --url (\S+) --api-key lk_/.exec(linkd.output())
    expect(hint?.[1], linkd.output()).toBe(linkd.url)
  })

  it('every line works against a fresh linkd', () => {
    const key = linkd.ownerKey()!
    const lines = tourLines()
    expect(lines.length).toBeGreaterThan(10)
    expect(lines.join('\n')).toContain('lk_live_…')
    // The tour names the default address once, in one variable.
    expect(lines.filter((l) => l.includes('8080'))).toEqual(['url=http://127.0.0.1:8080'])
    const env = {
      PATH: process.env.PATH!,
      HOME: dir,
      LINKCTL_CONFIG_DIR: join(dir, 'config'),
      NO_COLOR: '1',
    }
    // One bash session, as in a terminal: the alias and the exported key carry over, `set -e` stops
    // at the first failing line and `-x` names it.
    const script = [
      'set -exo pipefail',
      'shopt -s expand_aliases',
      ...lines.map((l) =>
        l
          .replaceAll('http://127.0.0.1:8080', linkd.url)
          .replaceAll('lk_live_…', key)
          .replace('node $PWD/bin/linkctl.js', BINARY ? `${BINARY} ctl` : `node ${LINKCTL}`),
      ),
    ].join('\n')
    try {
      execFileSync('bash', ['-c', script], { cwd: root, env, stdio: 'pipe', timeout: 90_000 })
    } catch (err) {
      const e = err as { status: number; stdout: Buffer; stderr: Buffer }
      throw new Error(`a README tour line failed (exit ${e.status}):\n${e.stderr}\n${e.stdout}`, {
        cause: err,
      })
    }
  }, 120_000)

  it('the tour did what it says: a link with its click, a CI key, a game with a paying player', async () => {
    const key = linkd.ownerKey()!
    const api = async (path: string) => {
      const res = await fetch(`${linkd.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
      expect(res.status, path).toBe(200)
      return (await res.json()) as Record<string, unknown>
    }
    const links = (await api('/api/use/links')) as { data: Array<{ shortCode: string; id: string }> }
    const spring = links.data.find((l) => l.shortCode === 'spring')!
    expect(spring).toBeDefined()
    expect(await api(`/api/use/analytics/links/${spring.id}`)).toMatchObject({ totalClicks: 1 })
    const keys = (await api('/api/keys')) as { data: Array<{ name: string }> }
    expect(keys.data.map((k) => k.name)).toContain('ci')
    expect(await api('/api/v1/analytics/games/space-miners/overview')).toMatchObject({
      dau: 1,
      revenue: { total: 4.99 },
    })
  })
})
