/**
 * Ctrl-C in the middle of `links import`, against the real daemon: the chunk in flight finishes,
 * linkctl says how far it got and how to go on, writes the failed rows so far to --failed-out,
 * exits 130; re-running the same command creates the rest, nothing twice.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import type { Link } from '../../../src/contract/links.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { tempDir } from '../../support/cli.js'
import { cleanEnv, LINKCTL, runBin } from '../../support/processes.js'

let d: TestDaemon
const tmp = tempDir('linkctl-interrupt-')
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(async () => {
  await d.close()
  tmp.remove()
})

const HEADER = 'destinationUrl,customSlug\n'
const row = (i: number) =>
  // Line 2 + 7 (the 8th row) has a destination that is not a URL: it fails.
  i === 7 ? `not-a-url,ctrl-c-${i}\n` : `https://example.com/ctrl-c/${i},ctrl-c-${i}\n`

async function linkCount(): Promise<number> {
  const res = await d.testApp.call('GET', '/api/use/links?search=ctrl-c&limit=10')
  return res.json<PageOf<Link>>().total
}

describe('links import stopped by Ctrl-C', () => {
  it('says how far it got, keeps the failed rows, exits 130; the same command then finishes', async () => {
    const failed = join(tmp.dir, 'failed.csv')
    const args = ['links', 'import', '-', '--chunk-size', '100', '--failed-out', failed]
    const vars = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
    const env = cleanEnv(vars)
    const child = spawn(process.execPath, [LINKCTL, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    try {
      // 200 rows (two chunks), then the input stays open: linkctl waits for more when Ctrl-C comes.
      child.stdin.write(HEADER + Array.from({ length: 200 }, (_, i) => row(i)).join(''))
      while ((await linkCount()) < 199) await new Promise((r) => setTimeout(r, 50))
      child.kill('SIGINT')
      expect(await exited).toBe(130)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
    expect(stderr).toContain('line 9: destinationUrl')
    expect(stderr).toContain(
      'import stopped after 199 created and 1 failed; re-run the same command to go on (chunks already accepted are replayed, not duplicated)',
    )
    expect(readFileSync(failed, 'utf8')).toMatch(/^destinationUrl,customSlug,error\r?\nnot-a-url,ctrl-c-7,/)

    // The whole input again: the first two chunks are replays, the rest is created.
    const all = HEADER + Array.from({ length: 300 }, (_, i) => row(i)).join('')
    const again = await runBin(LINKCTL, ['links', 'import', '-', '--chunk-size', '100'], vars, all)
    expect(again.stdout).toContain(
      'Created 299 links (199 of them by an earlier run of this import); 1 failed',
    )
    expect(await linkCount()).toBe(299)
  })
})
