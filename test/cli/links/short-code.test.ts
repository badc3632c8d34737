/**
 * One name for the short code on the command line, against the real daemon: `--short-code` on
 * every command that sets a code (links and smart links, create and update), `--slug` its alias,
 * the API's refusals of a code said with the flag (not `customSlug` / `shortCode`), and close
 * misspellings of the flag suggested.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Link } from '../../../src/contract/links.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli, errorReply, page, stubServer } from '../../support/cli.js'
import { sqlRows } from '../../support/app.js'

let d: TestDaemon
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(() => d.close())

const run = (argv: string[]) => cli(argv, { env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey } })

async function created<T>(argv: string[]): Promise<T> {
  const r = await run([...argv, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as T
}

describe('--short-code, with --slug as its alias', () => {
  it('links create and update take --short-code, and --slug alike', async () => {
    expect(
      await created<Link>(['links', 'create', 'https://example.com/a', '--short-code', 'sc-one']),
    ).toMatchObject({ shortCode: 'sc-one' })
    expect(
      await created<Link>(['links', 'create', 'https://example.com/b', '--slug', 'sc-two']),
    ).toMatchObject({
      shortCode: 'sc-two',
    })
    expect(await created<Link>(['links', 'update', 'sc-one', '--slug', 'sc-one-b'])).toMatchObject({
      shortCode: 'sc-one-b',
    })
    expect(await created<Link>(['links', 'update', 'sc-one-b', '--short-code', 'sc-one-c'])).toMatchObject({
      shortCode: 'sc-one-c',
    })
    const both = await run([
      'links',
      'create',
      'https://example.com/c',
      '--short-code',
      'x1x',
      '--slug',
      'y1y',
    ])
    expect([both.code, both.stderr]).toEqual([
      2,
      'error: give the short code once: --short-code (or its alias --slug)\n',
    ])
  })

  it('smart-links create and update take both too', async () => {
    const sl = await created<SmartLink>([
      'sl',
      'create',
      '--fallback',
      'https://example.com/f',
      '--slug',
      'sc-smart',
    ])
    expect(sl.shortCode).toBe('sc-smart')
    expect(
      await created<SmartLink>(['sl', 'update', 'sc-smart', '--short-code', 'sc-smart-2']),
    ).toMatchObject({
      shortCode: 'sc-smart-2',
    })
  })

  it('the help documents --short-code and names the alias; --slug itself is not listed', async () => {
    for (const argv of [
      ['links', 'create', '--help'],
      ['links', 'update', '--help'],
      ['sl', 'create', '--help'],
      ['sl', 'update', '--help'],
    ]) {
      const help = (await run(argv)).stdout
      expect(help, argv.join(' ')).toMatch(/--short-code <code> [^\n]*(\n {20,}[^\n]*)*alias\s+--slug/)
      expect(help, argv.join(' ')).not.toMatch(/^\s+--slug <code>/m)
    }
  })
})

describe('refusals name the flag', () => {
  it('a bad code on links create / update and smart-links create / update: --short-code, not customSlug or shortCode', async () => {
    await created<Link>(['links', 'create', 'https://example.com/named', '--short-code', 'sc-named'])
    for (const argv of [
      ['links', 'create', 'https://example.com/bad', '--short-code', 'bad code!'],
      ['links', 'update', 'sc-named', '--short-code', 'bad code!'],
      ['sl', 'create', '--fallback', 'https://example.com/f', '--short-code', 'bad code!'],
    ]) {
      const r = await run(argv)
      expect(r.code, argv.join(' ')).toBe(1)
      expect(r.stderr).toMatch(
        /^error: --short-code may only contain letters, digits, hyphens and underscores \(HTTP 400\)\n$/,
      )
    }
    const short = await run(['links', 'create', 'https://example.com/short', '--slug', 'ab'])
    expect(short.stderr).toBe('error: --short-code must be at least 3 characters (HTTP 400)\n')
  })

  it('a taken code: exit 6, and the API body as it came with --json', async () => {
    const r = await run(['links', 'create', 'https://example.com/taken', '--short-code', 'sc-two'])
    expect([r.code, r.stderr]).toEqual([
      6,
      'error: short code "sc-two" is already in use on this domain (HTTP 409)\n',
    ])
    const json = await run([
      'links',
      'create',
      'https://example.com/bad',
      '--short-code',
      'bad code!',
      '--json',
    ])
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: 'ValidationError',
      details: [expect.objectContaining({ field: 'customSlug' })],
    })
  })

  it('a misspelt flag gets a suggestion', async () => {
    const r = await run(['links', 'create', 'https://example.com/typo', '--shortcode', 'abc'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("error: unknown option '--shortcode'\n(Did you mean --short-code?)")
  })
})

describe('one short code on two domains', () => {
  it('a short URL names the link on its own domain; the code alone is ambiguous (exit 2)', async () => {
    const shared = await created<Link>([
      'links',
      'create',
      'https://example.com/shared',
      '--short-code',
      'twice',
    ])
    const domain = await created<{ id: string }>(['domains', 'add', 'brand.example.test'])
    await sqlRows(
      d.testApp,
      "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?",
      domain.id,
    )
    const branded = await created<Link>([
      'links',
      'create',
      'https://example.com/branded',
      '--short-code',
      'twice',
      '--domain',
      'brand.example.test',
    ])
    expect(branded.shortUrl).toBe('https://brand.example.test/twice')

    expect((await created<Link>(['links', 'get', shared.shortUrl])).id).toBe(shared.id)
    expect((await created<Link>(['links', 'get', branded.shortUrl])).id).toBe(branded.id)
    expect((await created<Link>(['links', 'get', 'brand.example.test/twice'])).id).toBe(branded.id)
    const alone = await run(['links', 'delete', 'twice', '--yes'])
    expect([alone.code, alone.stderr]).toEqual([
      2,
      `error: short code "twice" is on several domains (${shared.shortUrl}, ${branded.shortUrl}): give the short URL or the link id\n`,
    ])
    expect((await run(['links', 'get', shared.id])).code).toBe(0) // nothing was deleted
  })

  it('a code is found among more than 100 links and smart links that mention it', async () => {
    // The link first, then 120 newer links and 101 smart links whose destinations and titles hold
    // its code: a search of the code lists those first.
    const post = (path: string, body: unknown) =>
      fetch(`${d.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${d.ownerKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const link = await created<Link>(['links', 'create', 'https://example.com/x', '--short-code', 'promo'])
    const sl = await created<SmartLink>([
      'smart-links',
      'create',
      '--fallback',
      'https://example.com/y',
      '--short-code',
      'promo2',
    ])
    d.clock.advance(1000)
    const links = Array.from({ length: 120 }, (_, i) => ({
      destinationUrl: `https://example.com/promo2/${i}`,
      title: `promo ${i}`,
    }))
    expect((await post('/api/use/links/bulk', { links })).status).toBe(200)
    for (let i = 0; i < 101; i++)
      expect(
        (await post('/api/use/smart-links', { fallbackUrl: `https://example.com/promo2/${i}` })).status,
      ).toBe(201)
    expect((await created<Link>(['links', 'get', 'promo'])).id).toBe(link.id)
    expect((await created<SmartLink>(['smart-links', 'get', 'promo2'])).id).toBe(sl.id)
    // The code of the other kind is still named as such.
    const other = await run(['links', 'get', 'promo2'])
    expect([other.code, other.stderr]).toEqual([
      5,
      'error: no link with the id or short code "promo2": it is a smart link (linkctl smart-links)\n',
    ])
  })

  it('from a linkd without the shortCode filter (a 400 naming it), every page of the search is read', async () => {
    const link = (code: string, i: number) => ({
      id: `lnk_${i}`,
      shortCode: code,
      shortUrl: `https://s.test/${code}`,
    })
    const stub = await stubServer({
      'GET /api/use/links': (req) => {
        const q = new URL(req.url, 'http://x').searchParams
        if (q.has('shortCode'))
          return errorReply(400, 'ValidationError', 'shortCode is not a known field', '/api/use/links', [
            { field: 'shortCode', message: 'is not a known field' },
          ])
        // Page 1: 100 other links mentioning the code; page 2: the link itself.
        const p = Number(q.get('page') ?? '1')
        const data = p === 1 ? Array.from({ length: 100 }, (_, i) => link(`old${i}`, i)) : [link('old', 999)]
        return { status: 200, body: page(data, { page: p, perPage: 100, total: 101 }) }
      },
      'GET /api/use/links/lnk_999': () => ({ status: 200, body: link('old', 999) }),
    })
    try {
      const r = await cli(['links', 'get', 'old', '--json'], {
        env: { LINKCTL_URL: stub.url, LINKCTL_API_KEY: d.ownerKey },
      })
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ id: 'lnk_999', shortCode: 'old' })
      expect(
        stub.requests.map((x) => x.url.replace(/\?.*/, '') + (x.url.includes('page=2') ? ' p2' : '')),
      ).toContain('/api/use/links p2')
    } finally {
      await stub.close()
    }
  })
})
