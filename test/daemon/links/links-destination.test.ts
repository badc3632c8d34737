/**
 * Destination URLs a short link must not have: user-info, which disguises the
 * real host (`http://paypal.com@evil.example` opens evil.example), and this service's own short
 * domains, where a short link to a short link loops or chains. Create, PATCH and bulk alike.
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
})

describe('a shared short domain with a port', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'http://127.0.0.1:8080' })
  })
  afterAll(() => t.close())

  it('only that port is this service; other ports of the same host are other services', async () => {
    const res = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'http://127.0.0.1:8080/x' },
    })
    expect(expectError(res, 400, 'ValidationError').details![0]!.field).toBe('destinationUrl')
    for (const url of ['http://127.0.0.1:3000/x', 'http://127.0.0.1/x', 'https://127.0.0.1/x']) {
      const ok = await t.call('POST', '/api/use/links', { body: { destinationUrl: url } })
      expect(ok.statusCode, url).toBe(201)
      expect(ok.json<{ destinationUrl: string }>().destinationUrl).toBe(url)
    }
  })
})
