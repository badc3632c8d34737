/**
 * Destination URLs a short link must not have: user-info, which disguises the
 * real host (`http://paypal.com@evil.example` opens evil.example), this service's own short
 * domains, where a short link to a short link loops or chains, and loopback hosts. Create, PATCH
 * and bulk alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BulkCreateResult } from '../../../src/contract/links.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createLink } from '../../support/links.js'
import { expectError } from '../../support/responses.js'

describe('destination URLs', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://api.sho.rt', shortDomain: 'sho.rt' })
  })
  afterAll(() => t.close())

  /** Create, PATCH and bulk all refuse `url` with a message matching `re`. */
  async function refused(url: string, re: RegExp) {
    const created = await t.call('POST', '/api/use/links', { body: { destinationUrl: url } })
    const body = expectError(created, 400, 'ValidationError', '/api/use/links')
    expect(body.details, url).toEqual([{ field: 'destinationUrl', message: expect.stringMatching(re) }])
    const link = await createLink(t)
    const patched = await t.call('PATCH', `/api/use/links/${link.id}`, { body: { destinationUrl: url } })
    expect(expectError(patched, 400, 'ValidationError').details![0]!.field).toBe('destinationUrl')
    const bulk = await t.call('POST', '/api/use/links/bulk', { body: { links: [{ destinationUrl: url }] } })
    expect(bulk.json<BulkCreateResult>().results[0], url).toMatchObject({
      status: 'failed',
      error: { error: 'ValidationError', details: [{ field: 'destinationUrl' }] },
    })
  }
  const accepted = async (url: string) => {
    const res = await t.call('POST', '/api/use/links', { body: { destinationUrl: url } })
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201)
    // Stored as given.
    expect(res.json<{ destinationUrl: string }>().destinationUrl).toBe(url)
  }

  it('user-info (user, password or a bare @ before the host) is refused', async () => {
    for (const url of [
      'http://paypal.com@evil.example',
      'https://paypal.com@evil.example/login',
      'https://user:pass@example.com/',
      'https://user@example.com',
      'https://:pw@example.com',
      'https://@example.com/',
      'HTTPS://a%40b@example.com',
    ])
      await refused(url, /user name or password/)
    // An @ after the host is ordinary.
    await accepted('https://example.com/@someone')
    await accepted('https://example.com/?to=a@b.example#x@y')
  })

  it('the shared short domain and the public URL host are refused, in any spelling', async () => {
    for (const url of [
      'https://sho.rt/abc',
      'http://SHO.RT/abc',
      'https://sho.rt./abc',
      'https://sho.rt:443/abc',
      'https://api.sho.rt/api/use',
    ])
      await refused(url, /short domain of this service.*loop/)
    await accepted('https://www.sho.rt/abc')
    await accepted('https://sho.rt.example/abc')
  })

  it('every custom domain known to linkd is refused, whatever its organization or status', async () => {
    const mine = await t.call('POST', '/api/domains', { body: { domain: 'go.example.test' } })
    expect(mine.statusCode, mine.body).toBe(201)
    const other = await t.createOrg('other')
    const theirs = await t.call('POST', '/api/domains', {
      body: { domain: 'to.other.test' },
      key: other.ownerKey,
    })
    expect(theirs.statusCode, theirs.body).toBe(201)
    await refused('https://go.example.test/x', /go\.example\.test, a short domain of this service/)
    await refused('http://To.Other.Test:8443/x', /to\.other\.test/)
    await accepted('https://example.test/x')
    // Deleted: a destination again.
    expect((await t.call('DELETE', `/api/domains/${mine.json().id}`)).statusCode).toBe(204)
    await accepted('https://go.example.test/x')
  })

  it("a custom domain's rootRedirectUrl: never a short domain of this service either (a chain or a loop)", async () => {
    const a = (await t.call('POST', '/api/domains', { body: { domain: 'a.root.test' } })).json().id
    const b = await t.call('POST', '/api/domains', { body: { domain: 'b.root.test' } })
    expect(b.statusCode, b.body).toBe(201)
    for (const url of ['https://sho.rt/abc', 'https://api.sho.rt/', 'https://b.root.test/']) {
      const res = await t.call('PATCH', `/api/domains/${a}`, { body: { rootRedirectUrl: url } })
      const body = expectError(res, 400, 'ValidationError')
      expect(body.details, url).toEqual([
        { field: 'rootRedirectUrl', message: expect.stringMatching(/short domain of this service/) },
      ])
    }
    const ok = await t.call('PATCH', `/api/domains/${a}`, {
      body: { rootRedirectUrl: 'https://example.test/' },
    })
    expect(ok.json().rootRedirectUrl).toBe('https://example.test/')
  })
})

