/** `linkctl smart-links` (alias `sl`) against the real daemon (in-memory SQLite, fake clock). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import type { LinkAnalytics } from '../../../src/contract/click-analytics.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'
import { exitCodeFor, formatError } from '../../../src/session/exit-codes.js'
import { runSmartLinksCreate } from '../../../src/cli/commands/smart-links/create.js'
import { runSmartLinksDelete } from '../../../src/cli/commands/smart-links/delete.js'
import { runSmartLinksGet } from '../../../src/cli/commands/smart-links/get.js'
import { runSmartLinksList } from '../../../src/cli/commands/smart-links/list.js'
import { runSmartLinksUpdate } from '../../../src/cli/commands/smart-links/update.js'
import type { SmartLinkFlags } from '../../../src/cli/commands/smart-links/shared.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli, decliningCtx, testCtx } from '../../support/cli.js'
import { createGame } from '../../support/gaming.js'

const IOS = 'https://apps.apple.com/app/id1234567890'
const PLAY = 'https://play.google.com/store/apps/details?id=com.example.game'
const STEAM = 'https://store.steampowered.com/app/123456/'
const FALLBACK = 'https://example.com/game'
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'

let d: TestDaemon
let env: NodeJS.ProcessEnv
beforeAll(async () => {
  // The shared short domain without a port, so that redirects answer on the random test port.
  d = await startTestDaemon({ shortDomain: '127.0.0.1' })
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }
})
afterAll(() => d.close())

function as(apiKey: string = d.ownerKey, opts: { json?: boolean; isTTY?: boolean } = {}) {
  return testCtx({
    flags: { url: d.url, apiKey },
    json: opts.json ?? true,
    isTTY: opts.isTTY ?? false,
    env: { NO_COLOR: '1' },
  })
}

async function exit(fn: () => Promise<void>): Promise<{ code: number; message: string }> {
  try {
    await fn()
    return { code: 0, message: '' }
  } catch (err) {
    return { code: exitCodeFor(err), message: formatError(err) }
  }
}

async function create(flags: SmartLinkFlags): Promise<SmartLink> {
  const { ctx, out } = as()
  await runSmartLinksCreate(flags, ctx)
  return JSON.parse(out.text) as SmartLink
}

describe('linkctl smart-links', () => {
  it('create prints the short URL; every flag maps to the body; --fallback is required (exit 2)', async () => {
    await createGame(d.testApp, { slug: 'cli-game' })
    await createGame(d.testApp, { slug: 'cli-game-2' })
    const plain = as(d.ownerKey, { json: false })
    await runSmartLinksCreate({ fallback: FALLBACK }, plain.ctx)
    expect(plain.out.text).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9]{7}\n$/)

    const s = await create({
      fallback: FALLBACK,
      ios: IOS,
      android: PLAY,
      desktop: STEAM,
      title: 'Play now',
      tag: ['launch', 'launch', 'spring'],
      shortCode: 'cli-play',
      clickId: false,
      game: 'cli-game',
    })
    expect(s).toMatchObject({
      shortCode: 'cli-play',
      fallbackUrl: FALLBACK,
      ios: { url: IOS },
      android: { url: PLAY },
      desktop: { url: STEAM },
      title: 'Play now',
      tags: ['launch', 'spring'],
      appendClickId: false,
      gameId: 'cli-game',
    })

    // A refused target is named as the flag that set it.
    const ftp = await cli(['sl', 'create', '--fallback', FALLBACK, '--ios', 'ftp://example.com/app'], { env })
    expect(ftp.code).toBe(1)
    expect(ftp.stderr).toMatch(/^error: --ios /)
    const missing = await cli(['smart-links', 'create', '--ios', IOS], { env })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--fallback')
    // The alias, and the whole command line.
    const r = await cli(['sl', 'create', '--fallback', FALLBACK, '--ios', IOS, '--no-click-id', '--json'], {
      env,
    })
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({
      fallbackUrl: FALLBACK,
      ios: { url: IOS },
      appendClickId: false,
    })
    // The code is shared with links: 6 (conflict).
    const taken = await cli(['sl', 'create', '--fallback', FALLBACK, '--short-code', 'cli-play'], { env })
    expect(taken.code).toBe(6)
    const link = await cli(['links', 'create', 'https://example.com/x', '--slug', 'cli-play'], { env })
    expect(link.code).toBe(6)
    // Bad input the daemon refuses: 1 with its message.
    const bad = await cli(['sl', 'create', '--fallback', 'ftp://example.com/'], { env })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('--fallback must start with http:// or https://')
  })

  it('list: tab-separated when piped, a table on a terminal, --json the page; --search and --tag', async () => {
    const s = await create({ fallback: FALLBACK, android: PLAY, shortCode: 'cli-list', tag: ['listed'] })
    const piped = as(d.ownerKey, { json: false })
    await runSmartLinksList({ tag: 'listed' }, piped.ctx)
    const [header, row] = piped.out.text.trimEnd().split('\n')
    expect(header?.split('\t')).toEqual([
      'ID',
      'SHORT URL',
      'FALLBACK',
      'TARGETS',
      'TITLE',
      'CLICKS',
      'TAGS',
      'CREATED',
    ])
    expect(row?.split('\t').slice(0, 4)).toEqual([s.id, s.shortUrl, FALLBACK, 'android'])

    const tty = as(d.ownerKey, { json: false, isTTY: true })
    await runSmartLinksList({ search: 'cli-list' }, tty.ctx)
    expect(tty.out.text).toContain('cli-list')
    expect(tty.out.text).toContain('CODE')

    const json = as()
    await runSmartLinksList({ search: 'play.google.com' }, json.ctx)
    const page = JSON.parse(json.out.text) as PageOf<SmartLink>
    expect(page.data.map((x) => x.id)).toContain(s.id)
    expect(page.data.every((x) => x.id.startsWith('sml_'))).toBe(true)

    const none = as(d.ownerKey, { json: false, isTTY: true })
    await runSmartLinksList({ search: 'nothing-like-this' }, none.ctx)
    expect(none.err.text).toBe('No smart links match.\n')
  })

  it('get by id, short code or short URL; update sets and clears targets; unknown is exit 5', async () => {
    const s = await create({ fallback: FALLBACK, ios: IOS, desktop: STEAM, shortCode: 'cli-get' })
    for (const ref of [s.id, s.shortCode, s.shortUrl]) {
      const { ctx, out } = as()
      await runSmartLinksGet({ ref }, ctx)
      expect((JSON.parse(out.text) as SmartLink).id).toBe(s.id)
    }
    const shown = await cli(['sl', 'get', 'cli-get'], { env })
    expect(shown.code).toBe(0)
    // Piped: one header row and one value row.
    const [names, values] = shown.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'))
    const record = Object.fromEntries(names!.map((n, i) => [n, values![i]]))
    expect(record).toMatchObject({ IOS: IOS, ANDROID: '', DESKTOP: STEAM, 'CLICK ID': 'appended' })

    const { ctx, out } = as()
    await runSmartLinksUpdate({ ref: 'cli-get', ios: false, android: PLAY, clickId: false, title: 'T' }, ctx)
    expect(JSON.parse(out.text)).toMatchObject({
      ios: null,
      android: { url: PLAY },
      desktop: { url: STEAM },
      appendClickId: false,
      title: 'T',
    })
    const back = await cli(
      ['sl', 'update', s.id, '--click-id', '--no-desktop', '--game', 'cli-game-2', '--json'],
      {
        env,
      },
    )
    expect(back.code, back.stderr).toBe(0)
    expect(JSON.parse(back.stdout)).toMatchObject({
      appendClickId: true,
      desktop: null,
      gameId: 'cli-game-2',
    })
    const cleared = await cli(['sl', 'update', s.id, '--no-game', '--title', '', '--json'], { env })
    expect(JSON.parse(cleared.stdout)).toMatchObject({ gameId: null, title: null })

    expect((await cli(['sl', 'update', s.id], { env })).code).toBe(2)
    expect((await exit(() => runSmartLinksGet({ ref: 'no-such-code' }, as().ctx))).code).toBe(5)
    expect((await exit(() => runSmartLinksGet({ ref: 'sml_nope' }, as().ctx))).code).toBe(5)
    // A plain link is not a smart link, and the reverse.
    const link = await cli(
      ['links', 'create', 'https://example.com/plain', '--slug', 'cli-plain', '--json'],
      { env },
    )
    expect((await exit(() => runSmartLinksGet({ ref: 'cli-plain' }, as().ctx))).code).toBe(5)
    expect((await cli(['links', 'get', s.id], { env })).code).toBe(5)
    expect(JSON.parse(link.stdout)).toMatchObject({ shortCode: 'cli-plain' })
  })

  it('delete: --yes needed without a terminal, asks on one, then it is gone (exit 5)', async () => {
    const s = await create({ fallback: FALLBACK, shortCode: 'cli-del' })
    expect((await exit(() => runSmartLinksDelete({ ref: s.id }, as().ctx))).code).toBe(2)
    const declined = decliningCtx(d.url, d.ownerKey)
    expect((await exit(() => runSmartLinksDelete({ ref: 'cli-del' }, declined.ctx))).code).toBe(1)
    expect(declined.questions).toEqual(['Delete smart link cli-del? Its short URL stops working.'])
    const writer = await d.testApp.createKey({ permissions: ['smartLinks:read', 'smartLinks:write'] })
    expect((await exit(() => runSmartLinksDelete({ ref: s.id, yes: true }, as(writer.key).ctx))).code).toBe(4)
    const { ctx, err } = as()
    await runSmartLinksDelete({ ref: 'cli-del', yes: true }, ctx)
    expect(err.text).toBe(`Deleted smart link ${s.id}\n`)
    expect((await exit(() => runSmartLinksGet({ ref: s.id }, as().ctx))).code).toBe(5)
    expect((await fetch(`${d.url}/cli-del`, { redirect: 'manual' })).status).toBe(404)
  })

  it('links stats reads a smart link by its id, with the platforms breakdown', async () => {
    const s = await create({ fallback: FALLBACK, ios: IOS, shortCode: 'cli-stats' })
    const res = await fetch(`${d.url}/cli-stats`, { redirect: 'manual', headers: { 'user-agent': IPHONE } })
    expect(res.status).toBe(302)
    const r = await cli(['links', 'stats', s.id, '--json'], { env })
    expect(r.code, r.stderr).toBe(0)
    const a = JSON.parse(r.stdout) as LinkAnalytics
    expect(a.platforms?.find((p) => p.platform === 'ios')).toEqual({
      platform: 'ios',
      clicks: 1,
      percentage: 100,
    })
    const text = await cli(['links', 'stats', s.id], { env })
    expect(text.stdout).toContain('PLATFORM\tCLICKS\t%\nios\t1\t100\n')
    // sl stats takes its short code too (links stats knows only links' codes).
    const byCode = await cli(['sl', 'stats', 'cli-stats'], { env })
    expect(byCode.code, byCode.stderr).toBe(0)
    expect(byCode.stdout).toContain('PLATFORM\tCLICKS\t%\nios\t1\t100\n')
    // Links and smart links share codes: the other kind's code is named as such.
    const wrongKind = await cli(['links', 'stats', 'cli-stats'], { env })
    expect(wrongKind.code).toBe(5)
    expect(wrongKind.stderr).toBe(
      'error: no link with the id or short code "cli-stats": it is a smart link (linkctl smart-links)\n',
    )
    expect(
      (await cli(['links', 'create', 'https://example.com/plain', '--slug', 'cli-plain-stats'], { env }))
        .code,
    ).toBe(0)
    const notSmart = await cli(['sl', 'get', 'cli-plain-stats'], { env })
    expect(notSmart.code).toBe(5)
    expect(notSmart.stderr).toBe(
      'error: no smart link with the short code "cli-plain-stats": it is a link (linkctl links)\n',
    )
    const unknown = await cli(['sl', 'stats', 'no-such-code'], { env })
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toBe('error: no smart link with the id or short code "no-such-code"\n')
  })
})
