/** POST /api/use/links/import: each product's real export file, bad files, taken codes, dry runs, domains. */
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import type { ImportLinksResult, Link } from '../../../src/contract/links.js'
import { expectError } from '../../support/responses.js'

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/import/${name}`, import.meta.url), 'utf8')

describe('links API: import from other shorteners', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp({ publicUrl: 'https://sho.rt' })
  })
  afterEach(() => t.close())

  const post = (body: Record<string, unknown>) => t.call('POST', '/api/use/links/import', { body })
  const run = async (body: Record<string, unknown>) => {
    const res = await post(body)
    expect(res.statusCode, res.body.slice(0, 800)).toBe(200)
    return res.json<ImportLinksResult>()
  }
  const links = async () =>
    (await t.call('GET', '/api/use/links?limit=100')).json<{ data: Link[]; total: number }>()
  const byCode = async () => new Map((await links()).data.map((l) => [l.shortCode, l]))
  /** go.acme.example, verified, of the test organization. */
  const verifiedDomain = async () => {
    const id = (await t.call('POST', '/api/domains', { body: { domain: 'go.acme.example' } })).json<{
      id: string
    }>().id
    await sqlRows(t, "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?", id)
    await t.app.linkd.services.directory.refresh()
    return id
  }

  it("Bitly's links CSV: codes from the Bitlinks (a custom back-half wins), titles, tags, creation dates", async () => {
    const r = await run({ source: 'bitly', file: fixture('bitly.csv') })
    expect(r).toMatchObject({ source: 'bitly', dryRun: false, created: 3, wouldCreate: 0, failed: 0 })
    expect(r.results.map((x) => [x.line, x.status, x.shortCode])).toEqual([
      [2, 'created', '3xYzAbc'],
      [3, 'created', 'launch'],
      [4, 'created', '4Qrs9tu'],
    ])
    const got = await byCode()
    expect(got.get('3xYzAbc')).toMatchObject({
      destinationUrl: 'https://example.com/spring-sale?utm_source=bitly',
      title: 'Spring sale',
      tags: ['promo', 'spring'],
      createdAt: '2024-03-01T10:15:00.000Z',
      // bit.ly is not a domain of this organization: the link goes where new links go.
      shortUrl: 'https://sho.rt/3xYzAbc',
    })
    // acme.co is not a custom domain here either (not added): the shared domain.
    expect(got.get('launch')).toMatchObject({ title: 'Launch day', shortUrl: 'https://sho.rt/launch' })
    expect(got.get('4Qrs9tu')).toMatchObject({ title: null, tags: [] })
  })

  it("Shlink's CSV: a row on a verified custom domain of the organization goes on it", async () => {
    const domainId = await verifiedDomain()
    const r = await run({ source: 'shlink', file: fixture('shlink.csv') })
    expect(r).toMatchObject({ created: 3, failed: 0 })
    const got = await byCode()
    expect(got.get('blog-2024')).toMatchObject({
      destinationUrl: 'https://example.com/blog/2024',
      title: 'Our 2024 plans',
      tags: ['blog', 'plans'],
      createdAt: '2024-02-10T09:00:00.000Z',
      customDomainId: null,
    })
    expect(got.get('pricing')).toMatchObject({
      title: 'Pricing, plans and FAQ',
      customDomainId: domainId,
      shortUrl: 'https://go.acme.example/pricing',
    })
  })

  it("YOURLS' CSV: keywords, titles and timestamps (read as UTC); no tags", async () => {
    const r = await run({ source: 'yourls', file: fixture('yourls.csv') })
    expect(r).toMatchObject({ created: 3, failed: 0 })
    const got = await byCode()
    expect(got.get('ozh')).toMatchObject({
      destinationUrl: 'https://ozh.org/',
      title: 'Ozh RICHARD',
      createdAt: '2015-04-10T12:34:56.000Z',
      tags: [],
    })
    expect(got.get('wiki')?.title).toBe('YOURLS wiki, the manual')
  })

  it("YOURLS' one- and two-character keywords keep their short URLs; a new link's code still needs 3", async () => {
    const csv =
      'keyword,url,title,timestamp\n' +
      'a,https://example.com/a,One,2012-01-01 00:00:00\n' +
      'x9,https://example.com/x9,Two,2012-01-02 00:00:00\n' +
      'b!,https://example.com/bad,Bad,2012-01-03 00:00:00\n'
    const r = await run({ source: 'yourls', file: csv })
    expect(r.results.map((x) => [x.line, x.status, x.shortCode])).toEqual([
      [2, 'created', 'a'],
      [3, 'created', 'x9'],
      [4, 'failed', 'b!'],
    ])
    expect(r.results[2]!.error!.message).toMatch(/customSlug may only contain letters, digits, hyphens/)
    const visit = await t.app.inject({ method: 'GET', url: '/x9', headers: { host: 'sho.rt' } })
    expect(visit.statusCode).toBe(302)
    expect(visit.headers.location).toBe('https://example.com/x9')
    const create = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/new', customSlug: 'zz' },
    })
    expectError(create, 400, 'ValidationError')
  })

  it('a page title longer than 255 characters, or on several lines, is cut and joined: the link is imported', async () => {
    const long = `${'Très long titre '.repeat(20)}😀 end`
    const csv = `keyword,url,title\nlongt,https://example.com/long,"${long}"\ntwol,https://example.com/two,"Line one\r\n\tline two"\n`
    const r = await run({ source: 'yourls', file: csv })
    expect(r).toMatchObject({ created: 2, failed: 0 })
    const got = await byCode()
    const title = got.get('longt')!.title!
    expect([...title]).toHaveLength(255)
    expect(title.endsWith('…')).toBe(true)
    expect(long.startsWith(title.slice(0, -1))).toBe(true)
    expect(got.get('twol')!.title).toBe('Line one line two')
  })

  it("Kutt's links JSON: a password-protected link fails alone (its password cannot be exported)", async () => {
    const domainId = await verifiedDomain()
    const r = await run({ source: 'kutt', file: fixture('kutt.json') })
    expect(r).toMatchObject({ created: 2, failed: 1 })
    expect(r.results[2]).toMatchObject({ line: 3, status: 'failed', error: { error: 'ValidationError' } })
    expect(r.results[2]!.error!.message).toMatch(/password-protected in Kutt/)
    const got = await byCode()
    expect([...got.keys()].sort()).toEqual(['api-docs', 'kutt-home'])
    expect(got.get('kutt-home')).toMatchObject({
      title: 'Kutt home page',
      createdAt: '2024-06-01T12:00:00.000Z',
    })
    expect(got.get('api-docs')).toMatchObject({ customDomainId: domainId, title: null })
  })

  it('a short code already taken fails its row only; the other rows are created', async () => {
    await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/mine', customSlug: 'careers' },
    })
    const r = await run({ source: 'shlink', file: fixture('shlink.csv') })
    expect(r).toMatchObject({ created: 2, failed: 1 })
    expect(r.results[1]).toMatchObject({
      line: 3,
      status: 'failed',
      shortCode: 'careers',
      error: { error: 'Conflict', message: 'short code "careers" is already in use on this domain' },
    })
    expect((await byCode()).get('careers')?.destinationUrl).toBe('https://example.com/mine')
    expect((await links()).total).toBe(3)
  })

  it('a dry run answers what would happen, taken codes included, and writes nothing', async () => {
    await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/x', customSlug: 'wiki' },
    })
    const r = await run({ source: 'yourls', file: fixture('yourls.csv'), dryRun: true })
    expect(r).toMatchObject({ dryRun: true, created: 0, wouldCreate: 2, failed: 1 })
    expect(r.results.map((x) => [x.line, x.status])).toEqual([
      [2, 'wouldCreate'],
      [3, 'wouldCreate'],
      [4, 'failed'],
    ])
    expect(r.results.some((x) => x.link)).toBe(false)
    expect((await links()).total).toBe(1)
  })

  it("another organization's verified domain is not yours: the row goes where new links go", async () => {
    const other = await t.createOrg('other')
    const d = await t.call('POST', '/api/domains', {
      body: { domain: 'go.acme.example' },
      key: other.ownerKey,
    })
    await sqlRows(
      t,
      "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?",
      d.json<{ id: string }>().id,
    )
    await t.app.linkd.services.directory.refresh()
    const r = await run({ source: 'shlink', file: fixture('shlink.csv') })
    expect(r.created).toBe(3)
    expect((await byCode()).get('pricing')).toMatchObject({
      customDomainId: null,
      shortUrl: 'https://sho.rt/pricing',
    })
  })

  it('linkd is the default source: its export keeps the creation date', async () => {
    const csv =
      'destinationUrl,title,customSlug,tags,expiresAt,id,shortUrl,clicks,status,createdAt\n' +
      'https://example.com/a,A,kept-date,x;y,,lnk_1,https://elsewhere.example/kept-date,4,active,2025-01-02T03:04:05.000Z\n'
    const r = await run({ file: csv })
    expect(r).toMatchObject({ source: 'linkd', created: 1 })
    expect((await byCode()).get('kept-date')).toMatchObject({
      tags: ['x', 'y'],
      createdAt: '2025-01-02T03:04:05.000Z',
    })
  })

  it("linkd's CSV header, like the others', ignores case, spaces, _ and - (a spreadsheet's 'Destination URL')", async () => {
    const csv =
      'Destination URL,custom_slug,TITLE,Expires-At\n' +
      'https://example.com/sheet,from-sheet,From a sheet,2099-01-01T00:00:00Z\n'
    const r = await run({ file: csv })
    expect(r).toMatchObject({ source: 'linkd', created: 1, failed: 0 })
    expect((await byCode()).get('from-sheet')).toMatchObject({
      destinationUrl: 'https://example.com/sheet',
      title: 'From a sheet',
      expiresAt: '2099-01-01T00:00:00.000Z',
    })
  })

  it("linkd's export of a disabled link imports it disabled (CSV and JSON), not live again", async () => {
    const csv =
      'destinationUrl,customSlug,status,shortUrl,createdAt\n' +
      'https://example.com/off,off-csv,inactive,https://x.example/off-csv,2025-01-02T03:04:05.000Z\n' +
      'https://example.com/on,on-csv,active,,\n'
    expect(await run({ file: csv })).toMatchObject({ created: 2 })
    const json = JSON.stringify([
      { shortCode: 'off-json', destinationUrl: 'https://example.com/o', status: 'inactive' },
    ])
    expect(await run({ file: json })).toMatchObject({ created: 1 })
    const got = await byCode()
    expect([got.get('off-csv')?.status, got.get('on-csv')?.status, got.get('off-json')?.status]).toEqual([
      'inactive',
      'active',
      'inactive',
    ])
    const visit = await t.app.inject({ method: 'GET', url: '/off-json', headers: { host: 'sho.rt' } })
    expect(visit.statusCode).toBe(404)
  })

  it("linkd's JSON export (an array of links) imports; a broken array is a 400", async () => {
    const file = JSON.stringify([
      {
        shortCode: 'arr-one',
        destinationUrl: 'https://example.com/1',
        createdAt: '2025-01-02T03:04:05.000Z',
      },
      { shortCode: 'arr-two', destinationUrl: 'ftp://example.com/2', variants: [] },
    ])
    const r = await run({ source: 'linkd', file })
    expect(r.results.map((x) => [x.line, x.status, x.shortCode])).toEqual([
      [1, 'created', 'arr-one'],
      [2, 'failed', 'arr-two'],
    ])
    expect((await byCode()).get('arr-one')).toMatchObject({ createdAt: '2025-01-02T03:04:05.000Z' })
    // A link flagged by a safety list exports its flag, which says where it was, not what to create.
    const flag = { host: 'x.example', list: 'feed', flaggedAt: '2025-01-02T03:04:05.000Z' }
    const flagged = await run({
      file: JSON.stringify([
        { shortCode: 'arr-flag', destinationUrl: 'https://example.com/f', flagged: flag },
      ]),
    })
    expect(flagged.results.map((x) => x.status)).toEqual(['created'])
    const broken = expectError(
      await post({ file: '[{"destinationUrl": "https://example.com/3"' }),
      400,
      'ValidationError',
    )
    expect(broken.message).toMatch(/not a JSON array of links/)
  })

  it('a file of another format, or not UTF-8, is a 400 that says why; nothing is written', async () => {
    const wrong = expectError(
      await post({ source: 'bitly', file: fixture('kutt.json') }),
      400,
      'ValidationError',
    )
    expect(wrong.message).toMatch(/not Bitly's export: the header has no destination column/)
    expect(wrong.details).toEqual([{ field: 'file', message: expect.stringMatching(/long_?url|longurl/) }])
    const json = expectError(
      await post({ source: 'kutt', file: fixture('bitly.csv') }),
      400,
      'ValidationError',
    )
    expect(json.message).toMatch(/not Kutt's links JSON/)
    const utf16 = Buffer.from(`\ufeff${fixture('yourls.csv')}`, 'utf16le').toString('utf8')
    const bad = expectError(await post({ source: 'yourls', file: utf16 }), 400, 'ValidationError')
    expect(bad.message).toMatch(/NUL character/)
    expectError(await post({ source: 'tinyurl', file: 'x' }), 400, 'ValidationError')
    expect((await links()).total).toBe(0)
  })

  it('per-row errors: Latin-1 bytes, a spreadsheet formula as title, wrong field count, a bad date', async () => {
    const latin1 = Buffer.from('Caf\xe9', 'latin1').toString('utf8')
    const csv =
      'keyword,url,title,timestamp\n' +
      `good,https://example.com/ok,Fine,2020-01-01 00:00:00\n` +
      `enc,https://example.com/enc,${latin1},2020-01-01 00:00:00\n` +
      `formula,https://example.com/f,"=HYPERLINK(""https://evil.example"",""click"")",2020-01-01 00:00:00\n` +
      `short,https://example.com/s\n` +
      `date,https://example.com/d,Dated,yesterday\n`
    const r = await run({ source: 'yourls', file: csv })
    expect(r).toMatchObject({ created: 1, failed: 4 })
    expect(r.results.map((x) => [x.line, x.status, x.error?.error])).toEqual([
      [2, 'created', undefined],
      [3, 'failed', 'ParseError'],
      [4, 'failed', 'ValidationError'],
      [5, 'failed', 'ParseError'],
      [6, 'failed', 'ValidationError'],
    ])
    expect(r.results[1]!.error!.message).toMatch(/not UTF-8 .*save the file as UTF-8/)
    expect(r.results[2]!.error!.message).toMatch(/^title: is a spreadsheet formula \(=HYPERLINK/)
    expect(r.results[3]!.error!.message).toBe('expected 4 fields like the header, found 2')
    expect(r.results[4]!.error!.message).toMatch(/^createdAt: "yesterday" is not a date/)
    expect([...(await byCode()).keys()]).toEqual(['good'])
  })

  it('a file over 10 MB is a 413 that says the limit and how to go on; a 50 MB body too', async () => {
    const row = 'https://example.com/some/long/path/to/a/page,Title of a page\n'
    const eleven = `url,title\n${row.repeat(Math.ceil((11 * 1024 * 1024) / row.length))}`
    const over = expectError(await post({ source: 'yourls', file: eleven }), 413, 'PayloadTooLarge')
    expect(over.message).toMatch(
      /^the file is 11 MB; an import takes at most 10 MB: split it, or use linkctl links import/,
    )
    const fifty = `url,title\n${row.repeat(Math.ceil((50 * 1024 * 1024) / row.length))}`
    const huge = expectError(await post({ source: 'yourls', file: fifty }), 413, 'PayloadTooLarge')
    expect(huge.message).toMatch(/^request body is too large: this endpoint takes at most 20(\.\d)? MB$/)
    expect((await links()).total).toBe(0)
  })

  it('more than 10,000 rows is a 413; the links:write scope is needed', async () => {
    const rows = `url\n${'https://example.com/x\n'.repeat(10_001)}`
    const many = expectError(await post({ source: 'yourls', file: rows }), 413, 'PayloadTooLarge')
    expect(many.message).toMatch(/more than 10,000 rows/)
    const { key } = await t.createKey({ preset: 'read-only' })
    const res = await t.call('POST', '/api/use/links/import', {
      body: { source: 'yourls', file: fixture('yourls.csv') },
      key,
    })
    expectError(res, 403, 'Forbidden')
    expect((await links()).total).toBe(0)
  })
})
