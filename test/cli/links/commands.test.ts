/** The links commands' run functions against the real daemon (in-memory SQLite, fake clock). */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import type { Link } from '../../../src/contract/links.js'
import type { LinkAnalytics } from '../../../src/contract/click-analytics.js'
import { exitCodeFor, formatError } from '../../../src/session/exit-codes.js'
import { runLinksCreate } from '../../../src/cli/commands/links/create.js'
import { runLinksDelete } from '../../../src/cli/commands/links/delete.js'
import { runLinksGet } from '../../../src/cli/commands/links/get.js'
import { runLinksList } from '../../../src/cli/commands/links/list.js'
import { runLinksUpdate } from '../../../src/cli/commands/links/update.js'
import { runLinksOpen } from '../../../src/cli/commands/links/open.js'
import { runLinksQr } from '../../../src/cli/commands/links/qr.js'
import { runLinksStats } from '../../../src/cli/commands/links/stats.js'
import type { LinkFlags } from '../../../src/cli/commands/links/shared.js'
import { parseInstant } from '../../../src/cli/parse.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli, decliningCtx, tempDir, testCtx } from '../../support/cli.js'

let d: TestDaemon
const tmp = tempDir('linkctl-links-')
beforeAll(async () => {
  // The shared short domain without a port, so that redirects answer on the random test port.
  d = await startTestDaemon({ shortDomain: '127.0.0.1' })
})
afterAll(async () => {
  await d.close()
  tmp.remove()
})

