/**
 * Lists past one API page against the real daemon: any --limit (paged through the API's fixed
 * page sizes), --all, and the "showing N of M" note on stderr when a list was cut.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import type { Link } from '../../../src/contract/links.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli } from '../../support/cli.js'

const TOTAL = 250
let d: TestDaemon
let env: NodeJS.ProcessEnv
beforeAll(async () => {
  d = await startTestDaemon()
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }
  const links = Array.from({ length: TOTAL }, (_, i) => ({
    destinationUrl: `https://example.com/${i}`,
    tags: ['paging'],
  }))
  const res = await d.testApp.call('POST', '/api/use/links/bulk', { body: { links } })
  expect(res.json<{ created: number }>().created).toBe(TOTAL)
})
afterAll(() => d.close())

async function listJson(args: string[]): Promise<PageOf<Link>> {
  const r = await cli(['links', 'list', '--json', '--tag', 'paging', ...args], { env })
  expect(r.code, r.stderr).toBe(0)
  expect(r.stderr).toBe('')
  return JSON.parse(r.stdout) as PageOf<Link>
}

describe('list --limit and --all', () => {
  it('--all fetches every row, more than one API page, each once', async () => {
    const all = await listJson(['--all'])
    expect(all.data).toHaveLength(TOTAL)
    expect(new Set(all.data.map((l) => l.id)).size).toBe(TOTAL)
    expect(all).toMatchObject({ total: TOTAL, hasMore: false })
  })

  it('--limit that is not an API page size returns exactly that many rows, in list order', async () => {
    const all = (await listJson(['--all'])).data.map((l) => l.id)
    const some = await listJson(['--limit', '130'])
    expect(some.data.map((l) => l.id)).toEqual(all.slice(0, 130))
    expect(some).toMatchObject({ total: TOTAL, perPage: 130, hasMore: true })
    const fifth = await listJson(['--limit', '30', '--page', '5'])
    expect(fifth.data.map((l) => l.id)).toEqual(all.slice(120, 150))
    const more = await listJson(['--limit', '300'])
    expect(more.data.map((l) => l.id)).toEqual(all)
    expect(more.hasMore).toBe(false)
  })

  it('a cut list says "showing N of M" on stderr, piped too; nothing when every row is shown', async () => {
    const cut = await cli(['links', 'list', '--tag', 'paging', '--limit', '130'], { env })
    expect(cut.code).toBe(0)
    expect(cut.stdout.trimEnd().split('\n')).toHaveLength(131)
    expect(cut.stderr).toBe('showing 130 of 250; more with --limit <n> or --all\n')
    const dflt = await cli(['links', 'list', '--tag', 'paging'], { env })
    expect(dflt.stderr).toBe('showing 20 of 250; more with --limit <n> or --all\n')
    const later = await cli(['links', 'list', '--tag', 'paging', '--limit', '100', '--page', '3'], { env })
    expect(later.stderr).toBe('showing rows 201-250 of 250\n')
    const whole = await cli(['links', 'list', '--tag', 'paging', '--limit', '1000'], { env })
    expect(whole.stdout.trimEnd().split('\n')).toHaveLength(TOTAL + 1)
    expect(whole.stderr).toBe('')
  })

  it('--all: a progress line on a terminal only', async () => {
    const tty = await cli(['links', 'list', '--tag', 'paging', '--all'], { env, isTTY: true })
    expect(tty.code).toBe(0)
    expect(tty.stderr).toContain(`Fetching`)
    expect(tty.stderr).toContain(`${TOTAL}/${TOTAL}`)
    const piped = await cli(['links', 'list', '--tag', 'paging', '--all'], { env })
    expect(piped.stderr).toBe('')
  })

  it('the other lists take the same flags (keys list, any limit)', async () => {
    for (let i = 0; i < 12; i++) {
      const r = await cli(['keys', 'create', '--name', `k${i}`, '--preset', 'read-only', '--json'], { env })
      expect(r.code, r.stderr).toBe(0)
    }
    const r = await cli(['keys', 'list', '--limit', '7'], { env })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(8)
    expect(r.stderr).toMatch(/^showing 7 of 1[0-9]; more with --limit <n> or --all\n$/)
  })

  it('--limit must be a positive number; --all does not combine with --limit', async () => {
    expect((await cli(['links', 'list', '--limit', '0'], { env })).code).toBe(2)
    expect((await cli(['links', 'list', '--limit', 'x'], { env })).code).toBe(2)
    expect((await cli(['links', 'list', '--all', '--limit', '5'], { env })).code).toBe(2)
  })
})
