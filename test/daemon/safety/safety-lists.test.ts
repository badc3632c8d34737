/**
 * Safety lists: the three feed formats, replacement by name, the limits, the destination guard
 * at create and update (links, rules, smart-link targets), subdomain matching, tenants.
 */
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import type { SafetyList } from '../../../src/contract/safety.js'
import { createTestApp, type TestApp } from '../../support/app.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

async function upload(
  name: string,
  file: string | Buffer,
  opts: { format?: string; key?: string; headers?: Record<string, string> } = {},
) {
  const q = new URLSearchParams({ name, ...(opts.format ? { format: opts.format } : {}) })
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/safety/lists?${q}`,
    headers: {
      authorization: `Bearer ${opts.key ?? t.ownerKey}`,
      'content-type': 'text/plain',
      ...opts.headers,
    },
    payload: file,
  })
  await t.app.linkd.services.safety.settled()
  return res
}

/** Deletes every list of the organization (the limit is 5). */
async function clearLists() {
  const page = (await t.call('GET', '/api/safety/lists')).json<PageOf<SafetyList>>()
  for (const l of page.data)
    expect((await t.call('DELETE', `/api/safety/lists/${l.id}`)).statusCode).toBe(204)
  await t.app.linkd.services.safety.settled()
}

const createLink = (destinationUrl: string, extra: Record<string, unknown> = {}) =>
  t.call('POST', '/api/use/links', { body: { destinationUrl, ...extra } })

const HOSTS = `# StevenBlack-style hosts file
127.0.0.1 localhost
::1 localhost
0.0.0.0 0.0.0.0
0.0.0.0 ads.tracker.test  # inline comment
0.0.0.0 malware.test phish.test
not a hosts line
`
const DOMAINS = `# phishing.army style
evil.example
Paypa1-login.test.
*.wild.test
`
const URLHAUS = `################################################################
# abuse.ch URLhaus Database Dump (CSV - online URLs only)      #
################################################################
# id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter
"3216549","2026-11-20 10:11:12","http://dropper.test/bins/x86#frag","online","2026-11-20 10:11:12","malware_download","elf,mirai","https://urlhaus.abuse.ch/url/3216549/","anonymous"
"3216550","2026-11-20 10:11:13","https://203.0.113.9:8080/a.sh","online","2026-11-20 10:11:13","malware_download","sh","https://urlhaus.abuse.ch/url/3216550/","anonymous"
`

describe('safety lists', () => {
  it('reads the three formats, guessing each from its first line', async () => {
    const hosts = await upload('stevenblack', HOSTS)
    expect(hosts.statusCode, hosts.body).toBe(201)
    expect(hosts.json()).toMatchObject({ name: 'stevenblack', format: 'hosts', entries: 3, skipped: 1 })
    expect(hosts.json<SafetyList>().id).toMatch(/^sfl_/)

    const domains = await upload('army', DOMAINS)
    expect(domains.json()).toMatchObject({ format: 'domains', entries: 3, skipped: 0 })

    const urlhaus = await upload('urlhaus', URLHAUS)
    expect(urlhaus.json()).toMatchObject({ format: 'urlhaus', entries: 2, skipped: 0 })

    for (const [url, field] of [
      ['https://ads.tracker.test/x', 'hosts'],
      ['https://phish.test/', 'hosts (second name of a line)'],
      ['https://evil.example/login', 'domains'],
      ['https://paypa1-login.test/', 'domains (case, trailing dot)'],
      ['https://a.wild.test/', 'domains (a *. entry)'],
      ['http://dropper.test/other', 'urlhaus (the host of a URL)'],
      ['http://203.0.113.9/', 'urlhaus (an address)'],
    ] as const) {
      const res = await createLink(url)
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400)
      expect(res.json().error).toBe('DestinationBlocked')
    }
    // localhost lines of a hosts file list nothing; other hosts pass.
    expect((await createLink('https://tracker.test/')).statusCode).toBe(201)
  })

  it('URLhaus CSV with its header as a plain first line (saved from a spreadsheet) is still URLhaus', async () => {
    const csv =
      'id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter\n' +
      '3216551,2026-11-20 10:11:14,http://header-first.test/x.exe,online,,malware_download,exe,https://urlhaus.abuse.ch/url/3216551/,anonymous\n'
    const res = await upload('urlhaus-header', csv)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ format: 'urlhaus', entries: 1, skipped: 0 })
    expect((await createLink('https://header-first.test/')).json().error).toBe('DestinationBlocked')
    await clearLists()
  })

  it('a one-a-line feed of URLs (OpenPhish) lists their hosts; a bare IPv6 address lists itself', async () => {
    const feed =
      'https://phish-login.test/secure/login.php\n' + 'http://Dropper.Test:8080/a?b=1#c\n' + '2001:db8::7\n'
    const res = await upload('openphish', feed)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ format: 'domains', entries: 3, skipped: 0 })
    for (const url of ['https://phish-login.test/', 'https://dropper.test/other', 'http://[2001:db8::7]/'])
      expect((await createLink(url)).json().error, url).toBe('DestinationBlocked')
    // The scheme is not a host: a destination under a TLD-like "https" stays allowed.
    expect((await createLink('https://www.https/')).statusCode).toBe(201)
    await clearLists()
  })

  it('an explicit format wins over the guess', async () => {
    const res = await upload('forced', '0.0.0.0 forced.test\n', { format: 'domains' })
    // Read as one domain a line, "0.0.0.0" is the entry (and names no host worth listing).
    expect(res.statusCode).toBe(400)
    expect(res.json().details).toEqual([{ field: 'body', message: 'no host found' }])
  })

  it('blocks a host and its subdomains, not a longer name ending the same way', async () => {
    await upload('parents', 'example.org\n')
    const sub = await createLink('https://evil.deep.example.org/path')
    expect(sub.statusCode).toBe(400)
    expect(sub.json()).toMatchObject({
      error: 'DestinationBlocked',
      details: [
        {
          field: 'destinationUrl',
          message: 'evil.deep.example.org is under example.org, on the safety list "parents"',
        },
      ],
    })
    expect((await createLink('https://example.org/')).statusCode).toBe(400)
    expect((await createLink('https://notexample.org/')).statusCode).toBe(201)
    expect((await createLink('https://example.org.evil.test/')).statusCode).toBe(201)
  })

  it('checks every destination of a write: rules, expiredUrl, updates, smart-link targets, bulk items', async () => {
    await upload('guard', 'blocked.test\n')
    const rules = await createLink('https://fine.test/', {
      expiredUrl: 'https://blocked.test/expired',
      rules: [
        { conditions: [{ type: 'device', value: 'mobile' }], destinationUrl: 'https://m.blocked.test/' },
      ],
    })
    expect(rules.statusCode).toBe(400)
    expect(rules.json().details.map((d: { field: string }) => d.field)).toEqual([
      'expiredUrl',
      'rules.0.destinationUrl',
    ])

    const ok = await createLink('https://fine.test/')
    const id = ok.json<{ id: string }>().id
    const patch = await t.call('PATCH', `/api/use/links/${id}`, {
      body: { destinationUrl: 'https://blocked.test/' },
    })
    expect(patch.statusCode).toBe(400)
    expect(patch.json().error).toBe('DestinationBlocked')
    expect(
      (await t.call('PATCH', `/api/use/links/${id}`, { body: { title: 'still fine' } })).statusCode,
    ).toBe(200)

    const smart = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://fine.test/', ios: { url: 'https://apps.blocked.test/app' } },
    })
    expect(smart.statusCode).toBe(400)
    expect(smart.json().details).toEqual([
      { field: 'ios.url', message: 'apps.blocked.test is under blocked.test, on the safety list "guard"' },
    ])
    const sml = await t.call('POST', '/api/use/smart-links', { body: { fallbackUrl: 'https://fine.test/' } })
    const smlId = sml.json<{ id: string }>().id
    const smartPatch = await t.call('PATCH', `/api/use/smart-links/${smlId}`, {
      body: { fallbackUrl: 'https://blocked.test/' },
    })
    expect(smartPatch.json().details).toEqual([
      { field: 'fallbackUrl', message: 'blocked.test is on the safety list "guard"' },
    ])

    const bulk = await t.call('POST', '/api/use/links/bulk', {
      body: {
        links: [{ destinationUrl: 'https://fine.test/1' }, { destinationUrl: 'https://blocked.test/2' }],
      },
    })
    expect(bulk.statusCode, bulk.body).toBeLessThan(300)
    expect(JSON.stringify(bulk.json())).toContain('DestinationBlocked')
  })

  it('every write that sets where a visitor is sent is checked: each field, create, PATCH, import, a root redirect', async () => {
    await upload('paths', 'listed.test\n')
    const bad = 'https://www.listed.test/x'
    const ok = 'https://fine.test/'
    const rule = (url: string) => [{ conditions: [{ type: 'device', value: 'mobile' }], destinationUrl: url }]
    const split = (url: string) => [
      { destinationUrl: url, weight: 50 },
      { destinationUrl: 'https://fine.test/b', weight: 50 },
    ]
    const link = (await createLink(ok)).json<{ id: string }>().id
    const smart = (
      await t.call('POST', '/api/use/smart-links', { body: { fallbackUrl: ok, ios: { url: ok } } })
    ).json<{ id: string }>().id
    const domain = (await t.call('POST', '/api/domains', { body: { domain: 'go.paths.test' } })).json<{
      id: string
    }>().id
    const linkFields = [
      [{ destinationUrl: bad }, 'destinationUrl'],
      [{ expiredUrl: bad }, 'expiredUrl'],
      [{ rules: rule(bad) }, 'rules.0.destinationUrl'],
      [{ variants: split(bad) }, 'variants.0.destinationUrl'],
    ] as const
    const smartFields = [
      [{ fallbackUrl: bad }, 'fallbackUrl'],
      [{ ios: { url: bad } }, 'ios.url'],
      [{ android: { url: bad } }, 'android.url'],
      [{ desktop: { url: bad } }, 'desktop.url'],
      [{ variants: split(bad) }, 'variants.0.destinationUrl'],
    ] as const
    const writes: ReadonlyArray<readonly [string, () => ReturnType<TestApp['call']>, string]> = [
      ...linkFields.flatMap(([body, field]) => [
        [`link create ${field}`, () => createLink(ok, body), field] as const,
        [`link PATCH ${field}`, () => t.call('PATCH', `/api/use/links/${link}`, { body }), field] as const,
      ]),
      ...smartFields.flatMap(([body, field]) => [
        [
          `smart link create ${field}`,
          () => t.call('POST', '/api/use/smart-links', { body: { fallbackUrl: ok, ...body } }),
          field,
        ] as const,
        [
          `smart link PATCH ${field}`,
          () => t.call('PATCH', `/api/use/smart-links/${smart}`, { body }),
          field,
        ] as const,
      ]),
      [
        'custom domain PATCH rootRedirectUrl',
        () => t.call('PATCH', `/api/domains/${domain}`, { body: { rootRedirectUrl: bad } }),
        'rootRedirectUrl',
      ],
    ]
    for (const [what, write, field] of writes) {
      const res = await write()
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400)
      expect(res.json(), what).toMatchObject({ error: 'DestinationBlocked', details: [{ field }] })
    }
    for (const [body, field] of linkFields) {
      const file = JSON.stringify([{ destinationUrl: ok, ...body }])
      const res = await t.call('POST', '/api/use/links/import', { body: { source: 'linkd', file } })
      expect(JSON.stringify(res.json()), `import ${field}`).toContain('DestinationBlocked')
      expect(res.json(), `import ${field}`).toMatchObject({ created: 0, failed: 1 })
    }
    // Nothing was written.
    expect((await t.call('GET', `/api/use/links/${link}`)).json()).toMatchObject({
      destinationUrl: ok,
      expiredUrl: null,
      rules: [],
      variants: [],
    })
    expect((await t.call('GET', `/api/use/smart-links/${smart}`)).json()).toMatchObject({
      fallbackUrl: ok,
      ios: { url: ok },
      android: null,
      variants: [],
    })
    expect((await t.call('GET', `/api/domains/${domain}`)).json().rootRedirectUrl).toBeNull()
    await t.call('DELETE', `/api/domains/${domain}`)
  })

  it('an upload under an existing name replaces that list, keeping its id', async () => {
    await clearLists()
    const first = (await upload('rotating', 'old.test\n')).json<SafetyList>()
    expect((await createLink('https://old.test/')).statusCode).toBe(400)
    t.clock.advance(60_000)
    const second = await upload('rotating', gzipSync('new.test\nnewer.test\n'), {
      headers: { 'content-encoding': 'gzip' },
    })
    expect(second.statusCode, second.body).toBe(201)
    expect(second.json()).toMatchObject({ id: first.id, entries: 2, createdAt: first.createdAt })
    expect(second.json<SafetyList>().updatedAt).not.toBe(first.updatedAt)
    expect((await createLink('https://old.test/')).statusCode).toBe(201)
    expect((await createLink('https://newer.test/')).statusCode).toBe(400)
    const got = await t.call('GET', `/api/safety/lists/${first.id}`)
    expect(got.json()).toMatchObject({ entries: 2 })
    // The replaced upload's hosts are gone from the table, not only hidden.
    const rows = await t.db.kysely
      .selectFrom('safety_list_hosts')
      .select('host')
      .where('host', '=', 'old.test')
      .execute()
    expect(rows).toEqual([])
  })

  it('lists, gets and deletes; a deleted list blocks nothing', async () => {
    await upload('guard', 'blocked.test\n')
    const page = await t.call('GET', '/api/safety/lists')
    expect(page.statusCode).toBe(200)
    const names = page.json<PageOf<SafetyList>>().data.map((l) => l.name)
    expect(names).toEqual([...names].sort())
    const guard = page.json<PageOf<SafetyList>>().data.find((l) => l.name === 'guard')!
    const del = await t.call('DELETE', `/api/safety/lists/${guard.id}`)
    expect(del.statusCode).toBe(204)
    await t.app.linkd.services.safety.settled()
    expect((await t.call('GET', `/api/safety/lists/${guard.id}`)).statusCode).toBe(404)
    expect((await t.call('DELETE', `/api/safety/lists/${guard.id}`)).statusCode).toBe(404)
    expect((await createLink('https://blocked.test/')).statusCode).toBe(201)
  })

  it('refuses a sixth list, an empty file, a missing body, bad gzip, and a file over the byte limit', async () => {
    await clearLists()
    for (let i = 0; i < 5; i++) expect((await upload(`fill-${i}`, `fill${i}.test\n`)).statusCode).toBe(201)
    const sixth = await upload('sixth', 'six.test\n')
    expect(sixth.statusCode).toBe(409)
    expect(sixth.json().message).toMatch(/at most 5 safety lists/)
    // Replacing one of the five is still allowed.
    const name = (await t.call('GET', '/api/safety/lists')).json<PageOf<SafetyList>>().data[0]!.name
    expect((await upload(name, 'again.test\n')).statusCode).toBe(201)

    const empty = await upload(name, '# only comments\n\n')
    expect(empty.statusCode).toBe(400)
    expect(empty.json().message).toMatch(/no host/)
    const none = await t.call('POST', `/api/safety/lists?name=${name}`)
    expect(none.statusCode).toBe(400)
    const badGzip = await upload(name, 'not gzip at all', { headers: { 'content-encoding': 'gzip' } })
    expect(badGzip.statusCode).toBe(400)
    const declared = await upload(name, 'x.test\n', {
      headers: { 'content-length': String(300 * 1024 * 1024) },
    })
    expect(declared.statusCode).toBe(413)
    const badName = await upload('no spaces', 'x.test\n')
    expect(badName.statusCode).toBe(400)
    // The failed uploads left the list as it was.
    expect((await createLink('https://again.test/')).statusCode).toBe(400)
  })

  it('scopes: safety:read reads, safety:write uploads; another organization sees nothing', async () => {
    const reader = await t.createKey({ preset: 'read-only' })
    expect((await t.call('GET', '/api/safety/lists', { key: reader.key })).statusCode).toBe(200)
    expect((await upload('nope', 'x.test\n', { key: reader.key })).statusCode).toBe(403)

    const other = await t.createOrg('other')
    const mine = (await t.call('GET', '/api/safety/lists')).json<PageOf<SafetyList>>().data[0]!
    expect((await t.call('GET', `/api/safety/lists/${mine.id}`, { key: other.ownerKey })).statusCode).toBe(
      404,
    )
    expect((await t.call('DELETE', `/api/safety/lists/${mine.id}`, { key: other.ownerKey })).statusCode).toBe(
      404,
    )
    expect((await t.call('GET', '/api/safety/lists', { key: other.ownerKey })).json().data).toEqual([])
    // The first organization's lists do not block the other's links.
    const res = await t.call('POST', '/api/use/links', {
      key: other.ownerKey,
      body: { destinationUrl: 'https://again.test/' },
    })
    expect(res.statusCode).toBe(201)
  })
})