function as(
  apiKey: string = d.ownerKey,
  opts: { json?: boolean; isTTY?: boolean; env?: NodeJS.ProcessEnv } = {},
) {
  return testCtx({
    flags: { url: d.url, apiKey },
    json: opts.json ?? true,
    isTTY: opts.isTTY ?? false,
    env: { NO_COLOR: '1', ...opts.env },
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

async function create(url = 'https://example.com/page', flags: LinkFlags = {}): Promise<Link> {
  const { ctx, out } = as()
  await runLinksCreate({ url, ...flags }, ctx)
  return JSON.parse(out.text) as Link
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0'

/** A click on the short code through the test daemon's port (a browser's user agent unless given). */
const visit = (code: string, init: RequestInit = {}) =>
  fetch(`${d.url}/${code}`, {
    redirect: 'manual',
    ...init,
    headers: { 'user-agent': FIREFOX, ...init.headers },
  })

describe('links commands against linkd', () => {
  it('create prints the short URL; --json the link with every flag mapped', async () => {
    const plain = as(d.ownerKey, { json: false })
    await runLinksCreate({ url: 'https://example.com/a' }, plain.ctx)
    expect(plain.out.text).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9]{7}\n$/)

    const l = await create('https://example.com/b', {
      title: 'Launch',
      slug: 'launch-2026',
      expiresAt: '2030-01-01T00:00:00.000Z',
      tag: ['promo', 'q4'],
      meta: { campaign: 'fall' },
      redirectType: '301',
    })
    expect(l).toMatchObject({
      shortCode: 'launch-2026',
      destinationUrl: 'https://example.com/b',
      title: 'Launch',
      tags: ['promo', 'q4'],
      metadata: { campaign: 'fall' },
      expiresAt: '2030-01-01T00:00:00.000Z',
      redirectType: 301,
      status: 'active',
      clicks: 0,
    })
    expect(l.id).toMatch(/^lnk_/)
  })

  it('a taken slug exits 6, a forbidden key 4, an invalid URL 1 with the field named', async () => {
    await create('https://example.com/c', { slug: 'taken-slug' })
    const dup = await exit(() =>
      runLinksCreate({ url: 'https://example.com/d', slug: 'taken-slug' }, as().ctx),
    )
    expect(dup).toMatchObject({ code: 6, message: expect.stringMatching(/\(HTTP 409\)/) })
    const reader = await d.testApp.createKey({ permissions: ['links:read'] })
    const forbidden = await exit(() => runLinksCreate({ url: 'https://example.com/e' }, as(reader.key).ctx))
    expect(forbidden).toMatchObject({ code: 4, message: expect.stringMatching(/\(HTTP 403\)/) })
    const bad = await exit(() => runLinksCreate({ url: 'ftp://example.com/f' }, as().ctx))
    expect(bad.code).toBe(1)
    expect(bad.message).toBe('error: destinationUrl must start with http:// or https:// (HTTP 400)\n')
  })

  it('several problems in one request: each is printed, on its own line', async () => {
    const bad = await exit(() =>
      runLinksCreate(
        {
          url: 'http://localhost:3000/x',
          slug: 'api',
          expiredUrl: 'http://127.0.0.1/gone',
          ogImage: 'http://[::1]/preview.png',
        },
        as().ctx,
      ),
    )
    expect(bad.code).toBe(1)
    const lines = bad.message.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^error: customSlug: "api" is reserved.*\(and 3 more\) \(HTTP 400\)$/)
    expect(lines.slice(1).map((l) => l.trim().split(':')[0])).toEqual([
      'destinationUrl',
      'expiredUrl',
      'og.imageUrl',
    ])
  })

  it('get by id, short code or short URL; unknown ones exit 5', async () => {
    const l = await create('https://example.com/get', { slug: 'get-me' })
    for (const ref of [l.id, 'get-me', `http://short.example/get-me`]) {
      const { ctx, out } = as()
      await runLinksGet({ ref }, ctx)
      expect((JSON.parse(out.text) as Link).id).toBe(l.id)
    }
    const tty = as(d.ownerKey, { json: false, isTTY: true })
    await runLinksGet({ ref: l.id }, tty.ctx)
    expect(tty.out.text).toMatch(/^SHORT CODE\s+get-me$/m)
    expect((await exit(() => runLinksGet({ ref: 'lnk_doesnotexist' }, as().ctx))).code).toBe(5)
    expect((await exit(() => runLinksGet({ ref: 'no-such-code' }, as().ctx))).code).toBe(5)
    const other = await d.testApp.createOrg('links-other')
    expect((await exit(() => runLinksGet({ ref: l.id }, as(other.ownerKey).ctx))).code).toBe(5)
  })

  it('list: TSV when piped, filters and sorting, the envelope with --json', async () => {
    const a = await create('https://example.com/list-a', { tag: ['listtag'], title: 'zz list a' })
    const b = await create('https://example.com/list-b', { tag: ['listtag'], title: 'zz list b' })
    await visit(b.shortCode)
    await d.app.linkd.services.clicks.recorder.flush() // what the daemon does within a second
    const piped = as(d.ownerKey, { json: false })
    await runLinksList({ tag: 'listtag' }, piped.ctx)
    const lines = piped.out.text.trimEnd().split('\n')
    expect(lines[0]).toBe('ID\tSHORT URL\tDESTINATION\tTITLE\tSTATUS\tCLICKS\tTAGS\tCREATED\tEXPIRES')
    expect(lines).toHaveLength(3)

    const sorted = as()
    await runLinksList({ tag: 'listtag', sort: 'clicks', order: 'desc', limit: '10' }, sorted.ctx)
    const page = JSON.parse(sorted.out.text) as PageOf<Link>
    expect(page).toMatchObject({ page: 1, perPage: 10, total: 2 })
    expect(page.data.map((l) => l.id)).toEqual([b.id, a.id])

    const search = as()
    await runLinksList({ search: 'zz list a' }, search.ctx)
    expect((JSON.parse(search.out.text) as PageOf<Link>).data.map((l) => l.id)).toEqual([a.id])
  })

  it('update mirrors the PATCH body: status, title cleared, tags cleared, expiry removed', async () => {
    const l = await create('https://example.com/upd', {
      title: 'T',
      tag: ['x'],
      expiresAt: '2030-01-01T00:00:00.000Z',
    })
    const { ctx, out } = as()
    await runLinksUpdate(
      {
        ref: l.id,
        title: '',
        status: 'inactive',
        clearTags: true,
        expiry: false,
        destination: 'https://example.org/',
      },
      ctx,
    )
    expect(JSON.parse(out.text)).toMatchObject({
      id: l.id,
      title: null,
      status: 'inactive',
      tags: [],
      expiresAt: null,
      destinationUrl: 'https://example.org/',
    })
    expect((await visit(l.shortCode)).status).toBe(404)
    const inactive = as()
    await runLinksList({ status: 'inactive' }, inactive.ctx)
    expect((JSON.parse(inactive.out.text) as PageOf<Link>).data.map((x) => x.id)).toContain(l.id)
    expect((await exit(() => runLinksUpdate({ ref: l.id }, as().ctx))).code).toBe(2)
    expect((await exit(() => runLinksUpdate({ ref: 'lnk_nope', title: 'x' }, as().ctx))).code).toBe(5)
  })

  it('delete: --yes needed without a terminal, asks on one, then the link is gone (exit 5)', async () => {
    const l = await create('https://example.com/del')
    expect((await exit(() => runLinksDelete({ ref: l.id }, as().ctx))).code).toBe(2)
    const declined = decliningCtx(d.url, d.ownerKey)
    const { questions } = declined
    expect((await exit(() => runLinksDelete({ ref: l.shortCode }, declined.ctx))).code).toBe(1)
    expect(questions).toEqual([`Delete link ${l.shortCode}? Its short URL stops working.`])
    const reader = await d.testApp.createKey({ permissions: ['links:read', 'links:write'] })
    expect((await exit(() => runLinksDelete({ ref: l.id, yes: true }, as(reader.key).ctx))).code).toBe(4)
    const { ctx, err } = as()
    await runLinksDelete({ ref: l.shortCode, yes: true }, ctx)
    expect(err.text).toBe(`Deleted link ${l.id}\n`)
    expect((await exit(() => runLinksGet({ ref: l.id }, as().ctx))).code).toBe(5)
    expect((await visit(l.shortCode)).status).toBe(404)
  })

  it('open runs $BROWSER with the short URL; --print only prints it', async () => {
    const l = await create('https://example.com/open')
    const record = join(tmp.dir, 'opened.txt')
    const script = join(tmp.dir, 'browser.sh')
    writeFileSync(script, `#!/bin/sh\nprintf '%s' "$1" > '${record}'\n`)
    chmodSync(script, 0o755)
    const { ctx, err } = as(d.ownerKey, { json: false, env: { BROWSER: script } })
    await runLinksOpen({ ref: l.shortCode }, ctx)
    expect(readFileSync(record, 'utf8')).toBe(l.shortUrl)
    expect(err.text).toBe(`Opening ${l.shortUrl} in your browser\n`)

    const printed = as(d.ownerKey, { json: false, env: { BROWSER: join(tmp.dir, 'missing.sh') } })
    await runLinksOpen({ ref: l.id, print: true }, printed.ctx)
    expect(printed.out.text).toBe(`${l.shortUrl}\n`)
    const broken = await exit(() => runLinksOpen({ ref: l.id }, printed.ctx))
    expect(broken.code).toBe(1)
    expect(broken.message).toContain(l.shortUrl)
  })

  it('qr: a PNG file (signature), SVG bytes when piped, a terminal drawing on a TTY', async () => {
    const l = await create('https://example.com/qr')
    const png = join(tmp.dir, 'code.png')
    const file = as(d.ownerKey, { json: false })
    await runLinksQr({ ref: l.id, output: png, size: 128 }, file.ctx)
    expect(readFileSync(png).subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    )
    expect(file.err.text).toMatch(
      new RegExp(`^Wrote the PNG QR code of ${l.id} to .*code\\.png \\(\\d+ bytes\\)\\n$`),
    )
    expect(existsSync(`${png}.tmp-${process.pid}`)).toBe(false)

    const piped = as(d.ownerKey, { json: false })
    await runLinksQr({ ref: l.shortCode }, piped.ctx)
    expect(piped.out.text).toMatch(/^(<\?xml[^>]*>\s*)?<svg[\s\S]*<\/svg>\s*$/)

    const tty = as(d.ownerKey, { json: false, isTTY: true })
    await runLinksQr({ ref: l.id }, tty.ctx)
    expect(tty.out.text).toMatch(/[█▀▄]/)
    expect(tty.out.text.trimEnd().endsWith(l.shortUrl)).toBe(true)

    const noScope = await d.testApp.createKey({ permissions: ['links:read'] })
    expect((await exit(() => runLinksQr({ ref: l.id, output: png }, as(noScope.key).ctx))).code).toBe(4)
  })

  it('stats --json is the analytics body: a click counts, a HEAD request and a bot only as bots', async () => {
    const l = await create('https://example.com/stats')
    expect(
      (
        await visit(l.shortCode, {
          headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0' },
        })
      ).status,
    ).toBe(302)
    expect((await visit(l.shortCode, { method: 'HEAD' })).status).toBe(302)
    const bot = await visit(l.shortCode, {
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    })
    expect(bot.status).toBe(302)
    const { ctx, out } = as()
    await runLinksStats(
      {
        ref: l.shortCode,
        interval: 'hour',
        start: parseInstant('2026-11-21', 'start'),
        end: parseInstant('2026-11-21', 'end'),
      },
      ctx,
    )
    const a = JSON.parse(out.text) as LinkAnalytics
    expect(a).toMatchObject({ linkId: l.id, interval: 'hour', totalClicks: 1, botDetection: { count: 2 } })
    expect(a.timeSeries).toHaveLength(24)

    const tty = as(d.ownerKey, { json: false, isTTY: true })
    await runLinksStats({ ref: l.id }, tty.ctx)
    expect(tty.out.text).toMatch(/^CLICKS\s+1$/m)
    expect(tty.out.text).toMatch(/^BOTS\s+2 \(66\.7%\)$/m)
    expect(tty.out.text).toContain('Browsers')
    expect(tty.out.text).toContain('Clicks over time')
    expect((await exit(() => runLinksStats({ ref: 'lnk_missing' }, as().ctx))).code).toBe(5)

    // Piped: one tab-separated table per section (header row, then rows), a blank line between.
    const piped = as(d.ownerKey, { json: false })
    await runLinksStats({ ref: l.id, interval: 'day' }, piped.ctx)
    const tables = piped.out.text.trimEnd().split('\n\n')
    const headers = tables.map((t) => t.split('\n')[0]?.split('\t')[0])
    expect(headers).toEqual(['LINK', 'COUNTRY', 'DEVICE', 'BROWSER', 'OS', 'TIMESTAMP'])
    for (const table of tables) {
      const [head = '', ...rows] = table.split('\n')
      expect(rows.length).toBeGreaterThan(0)
      for (const row of rows) expect(row.split('\t')).toHaveLength(head.split('\t').length)
    }
    expect(tables[3]).toBe('BROWSER\tCLICKS\t%\nFirefox\t1\t100')
  })

  it('list on a terminal: a borderless table cut to the terminal width, relative times; piped: ISO', async () => {
    const long = await create(`https://example.com/${'long-path/'.repeat(12)}`, { tag: ['wide'] })
    for (const columns of ['130', '160']) {
      const tty = as(d.ownerKey, { json: false, isTTY: true, env: { COLUMNS: columns } })
      await runLinksList({ tag: 'wide' }, tty.ctx)
      const lines = tty.out.text.trimEnd().split('\n')
      expect(lines[0]).toMatch(/^ID {2,}CODE {2,}DESTINATION/)
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(Number(columns))
      expect(lines.slice(0, 2)).toEqual([
        expect.any(String),
        expect.stringMatching(new RegExp(`^${long.id}  ${long.shortCode} +https://`)),
      ])
      expect(lines[1]).toContain('…')
      expect(lines[1]).toMatch(/ (just now|\d+ (minute|hour|day|month|year)s? ago|in \d+ \w+)  +-$/)
    }
    const piped = as(d.ownerKey, { json: false })
    await runLinksList({ tag: 'wide' }, piped.ctx)
    const [, row] = piped.out.text.trimEnd().split('\n')
    expect(row?.split('\t')).toContain(long.destinationUrl)
    expect(row?.split('\t')).toContain(long.createdAt)
  })

  it('the whole CLI: create with --destination, a bad --limit is a usage error (2)', async () => {
    const env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
    const r = await cli(
      ['links', 'create', '--destination', 'https://example.com/cli', '--tag', 'a', '--json'],
      { env },
    )
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ destinationUrl: 'https://example.com/cli', tags: ['a'] })
    expect((await cli(['links', 'list', '--limit', '0'], { env })).code).toBe(2)
    expect((await cli(['links', 'create'], { env })).code).toBe(2)
  })

  it('link options: create and update flags for each, get shows them, bad values are usage errors', async () => {
    const env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
    const made = await cli(
      [
        'links',
        'create',
        'https://example.com/opt',
        '--slug',
        'opt-code',
        '--expired-url',
        'https://example.com/over',
        '--max-clicks',
        '2',
        '--starts-at',
        '2020-01-01T00:00:00Z',
        '--no-forward-query',
        '--rule',
        'os:ios=>https://example.com/ios',
        '--rule',
        'country:DE, device:mobile=>https://example.com/de-m',
        '--rule',
        'query:ref=tw=>https://example.com/tw',
        '--json',
      ],
      { env },
    )
    expect(made.code, made.stderr).toBe(0)
    const l = JSON.parse(made.stdout) as Link
    expect(l).toMatchObject({
      expiredUrl: 'https://example.com/over',
      maxClicks: 2,
      startsAt: '2020-01-01T00:00:00.000Z',
      forwardQuery: false,
      rules: [
        { conditions: [{ type: 'os', value: 'ios' }], destinationUrl: 'https://example.com/ios' },
        {
          conditions: [
            { type: 'country', value: 'DE' },
            { type: 'device', value: 'mobile' },
          ],
          destinationUrl: 'https://example.com/de-m',
        },
        { conditions: [{ type: 'query', value: 'ref=tw' }], destinationUrl: 'https://example.com/tw' },
      ],
    })
    const shown = await cli(['links', 'get', 'opt-code'], { env, isTTY: false })
    expect(shown.stdout).toContain('https://example.com/over')
    expect(shown.stdout).toContain('os:ios=>https://example.com/ios')
    expect(shown.stdout).toContain('country:DE,device:mobile=>https://example.com/de-m')

    const updated = await cli(
      [
        'links',
        'update',
        'opt-code',
        '--short-code',
        'opt-moved',
        '--expired-url',
        '',
        '--max-clicks',
        'none',
        '--starts-at',
        'none',
        '--forward-query',
        '--clear-rules',
        '--json',
      ],
      { env },
    )
    expect(updated.code, updated.stderr).toBe(0)
    expect(JSON.parse(updated.stdout)).toMatchObject({
      shortCode: 'opt-moved',
      expiredUrl: null,
      maxClicks: null,
      startsAt: null,
      forwardQuery: true,
      rules: [],
    })
    expect((await visit('opt-code')).status).toBe(404)
    expect((await visit('opt-moved?a=1')).headers.get('location')).toBe('https://example.com/opt?a=1')

    const other = await create('https://example.com/other', { slug: 'opt-other' })
    const taken = await cli(['links', 'update', other.id, '--short-code', 'opt-moved'], { env })
    expect(taken.code).toBe(6)
    expect(taken.stderr).toContain('already in use')
    for (const bad of [
      ['--max-clicks', '0'],
      ['--rule', 'os:ios'],
      ['--rule', 'browser:chrome=>https://example.com/x'],
      ['--rule', '=>https://example.com/x'],
    ])
      expect((await cli(['links', 'create', 'https://example.com/x', ...bad], { env })).code).toBe(2)
    const badValue = await cli(
      ['links', 'create', 'https://example.com/x', '--rule', 'os:symbian=>https://example.com/x'],
      { env },
    )
    // The daemon's 400: a validation failure (1), naming the field in the --rule that holds it.
    expect(badValue.code).toBe(1)
    expect(badValue.stderr).toContain("the 1st --rule's conditions.0.value must be one of ios")
    // A field a flag of its own sets is named as that flag.
    const ogTitle = await cli(['links', 'create', 'https://example.com/x', '--og-title', 'x'.repeat(201)], {
      env,
    })
    expect(ogTitle.code).toBe(1)
    expect(ogTitle.stderr).toBe('error: --og-title must be at most 200 characters (HTTP 400)\n')
  })
})

