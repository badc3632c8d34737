/**
 * End to end: the built `linkd` and `linkctl`. A link created with linkctl is followed with a
 * real HTTP client; after the click flush, `linkctl links stats --json` counts the human click
 * once and the HEAD request and the crawlers only as bots. Needs `npm run build` first.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Link } from '../../src/contract/links.js'
import type { LinkAnalytics } from '../../src/contract/click-analytics.js'
import { startLinkdForCli, type LinkdForCli, type RunningLinkd } from '../support/processes.js'

let cli: LinkdForCli
let daemon: RunningLinkd
let work = ''
const linkctl = (args: string[]) => cli.linkctl(args)
const BROWSER_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15'

beforeAll(async () => {
  cli = await startLinkdForCli('linkctl-links-e2e-')
  ;({ daemon, work } = cli)
  const ownerKey = daemon.ownerKey() ?? ''
  expect(ownerKey).toMatch(/^lk_live_/)
}, 60_000)

afterAll(() => cli?.close())

describe('short links with the real binaries', () => {
  let link: Link

  it('creates a link; its short URL redirects (302 + Location) for a real HTTP client', async () => {
    const r = await linkctl([
      'links',
      'create',
      'https://example.com/landing?ref=e2e',
      '--title',
      'E2E',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    link = JSON.parse(r.stdout) as Link
    expect(link.shortUrl).toBe(`${daemon.url}/${link.shortCode}`)

    const res = await fetch(link.shortUrl, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('https://example.com/landing?ref=e2e')
    expect(res.headers.get('cache-control')).toBe('private, max-age=90')
  })

  it('a HEAD request, Googlebot and Slackbot are redirected too', async () => {
    const head = await fetch(link.shortUrl, {
      method: 'HEAD',
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_UA },
    })
    expect(head.status).toBe(302)
    for (const ua of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    ]) {
      const res = await fetch(link.shortUrl, { redirect: 'manual', headers: { 'user-agent': ua } })
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('https://example.com/landing?ref=e2e')
    }
  })

  it('after the click flush, stats --json counts one human click and the rest as bots', async () => {
    // The timed flush (no read asks for it) writes the click: asked until it shows, however slow.
    let clicks = 0
    while (clicks === 0) {
      const get = await linkctl(['links', 'get', link.shortCode, '--json'])
      expect(get.code, get.stderr).toBe(0)
      clicks = (JSON.parse(get.stdout) as Link).clicks
      if (clicks === 0) await sleep(100)
    }
    expect(clicks).toBe(1)

    const r = await linkctl(['links', 'stats', link.id, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const a = JSON.parse(r.stdout) as LinkAnalytics
    expect(a).toMatchObject({
      linkId: link.id,
      totalClicks: 1,
      uniqueVisitors: 1,
      botDetection: { count: 3 },
    })
    expect(a.browsers.map((b) => b.browser)).toEqual(['Safari'])

    const table = await linkctl(['links', 'stats', link.id])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout.split('\n')[0]).toBe(
      'LINK\tRANGE\tCLICKS\tUNIQUE VISITORS\tBOTS\tBOTS %\tQR SCANS\tBOUNCE RATE\tRESPONSE TIME',
    )
  })

  it('import, export and qr through the binary', async () => {
    const csv = join(work, 'in.csv')
    writeFileSync(
      csv,
      'destinationUrl,title,tags\nhttps://example.com/i1,"One, 1",bulk\nnot-a-url,Two,bulk\n',
    )
    const imp = await linkctl(['links', 'import', csv])
    expect(imp.code).toBe(1)
    expect(imp.stdout).toBe('Created 1 link; 1 failed\n')
    expect(imp.stderr).toMatch(/^line 3: .*destinationUrl/m)

    const out = join(work, 'out.csv')
    const exp = await linkctl(['links', 'export', '--output', out, '--tag', 'bulk'])
    expect(exp.code, exp.stderr).toBe(0)
    expect(readFileSync(out, 'utf8')).toMatch(
      /^destinationUrl,title,customSlug,tags,expiresAt,id,shortUrl,clicks,status,createdAt,expiredUrl,maxClicks,startsAt,forwardQuery,rules,passwordProtected,og,variants\r\nhttps:\/\/example\.com\/i1,"One, 1",/,
    )

    const png = join(work, 'qr.png')
    const qr = await linkctl(['links', 'qr', link.shortCode, '--output', png])
    expect(qr.code, qr.stderr).toBe(0)
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG')
  })

  it('link options from linkctl flags: rules by OS, forwarded query, maxClicks then expiredUrl, a moved code', async () => {
    const r = await linkctl([
      'links',
      'create',
      'https://example.com/web#top',
      '--slug',
      'e2e-opts',
      '--rule',
      'os:ios=>https://apps.example.com/ios',
      '--max-clicks',
      '2',
      '--expired-url',
      'https://example.com/over',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    const go = (path: string, ua = BROWSER_UA) =>
      fetch(`${daemon.url}/${path}`, { redirect: 'manual', headers: { 'user-agent': ua } })
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
    expect((await go('e2e-opts?c=1&qr=1', iphone)).headers.get('location')).toBe(
      'https://apps.example.com/ios?c=1',
    )
    expect((await go('e2e-opts?c=2')).headers.get('location')).toBe('https://example.com/web?c=2#top')
    expect((await go('e2e-opts')).headers.get('location')).toBe('https://example.com/over')

    const move = ['links', 'update', 'e2e-opts', '--short-code', 'e2e-moved', '--max-clicks', 'none']
    // Clicked just now, so in use: refused (nothing changed) until --force.
    const refused = await linkctl(move)
    expect(refused.code).toBe(6)
    expect(refused.stderr).toMatch(
      /e2e-opts is in use: \d+ clicks in the last 30 days;.*\n {2}add --force to change it anyway\n$/,
    )
    expect((await go('e2e-opts')).status).toBe(302)
    const moved = await linkctl([...move, '--force'])
    expect(moved.code, moved.stderr).toBe(0)
    expect((await go('e2e-opts')).status).toBe(404)
    expect((await go('e2e-moved')).headers.get('location')).toBe('https://example.com/web#top')
    const shown = await linkctl(['links', 'get', 'e2e-moved'])
    expect(shown.stdout).toContain('RULE 1')
    expect(shown.stdout).toContain('os:ios=>https://apps.example.com/ios')
  })

  it('--password-stdin protects a link: the form, then the password POSTed, then the redirect; --no-password removes it', async () => {
    const secret = 'e2e pass word'
    const r = await cli.linkctl(
      [
        'links',
        'create',
        'https://example.com/secret',
        '--slug',
        'e2e-pw',
        '--password-stdin',
        '--og-title',
        'Hi',
      ],
      {},
      `${secret}\n`,
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.trim()).toBe(`${daemon.url}/e2e-pw`)
    const shown = (await linkctl(['links', 'get', 'e2e-pw'])).stdout.split('\n')
    const [names, values] = [shown[0]!.split('\t'), shown[1]!.split('\t')]
    expect(values[names.indexOf('PASSWORD')]).toBe('yes (protected)')
    expect(values[names.indexOf('OG TITLE')]).toBe('Hi')
    const json = JSON.parse((await linkctl(['links', 'get', 'e2e-pw', '--json'])).stdout) as Link
    expect(json.passwordProtected).toBe(true)
    expect(JSON.stringify(json)).not.toContain(secret)

    const form = await fetch(`${daemon.url}/e2e-pw`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_UA },
    })
    expect(form.status).toBe(200)
    expect(await form.text()).toContain('name="password"')
    const post = (password: string) =>
      fetch(`${daemon.url}/e2e-pw`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'user-agent': BROWSER_UA, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password }).toString(),
      })
    expect((await post('wrong one')).status).toBe(401)
    const right = await post(secret)
    expect(right.status).toBe(302)
    expect(right.headers.get('location')).toBe('https://example.com/secret')

    const tooShort = await cli.linkctl(['links', 'update', 'e2e-pw', '--password-stdin'], {}, 'abc\n')
    expect(tooShort.code).toBe(2)
    expect(tooShort.stderr).toContain('4-128 characters')
    const cleared = await linkctl(['links', 'update', 'e2e-pw', '--no-password', '--no-og'])
    expect(cleared.code, cleared.stderr).toBe(0)
    const plain = await fetch(`${daemon.url}/e2e-pw`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_UA },
    })
    expect(plain.status).toBe(302)
  })

  it('delete without --yes and without a terminal exits 2; with --yes the short URL is gone', async () => {
    expect((await linkctl(['links', 'delete', link.id])).code).toBe(2)
    const r = await linkctl(['links', 'delete', link.id, '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect((await fetch(link.shortUrl, { redirect: 'manual' })).status).toBe(404)
    expect((await linkctl(['links', 'get', link.id])).code).toBe(5)
  })
})
