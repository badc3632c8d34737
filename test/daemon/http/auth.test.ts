import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { hasScope, presentedKey } from '../../../daemon/http/auth.js'
import { detailFields, expectError, raw } from '../../support/responses.js'

const HOUR = 3_600_000

describe('authentication', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('accepts Authorization: Bearer and X-API-Key', async () => {
    t = await createTestApp()
    const bearer = await raw(t, {
      method: 'GET',
      url: '/api/keys',
      headers: { authorization: `Bearer ${t.ownerKey}` },
    })
    expect(bearer.statusCode).toBe(200)
    const lower = await raw(t, {
      method: 'GET',
      url: '/api/keys',
      headers: { authorization: `bearer ${t.ownerKey}` },
    })
    expect(lower.statusCode).toBe(200)
    const header = await raw(t, { method: 'GET', url: '/api/keys', headers: { 'x-api-key': t.ownerKey } })
    expect(header.statusCode).toBe(200)
    const padded = await raw(t, {
      method: 'GET',
      url: '/api/keys',
      headers: { 'x-api-key': ` ${t.ownerKey} ` },
    })
    expect(padded.statusCode).toBe(200)
    // both work on a write route as well
    const created = await raw(t, {
      method: 'POST',
      url: '/api/keys',
      headers: { 'x-api-key': t.ownerKey },
      payload: { name: 'via header' },
    })
    expect(created.statusCode).toBe(201)
  })

  it('401 Unauthorized when the key is missing', async () => {
    t = await createTestApp()
    const res = await t.call('GET', '/api/keys', { key: null })
    const body = expectError(res, 401, 'Unauthorized', '/api/keys')
    expect(body.message).toMatch(/Authorization: Bearer/)
    expectError(
      await raw(t, { method: 'GET', url: '/api/keys', headers: { 'x-api-key': '' } }),
      401,
      'Unauthorized',
    )
  })

  it('401 for malformed keys and authorization schemes', async () => {
    t = await createTestApp()
    const cases: Record<string, string>[] = [
      { authorization: 'Bearer lk_live_short' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: `Token ${t.ownerKey}` },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${t.ownerKey} extra` },
      { 'x-api-key': 'lk_live_short' },
      { 'x-api-key': t.ownerKey.replace('lk_live_', 'lk_prod_') },
      { 'x-api-key': t.ownerKey.replace('lk_live_', 'sk_live_') },
      { 'x-api-key': `${t.ownerKey}x` },
      { 'x-api-key': t.ownerKey.slice(0, -1) + '!' },
    ]
    for (const headers of cases) {
      const body = expectError(
        await raw(t, { method: 'GET', url: '/api/keys', headers }),
        401,
        'Unauthorized',
      )
      expect(body.message, JSON.stringify(headers)).toBe('the API key is malformed')
    }
  })

  it('a malformed Authorization header wins over a valid X-API-Key', async () => {
    t = await createTestApp()
    const res = await raw(t, {
      method: 'GET',
      url: '/api/keys',
      headers: { authorization: 'Basic abc', 'x-api-key': t.ownerKey },
    })
    expectError(res, 401, 'Unauthorized')
    expect(presentedKey({ headers: { authorization: 'Basic abc' } } as never)).toBe('malformed')
    expect(presentedKey({ headers: {} } as never)).toBeUndefined()
  })

  it('401 for a well-formed but unknown key', async () => {
    t = await createTestApp()
    const body = expectError(
      await t.call('GET', '/api/keys', { key: `lk_live_${'A'.repeat(32)}` }),
      401,
      'Unauthorized',
    )
    expect(body.message).toBe('the API key is invalid')
    expectError(await t.call('GET', '/api/keys', { key: `lk_test_${'b'.repeat(32)}` }), 401, 'Unauthorized')
  })

  it('401 for an inactive key, 200 again once activated', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'sleepy', preset: 'full' })
    expect((await t.call('GET', '/api/keys', { key: k.key })).statusCode).toBe(200)
    expect((await t.call('POST', `/api/keys/${k.id}/deactivate`)).statusCode).toBe(200)
    const body = expectError(await t.call('GET', '/api/keys', { key: k.key }), 401, 'Unauthorized')
    expect(body.message).toBe('the API key is inactive')
    expect((await t.call('POST', `/api/keys/${k.id}/activate`)).statusCode).toBe(200)
    expect((await t.call('GET', '/api/keys', { key: k.key })).statusCode).toBe(200)
  })

  it('401 for an expired key once the clock passes expiresAt', async () => {
    t = await createTestApp()
    const expiresAt = new Date(t.clock.now() + HOUR).toISOString()
    const k = await t.createKey({ name: 'short-lived', preset: 'full', expiresAt })
    t.clock.advance(HOUR - 1)
    expect((await t.call('GET', '/api/keys', { key: k.key })).statusCode).toBe(200)
    t.clock.advance(1)
    const body = expectError(await t.call('GET', '/api/keys', { key: k.key }), 401, 'Unauthorized')
    expect(body.message).toBe('the API key has expired')
    t.clock.advance(30 * 86_400_000)
    expectError(await t.call('GET', '/api/keys', { key: k.key }), 401, 'Unauthorized')
  })

  it('401 for a revoked key, on every route', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'gone', preset: 'full' })
    expect((await t.call('POST', `/api/keys/${k.id}/revoke`)).statusCode).toBe(200)
    for (const [method, url] of [
      ['GET', '/api/keys'],
      ['GET', `/api/keys/${k.id}`],
      ['POST', `/api/keys/${k.id}/activate`],
    ] as const) {
      const body = expectError(await t.call(method, url, { key: k.key }), 401, 'Unauthorized')
      expect(body.message).toBe('the API key has been revoked')
    }
    // X-API-Key too
    expectError(
      await raw(t, { method: 'GET', url: '/api/keys', headers: { 'x-api-key': k.key } }),
      401,
      'Unauthorized',
    )
  })

  it('a regenerated-away value is 401 at once and the new value works', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'rotating', preset: 'full' })
    const res = await t.call('POST', `/api/keys/${k.id}/regenerate`)
    expect(res.statusCode).toBe(200)
    const fresh = res.json().key as string
    expect(fresh).not.toBe(k.key)
    const body = expectError(await t.call('GET', '/api/keys', { key: k.key }), 401, 'Unauthorized')
    expect(body.message).toBe('the API key is invalid')
    expect((await t.call('GET', '/api/keys', { key: fresh })).statusCode).toBe(200)
    expect(
      (await raw(t, { method: 'GET', url: '/api/keys', headers: { 'x-api-key': fresh } })).statusCode,
    ).toBe(200)
  })

  it('the owner key regenerating itself locks out the old value', async () => {
    t = await createTestApp()
    const list = await t.call('GET', '/api/keys')
    const ownerId = list.json().data[0].id as string
    const res = await t.call('POST', `/api/keys/${ownerId}/regenerate`)
    expect(res.statusCode).toBe(200)
    expectError(await t.call('GET', '/api/keys'), 401, 'Unauthorized')
    expect((await t.call('GET', '/api/keys', { key: res.json().key })).statusCode).toBe(200)
  })

  it('403 Forbidden when the key lacks the scope', async () => {
    t = await createTestApp()
    const reader = await t.createKey({ name: 'reader', permissions: ['keys:read'] })
    expect((await t.call('GET', '/api/keys', { key: reader.key })).statusCode).toBe(200)
    const body = expectError(
      await t.call('POST', '/api/keys', { key: reader.key, body: { name: 'nope' } }),
      403,
      'Forbidden',
      '/api/keys',
    )
    expect(body.message).toContain('keys:write')
    const none = await t.createKey({ name: 'no scopes' })
    expect(none.permissions).toEqual([])
    expect(
      expectError(await t.call('GET', '/api/keys', { key: none.key }), 403, 'Forbidden').message,
    ).toContain('keys:read')
    const analytics = await t.createKey({ name: 'analytics', preset: 'analytics-only' })
    expectError(await t.call('GET', `/api/keys/${analytics.id}`, { key: analytics.key }), 403, 'Forbidden')
    expectError(await t.call('DELETE', `/api/keys/${analytics.id}`, { key: analytics.key }), 403, 'Forbidden')
  })

  it('401 comes before 403 and before body validation', async () => {
    t = await createTestApp()
    const reader = await t.createKey({ name: 'reader', permissions: ['keys:read'] })
    // invalid body, missing key → 401; invalid body, missing scope → 403
    expectError(await t.call('POST', '/api/keys', { key: null, body: { bogus: 1 } }), 401, 'Unauthorized')
    expectError(await t.call('POST', '/api/keys', { key: reader.key, body: { bogus: 1 } }), 403, 'Forbidden')
    const bad = await raw(t, {
      method: 'POST',
      url: '/api/keys',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    })
    expectError(bad, 401, 'Unauthorized')
  })

  it('qr:read and qrCodes:read are aliases that both satisfy a qrCodes:read check', async () => {
    t = await createTestApp()
    // a route that requires a QR scope, added before the app is ready
    t.app.get('/api/test-qr', { config: { auth: 'qrCodes:read' } }, async () => ({ ok: true }))
    const shortSpelling = await t.createKey({ name: 'qr short', permissions: ['qr:read'] })
    const longSpelling = await t.createKey({ name: 'qr long', permissions: ['qrCodes:read'] })
    const writer = await t.createKey({ name: 'qr writer', permissions: ['qr:write', 'qrCodes:delete'] })
    expect(shortSpelling.permissions).toEqual(['qrCodes:read'])
    expect(writer.permissions).toEqual(['qrCodes:write', 'qrCodes:delete'])
    expect((await t.call('GET', '/api/test-qr', { key: shortSpelling.key })).statusCode).toBe(200)
    expect((await t.call('GET', '/api/test-qr', { key: longSpelling.key })).statusCode).toBe(200)
    expectError(await t.call('GET', '/api/test-qr', { key: writer.key }), 403, 'Forbidden')
    // the check itself accepts either stored spelling
    expect(hasScope(['qr:read'], 'qrCodes:read')).toBe(true)
    expect(hasScope(['qrCodes:read'], 'qrCodes:read')).toBe(true)
    expect(hasScope(['qr:write'], 'qrCodes:read')).toBe(false)
    expect(hasScope([], 'links:read')).toBe(false)
  })
})

describe('IP allowlist', () => {
  let t: TestApp
  afterEach(() => t.close())

  const from = (key: string, ip: string, headers: Record<string, string> = {}) =>
    raw(t, {
      method: 'GET',
      url: '/api/keys',
      remoteAddress: ip,
      headers: { authorization: `Bearer ${key}`, ...headers },
    })

  it('a single IPv4 address', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'one ip', preset: 'full', allowedIps: ['203.0.113.7'] })
    expect(k.allowedIps).toEqual(['203.0.113.7'])
    expect((await from(k.key, '203.0.113.7')).statusCode).toBe(200)
    const body = expectError(await from(k.key, '203.0.113.8'), 403, 'Forbidden', '/api/keys')
    expect(body.message).toContain('203.0.113.8')
    expectError(await from(k.key, '127.0.0.1'), 403, 'Forbidden')
  })

  it("requests refused by the allowlist do not use up the key's quota", async () => {
    t = await createTestApp()
    const k = await t.createKey({
      name: 'quota',
      preset: 'full',
      allowedIps: ['203.0.113.7'],
      requestLimit: 2,
      timePeriod: 'hour',
    })
    for (let i = 0; i < 5; i++) expectError(await from(k.key, '198.51.100.1'), 403, 'Forbidden')
    const ok = await from(k.key, '203.0.113.7')
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['x-ratelimit-remaining']).toBe('1')
  })

  it('an IPv4 CIDR range', async () => {
    t = await createTestApp()
    const k = await t.createKey({
      name: 'cidr',
      preset: 'full',
      allowedIps: ['10.0.0.0/8', '192.168.1.0/24'],
    })
    for (const ip of ['10.0.0.1', '10.255.255.254', '192.168.1.200'])
      expect((await from(k.key, ip)).statusCode, ip).toBe(200)
    for (const ip of ['11.0.0.1', '192.168.2.1', '9.255.255.255'])
      expectError(await from(k.key, ip), 403, 'Forbidden')
  })

  it('an IPv6 CIDR range and a single IPv6 address', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'v6', preset: 'full', allowedIps: ['2001:db8::/32', '::1'] })
    expect(k.allowedIps).toEqual(['2001:db8::/32', '::1'])
    for (const ip of ['2001:db8::1', '2001:db8:ffff::5', '::1'])
      expect((await from(k.key, ip)).statusCode, ip).toBe(200)
    for (const ip of ['2001:db9::1', '::2', '10.0.0.1']) expectError(await from(k.key, ip), 403, 'Forbidden')
  })

  it('IPv4-mapped IPv6 clients match IPv4 entries, and mapped entries match IPv4 clients', async () => {
    t = await createTestApp()
    const v4 = await t.createKey({ name: 'v4', preset: 'full', allowedIps: ['10.0.0.0/8'] })
    expect((await from(v4.key, '::ffff:10.1.2.3')).statusCode).toBe(200)
    expectError(await from(v4.key, '::ffff:11.1.2.3'), 403, 'Forbidden')
    const mapped = await t.createKey({
      name: 'mapped',
      preset: 'full',
      allowedIps: ['::ffff:192.0.2.0/120', '::ffff:198.51.100.9'],
    })
    expect(mapped.allowedIps).toEqual(['192.0.2.0/24', '198.51.100.9'])
    expect((await from(mapped.key, '192.0.2.55')).statusCode).toBe(200)
    expect((await from(mapped.key, '198.51.100.9')).statusCode).toBe(200)
    expect((await from(mapped.key, '::ffff:192.0.2.1')).statusCode).toBe(200)
    expectError(await from(mapped.key, '192.0.3.1'), 403, 'Forbidden')
  })

  it('a mapped entry with a prefix shorter than /96 does not open the key to every IPv4 client', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'wide', preset: 'full', allowedIps: ['::ffff:1.2.3.4/64'] })
    expectError(await from(k.key, '8.8.8.8'), 403, 'Forbidden')
    expectError(await from(k.key, '1.2.3.4'), 403, 'Forbidden')
  })

  it('with trustProxy the X-Forwarded-For client address is checked', async () => {
    t = await createTestApp({ trustProxy: true })
    const k = await t.createKey({ name: 'behind proxy', preset: 'full', allowedIps: ['203.0.113.7'] })
    expectError(await from(k.key, '127.0.0.1', { 'x-forwarded-for': '198.51.100.1' }), 403, 'Forbidden')
    expectError(await from(k.key, '203.0.113.8'), 403, 'Forbidden')
    expect((await from(k.key, '127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(200)
    // the activity log and lastUsedIp show the forwarded address
    const got = await t.call('GET', `/api/keys/${k.id}`)
    expect(got.json().lastUsedIp).toBe('203.0.113.7')
  })

  it('with trustProxy naming the proxy, X-Forwarded-For counts only when the proxy sent it', async () => {
    t = await createTestApp({ trustProxy: '10.0.0.1' })
    const k = await t.createKey({ name: 'named proxy', preset: 'full', allowedIps: ['203.0.113.7'] })
    expect((await from(k.key, '10.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(200)
    expectError(await from(k.key, '10.0.0.2', { 'x-forwarded-for': '203.0.113.7' }), 403, 'Forbidden')
  })

  it('without trustProxy X-Forwarded-For is ignored', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'direct', preset: 'full', allowedIps: ['203.0.113.7'] })
    expectError(await from(k.key, '127.0.0.1', { 'x-forwarded-for': '203.0.113.7' }), 403, 'Forbidden')
    const local = await t.createKey({ name: 'local', preset: 'full', allowedIps: ['127.0.0.1'] })
    expect((await from(local.key, '127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(200)
  })

  it('an empty allowlist allows any address; clearing the list reopens the key', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'open', preset: 'full' })
    expect(k.allowedIps).toEqual([])
    expect((await from(k.key, '198.51.100.1')).statusCode).toBe(200)
    const closed = await t.call('PATCH', `/api/keys/${k.id}`, { body: { allowedIps: ['10.0.0.1'] } })
    expect(closed.statusCode).toBe(200)
    expectError(await from(k.key, '198.51.100.1'), 403, 'Forbidden')
    expect((await t.call('PATCH', `/api/keys/${k.id}`, { body: { allowedIps: [] } })).statusCode).toBe(200)
    expect((await from(k.key, '198.51.100.1')).statusCode).toBe(200)
  })

  it('invalid allowlist entries are refused with 400 naming each entry', async () => {
    t = await createTestApp()
    const res = await t.call('POST', '/api/keys', {
      body: { name: 'bad', allowedIps: ['10.0.0.1', 'not-an-ip', '10.0.0.0/33', '300.1.1.1', '192.168.1'] },
    })
    expectError(res, 400, 'ValidationError')
    expect(detailFields(res)).toEqual(['allowedIps.1', 'allowedIps.2', 'allowedIps.3', 'allowedIps.4'])
    const k = await t.createKey({ name: 'good' })
    const patch = await t.call('PATCH', `/api/keys/${k.id}`, { body: { allowedIps: ['2001:db8::/129'] } })
    expectError(patch, 400, 'ValidationError')
    expect(detailFields(patch)).toEqual(['allowedIps.0'])
    const total = (await t.call('GET', '/api/keys')).json().total
    expect(total).toBe(2)
  })

  it('entries are normalised and de-duplicated', async () => {
    t = await createTestApp()
    const k = await t.createKey({
      name: 'dupes',
      allowedIps: [' 10.0.0.1 ', '10.0.0.1', '2001:0db8:0000::1', '::ffff:10.0.0.1'],
    })
    expect(k.allowedIps).toEqual(['10.0.0.1', '2001:db8::1'])
  })
})
