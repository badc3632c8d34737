/** linkctl safety lists add against the real daemon: a feed file uploaded, and a file it cannot read. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, tempDir } from '../support/cli.js'

let d: TestDaemon
const tmp = tempDir('linkctl-safety-')
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(async () => {
  await d.close()
  tmp.remove()
})

const run = (args: string[]) =>
  cli(['safety', 'lists', ...args], { env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey } })

describe('linkctl safety lists add', () => {
  it('uploads a feed file; a file it cannot read is a usage error (exit 2), as for links import', async () => {
    const feed = join(tmp.dir, 'feed.txt')
    writeFileSync(feed, '0.0.0.0 listed.test\n')
    const ok = await run(['add', feed, '--name', 'cli-feed', '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ name: 'cli-feed', format: 'hosts', entries: 1 })

    const missing = await run(['add', join(tmp.dir, 'missing.txt'), '--name', 'cli-feed'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^error: cannot read .*missing\.txt: no such file\n$/)
  })
})