describe('a shared short domain with a port', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'http://lnk.example:8080' })
  })
  afterAll(() => t.close())

  it('only that port is this service; other ports of the same host are other services', async () => {
    const res = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'http://lnk.example:8080/x' },
    })
    expect(expectError(res, 400, 'ValidationError').details![0]!.field).toBe('destinationUrl')
    for (const url of ['http://lnk.example:3000/x', 'http://lnk.example/x', 'https://lnk.example/x']) {
      const ok = await t.call('POST', '/api/use/links', { body: { destinationUrl: url } })
      expect(ok.statusCode, url).toBe(201)
      expect(ok.json<{ destinationUrl: string }>().destinationUrl).toBe(url)
    }
  })
})

/**
 * Loopback and unspecified hosts: a visitor's browser sent there opens the visitor's own machine
 * (or the daemon's, when they share it). Refused wherever a visitor is sent or a crawler fetches.
 */
describe('loopback destinations', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://sho.rt' })
  })
  afterAll(() => t.close())

  const LOOPBACK = [
    'http://localhost:8080/admin',
    'http://LOCALHOST./x',
    'https://app.localhost/x',
    'http://127.0.0.1/x',
    'http://127.1:3000/x',
    'http://2130706433/x',
    'http://0x7f.0.0.1/x',
    'http://127.255.255.254/x',
    'http://[::1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://0.0.0.0:8080/x',
    'http://[::]/x',
  ]
  const fieldsOf = (res: Awaited<ReturnType<TestApp['call']>>) => {
    const body = expectError(res, 400, 'ValidationError')
    for (const d of body.details ?? []) expect(d.message).toMatch(/loopback host/)
    return (body.details ?? []).map((d) => d.field)
  }

  it('a link: destinationUrl, a rule, expiredUrl and og.imageUrl; create, PATCH and bulk', async () => {
    const link = await createLink(t)
    for (const url of LOOPBACK) {
      for (const [body, field] of [
        [{ destinationUrl: url }, 'destinationUrl'],
        [
          {
            destinationUrl: 'https://example.com/',
            rules: [{ conditions: [{ type: 'device', value: 'mobile' }], destinationUrl: url }],
          },
          'rules.0.destinationUrl',
        ],
        [{ destinationUrl: 'https://example.com/', expiredUrl: url }, 'expiredUrl'],
        [{ destinationUrl: 'https://example.com/', og: { title: 'x', imageUrl: url } }, 'og.imageUrl'],
      ] as const) {
        expect(fieldsOf(await t.call('POST', '/api/use/links', { body })), url).toEqual([field])
        expect(fieldsOf(await t.call('PATCH', `/api/use/links/${link.id}`, { body })), url).toEqual([field])
      }
      const bulk = await t.call('POST', '/api/use/links/bulk', { body: { links: [{ destinationUrl: url }] } })
      expect(bulk.json<BulkCreateResult>().results[0], url).toMatchObject({
        status: 'failed',
        error: { error: 'ValidationError', details: [{ field: 'destinationUrl' }] },
      })
    }
    expect((await t.call('GET', `/api/use/links/${link.id}`)).json()).toMatchObject({
      destinationUrl: link.destinationUrl,
      expiredUrl: null,
      og: null,
      rules: [],
    })
  })

  it('a smart link: its fallback and each platform target, create and PATCH', async () => {
    const made = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://example.com/' },
    })
    expect(made.statusCode, made.body).toBe(201)
    for (const url of LOOPBACK)
      for (const [body, field] of [
        [{ fallbackUrl: url }, 'fallbackUrl'],
        [{ fallbackUrl: 'https://example.com/', ios: { url } }, 'ios.url'],
        [{ fallbackUrl: 'https://example.com/', android: { url } }, 'android.url'],
        [{ fallbackUrl: 'https://example.com/', desktop: { url } }, 'desktop.url'],
      ] as const) {
        expect(fieldsOf(await t.call('POST', '/api/use/smart-links', { body })), url).toEqual([field])
        const patched = await t.call('PATCH', `/api/use/smart-links/${made.json().id}`, { body })
        expect(fieldsOf(patched), url).toEqual([field])
      }
  })

  it('hosts that only look local are destinations like any other', async () => {
    for (const url of [
      'https://localhost.example.com/x',
      'https://mylocalhost/x',
      'http://10.0.0.5/intranet',
      'http://192.168.1.10/x',
      'http://[fd00::1]/x',
      'http://128.0.0.1/x',
    ]) {
      const res = await t.call('POST', '/api/use/links', { body: { destinationUrl: url } })
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201)
    }
  })
})
