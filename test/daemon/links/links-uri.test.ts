/**
 * Destinations are stored as valid URI references (RFC 3986): characters a URL cannot hold as
 * typed (`<>"`, `{|}^`, non-ASCII, a stray `%`) are percent-encoded as browsers do, on create,
 * PATCH, bulk and import, for every field a visitor is sent to, so `Location` is always a valid
 * URI. Anything already valid stays exactly as typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { createLink } from '../../support/links.js'
import { visit } from '../../support/redirect.js'

/** As typed → as stored (and sent in Location). */
const ENCODED: ReadonlyArray<readonly [string, string]> = [
  ['https://example.com/a<b>"c"', 'https://example.com/a%3Cb%3E%22c%22'],
  ['https://example.com/{x}|y^z`w', 'https://example.com/%7Bx%7D%7Cy%5Ez%60w'],
  [
    'https://example.com/straße?q=ü&r=<1>#teil"2"',
    'https://example.com/stra%C3%9Fe?q=%C3%BC&r=%3C1%3E#teil%222%22',
  ],
  ['https://bücher.example/x', 'https://xn--bcher-kva.example/x'],
  ['https://example.com/sale?off=50%&a[]=1', 'https://example.com/sale?off=50%25&a%5B%5D=1'],
  ['https://example.com/a\\b?c\\d', 'https://example.com/a/b?c%5Cd'],
  ['https://example.com/#a#b', 'https://example.com/#a%23b'],
]
/** Valid URI references: kept as typed (no case, port, dot-segment or trailing-slash rewriting). */
const KEPT = [
  'HTTPS://Example.COM:443/A/../b?X=%41%2f&y=a@b.c;d=(1)*!$,~',
  'https://example.com',
  'http://[2001:db8::1]:8080/p?q',
  "https://example.com/it's#frag/?x",
]

describe('destinations as URI references', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  it('a link: stored encoded on create, PATCH and bulk; Location is what is stored; valid URLs unchanged', async () => {
    for (const [typed, stored] of ENCODED) {
      const link = await createLink(t, { destinationUrl: typed })
      expect(link.destinationUrl, typed).toBe(stored)
      expect((await visit(t, link.shortCode, { query: '' })).headers.location, typed).toBe(stored)
      const patched = await t.call('PATCH', `/api/use/links/${link.id}`, {
        body: { destinationUrl: `${typed}` },
      })
      expect(patched.json().destinationUrl, typed).toBe(stored)
    }
    const bulk = await t.call('POST', '/api/use/links/bulk', {
      body: { links: ENCODED.map(([typed]) => ({ destinationUrl: typed })) },
    })
    expect(
      bulk.json().results.map((r: { link: { destinationUrl: string } }) => r.link.destinationUrl),
    ).toEqual(ENCODED.map(([, stored]) => stored))
    for (const url of KEPT) expect((await createLink(t, { destinationUrl: url })).destinationUrl).toBe(url)
  })

  it('every other field a visitor is sent to, and the import', async () => {
    const [typed, stored] = ENCODED[0]!
    const link = await createLink(t, {
      expiredUrl: typed,
      rules: [{ conditions: [{ type: 'device', value: 'mobile' }], destinationUrl: typed }],
      variants: [
        { destinationUrl: typed, weight: 50 },
        { destinationUrl: 'https://example.com/b', weight: 50 },
      ],
    })
    expect(link.expiredUrl).toBe(stored)
    expect(link.rules[0]!.destinationUrl).toBe(stored)
    expect(link.variants.map((v) => v.destinationUrl)).toEqual([stored, 'https://example.com/b'])

    const smart = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: typed, ios: { url: typed } },
    })
    expect(smart.json(), smart.body).toMatchObject({ fallbackUrl: stored, ios: { url: stored } })
    const smartPatch = await t.call('PATCH', `/api/use/smart-links/${smart.json().id}`, {
      body: { android: { url: typed }, desktop: { url: typed } },
    })
    expect(smartPatch.json()).toMatchObject({ android: { url: stored }, desktop: { url: stored } })

    const file = JSON.stringify([{ destinationUrl: typed, shortCode: 'imported-uri' }])
    const imported = await t.call('POST', '/api/use/links/import', { body: { source: 'linkd', file } })
    expect(imported.json(), imported.body).toMatchObject({ created: 1 })
    const rows = await sqlRows<{ destination_url: string }>(
      t,
      "SELECT destination_url FROM links WHERE short_code = 'imported-uri'",
    )
    expect(rows).toEqual([{ destination_url: stored }])
  })

  it("a custom domain's rootRedirectUrl, and its Location", async () => {
    const d = (await t.call('POST', '/api/domains', { body: { domain: 'go.uri.test' } })).json().id
    const [typed, stored] = ENCODED[2]!
    const res = await t.call('PATCH', `/api/domains/${d}`, { body: { rootRedirectUrl: typed } })
    expect(res.json().rootRedirectUrl).toBe(stored)
    await sqlRows(t, "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?", d)
    await t.app.linkd.services.directory.refresh()
    const root = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'go.uri.test' } })
    expect(root.statusCode).toBe(302)
    expect(root.headers.location).toBe(stored)
  })

  it('a destination too long once encoded is a 400 naming the field', async () => {
    const res = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: `https://example.com/${'ü'.repeat(1000)}` },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().details).toEqual([
      {
        field: 'destinationUrl',
        message: expect.stringMatching(/6020 characters once percent-encoded.*2048/),
      },
    ])
  })
})