describe('a link flagged by a safety list', () => {
  it('links get names the list, links list marks it, links stats counts the blocked visits', async () => {
    const l = await create('https://files.flag-me.test/setup.exe')
    const up = await fetch(`${d.url}/api/safety/lists?name=cli-flag`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.ownerKey}`, 'content-type': 'text/plain' },
      body: '0.0.0.0 flag-me.test\n',
    })
    expect(up.status).toBe(201)
    // The re-check runs in the background after the upload.
    for (let i = 0; i < 100; i++) {
      const { ctx, out } = as()
      await runLinksGet({ ref: l.id }, ctx)
      if ((JSON.parse(out.text) as Link).flagged) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect((await visit(l.shortCode)).status).toBe(200)

    const get = as(d.ownerKey, { json: false, isTTY: true })
    await runLinksGet({ ref: l.id }, get.ctx)
    expect(get.out.text).toMatch(/^FLAGGED\s+flag-me\.test is on the safety list "cli-flag" \(since /m)
    expect(get.out.text.replace(/\s+/g, ' ')).toContain('): visits get a warning page')
    const list = as(d.ownerKey, { json: false })
    await runLinksList({ search: l.shortCode }, list.ctx)
    expect(list.out.text).toMatch(/\tactive, flagged\t/)
    const stats = as(d.ownerKey, { json: false, isTTY: true })
    await runLinksStats({ ref: l.id }, stats.ctx)
    expect(stats.out.text).toMatch(/^BLOCKED VISITS\s+1$/m)

    const del = await fetch(`${d.url}/api/safety/lists/${((await up.json()) as { id: string }).id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${d.ownerKey}` },
    })
    expect(del.status).toBe(204)
  })
})

describe('links create|update: the password from a prompt or stdin, og flags', () => {
  const prompting = (answers: string[]) => {
    const asked: string[] = []
    const t = testCtx({
      flags: { url: d.url, apiKey: d.ownerKey },
      json: true,
      canPrompt: true,
      prompt: {
        secret: (q) => (asked.push(q), Promise.resolve(answers.shift() ?? '')),
        confirm: () => Promise.resolve(false),
      },
    })
    return { ...t, asked }
  }

  it('--password-prompt asks twice without echo; the link is protected, the password never printed', async () => {
    const t = prompting(['prompt secret', 'prompt secret'])
    await runLinksCreate({ url: 'https://example.com/pw', passwordPrompt: true, ogTitle: 'Hello' }, t.ctx)
    expect(t.asked).toEqual(['Link password: ', 'Again: '])
    const link = JSON.parse(t.out.text) as Link
    expect(link).toMatchObject({
      passwordProtected: true,
      og: { title: 'Hello', description: null, imageUrl: null },
    })
    expect(t.out.text + t.err.text).not.toContain('prompt secret')

    const differ = prompting(['one secret', 'another'])
    const err = await runLinksUpdate({ ref: link.id, passwordPrompt: true }, differ.ctx).catch(
      (e: unknown) => e,
    )
    expect(exitCodeFor(err)).toBe(2)
    expect(formatError(err)).toContain('the two passwords differ')

    const off = testCtx({ flags: { url: d.url, apiKey: d.ownerKey }, json: true, isTTY: false })
    await runLinksUpdate({ ref: link.id, password: false, og: false }, off.ctx)
    expect(JSON.parse(off.out.text)).toMatchObject({ passwordProtected: false, og: null })
  })

  it('--password-prompt without a terminal and --password-stdin on one are usage errors (exit 2)', async () => {
    const noTty = await cli(['links', 'create', 'https://example.com/x', '--password-prompt'], {
      env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' },
    })
    expect(noTty.code).toBe(2)
    expect(noTty.stderr).toContain('--password-stdin')
    const both = await cli(['links', 'update', 'x', '--password-stdin', '--no-password'], {
      env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' },
      stdin: 'abcd\n',
    })
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('not both')
  })

  it('--password with a value, the first thing people type, is refused and points at the safe ways', async () => {
    const env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }
    const before = await cli(['links', 'list', '--json'], { env })
    for (const args of [
      ['links', 'create', 'https://example.com/argv', '--password', 'hunter22'],
      ['links', 'update', 'x', '--password=hunter22'],
    ]) {
      const r = await cli(args, { env })
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/takes no password as an argument.*--password-stdin or use --password-prompt/)
      expect(r.stderr).not.toContain('hunter22')
    }
    // Nothing was created, and --password is not in the help.
    expect((await cli(['links', 'list', '--json'], { env })).stdout).toBe(before.stdout)
    expect((await cli(['links', 'create', '--help'])).stdout).not.toMatch(/--password\s/)
  })

  it('--password-stdin reads the first line of stdin', async () => {
    const r = await cli(['links', 'create', 'https://example.com/stdin', '--password-stdin', '--json'], {
      env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' },
      stdin: 'stdin secret\nignored line\n',
    })
    expect(r.code, r.stderr).toBe(0)
    expect((JSON.parse(r.stdout) as Link).passwordProtected).toBe(true)
    expect(r.stdout + r.stderr).not.toContain('stdin secret')
  })
})
