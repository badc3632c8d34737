import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { SCOPES } from '../../../src/contract/scopes.js'
import { detailFields, expectError, storedKey } from '../../support/responses.js'

const HOUR = 3_600_000
const DAY = 86_400_000
const NOW = '2026-11-21T10:00:00.000Z'
const KEY_RE = /^lk_live_[A-Za-z0-9]{32}$/
const API_KEY_FIELDS = [
  'id',
  'name',
  'description',
  'memberId',
  'environment',
  'permissions',
  'requestLimit',
  'timePeriod',
  'allowedIps',
  'allowedOrigins',
  'expiresAt',
  'status',
  'preview',
  'createdAt',
  'updatedAt',
  'lastUsedAt',
  'lastUsedIp',
  'revokedAt',
  'usage',
].sort()

describe('keys API: create', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  it('creates a key with every field and shows the full value once', async () => {
    const expiresAt = '2027-01-01T00:00:00.000Z'
    const res = await t.call('POST', '/api/keys', {
      body: {
        name: '  CI pipeline  ',
        description: 'Deploys from CI',
        permissions: ['links:read', 'links:write', 'qr:read', 'links:read'],
        requestLimit: 500,
        timePeriod: 'minute',
        allowedIps: ['203.0.113.7', '10.0.0.0/8'],
        allowedOrigins: ['https://app.example.com/', 'http://localhost:3000'],
        expiresAt,
        environment: 'live',
      },
    })
    expect(res.statusCode).toBe(201)
    const k = res.json()
    expect(Object.keys(k).sort()).toEqual([...API_KEY_FIELDS, 'key'].sort())
    expect(k.key).toMatch(KEY_RE)
    expect(k.id).toMatch(/^key_[a-z0-9]+$/)
    expect(k).toMatchObject({
      name: 'CI pipeline',
      description: 'Deploys from CI',
      environment: 'live',
      permissions: ['links:read', 'links:write', 'qrCodes:read'],
      requestLimit: 500,
      timePeriod: 'minute',
      allowedIps: ['203.0.113.7', '10.0.0.0/8'],
      allowedOrigins: ['https://app.example.com', 'http://localhost:3000'],
      expiresAt,
      status: 'active',
      preview: `lk_\u2022\u2022\u2022${k.key.slice(-4)}`,
      createdAt: NOW,
      updatedAt: NOW,
      lastUsedAt: null,
      lastUsedIp: null,
      revokedAt: null,
      usage: { totalRequests: 0, requestsToday: 0, requestsThisMonth: 0 },
    })
    // the new key is valid right away
    const tested = await t.call('POST', '/api/keys/test', { key: null, body: { key: k.key } })
    expect(tested.json()).toMatchObject({ valid: true, key: { id: k.id, status: 'active' } })
  })

  it('never shows the full value again: get, list and activity', async () => {
    const k = await t.createKey({ name: 'secret', preset: 'full' })
    await t.call('GET', '/api/keys', { key: k.key })
    for (const url of [
      `/api/keys/${k.id}`,
      '/api/keys',
      '/api/keys?search=secret',
      `/api/keys/${k.id}/activity`,
    ]) {
      const res = await t.call('GET', url)
      expect(res.statusCode).toBe(200)
      expect(res.body).not.toContain(k.key)
      expect(res.body).not.toContain(k.key.slice(8))
      expect(res.body).not.toContain('"key":')
    }
    const got = (await t.call('GET', `/api/keys/${k.id}`)).json()
    expect(Object.keys(got).sort()).toEqual(API_KEY_FIELDS)
    expect(got.preview).toBe(k.preview)
    // storage holds a hash of the part after lk_, not the value
    const row = await storedKey(t, k.id)
    expect(JSON.stringify(row)).not.toContain(k.key.slice(8))
    expect(row?.prefix).toBe('lk')
    expect(row?.key_hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('defaults: no scopes, 1000 per hour, live, no expiry, no allowlists', async () => {
    const k = await t.createKey({ name: 'bare' })
    expect(k).toMatchObject({
      permissions: [],
      requestLimit: 1000,
      timePeriod: 'hour',
      environment: 'live',
      expiresAt: null,
      allowedIps: [],
      allowedOrigins: [],
      description: null,
    })
  })

  it('presets expand to their scopes', async () => {
    const readOnly = await t.createKey({ name: 'ro', preset: 'read-only' })
    expect(readOnly.permissions).toEqual(SCOPES.filter((s) => s.endsWith(':read')))
    expect(readOnly.permissions).toContain('keys:read')
    expect(readOnly.permissions).not.toContain('links:write')
    const full = await t.createKey({ name: 'full', preset: 'full' })
    expect(full.permissions).toEqual([...SCOPES])
    const analytics = await t.createKey({ name: 'an', preset: 'analytics-only' })
    expect(analytics.permissions).toEqual(['analytics:read'])
    const both = await t.call('POST', '/api/keys', {
      body: { name: 'both', preset: 'full', permissions: ['links:read'] },
    })
    expectError(both, 400, 'ValidationError')
    expect(detailFields(both)).toEqual(['preset'])
    const unknown = await t.call('POST', '/api/keys', { body: { name: 'x', preset: 'admin' } })
    expectError(unknown, 400, 'ValidationError')
    expect(detailFields(unknown)).toEqual(['preset'])
  })

  it('unknown scopes are 400 naming the entry', async () => {
    const res = await t.call('POST', '/api/keys', {
      body: { name: 'x', permissions: ['links:read', 'links:admin', 'everything'] },
    })
    expectError(res, 400, 'ValidationError')
    expect(detailFields(res)).toEqual(['permissions.1', 'permissions.2'])
  })

  it('environment test gives an lk_test_ key that authenticates', async () => {
    const k = await t.createKey({ name: 'sandbox', environment: 'test', preset: 'read-only' })
    expect(k.key).toMatch(/^lk_test_[A-Za-z0-9]{32}$/)
    expect(k.environment).toBe('test')
    expect((await t.call('GET', '/api/keys', { key: k.key })).statusCode).toBe(200)
    const regen = (await t.call('POST', `/api/keys/${k.id}/regenerate`)).json()
    expect(regen.key).toMatch(/^lk_test_[A-Za-z0-9]{32}$/)
    expectError(
      await t.call('POST', '/api/keys', { body: { name: 'x', environment: 'prod' } }),
      400,
      'ValidationError',
    )
  })

  it('name: 1-100 characters, not blank', async () => {
    expect((await t.createKey({ name: 'n'.repeat(100) })).name).toBe('n'.repeat(100))
    expect((await t.createKey({ name: 'a' })).name).toBe('a')
    for (const name of ['n'.repeat(101), '', '   ']) {
      const res = await t.call('POST', '/api/keys', { body: { name } })
      expectError(res, 400, 'ValidationError')
      expect(detailFields(res)).toContain('name')
    }
  })

  it('description: up to 500 characters', async () => {
    expect((await t.createKey({ name: 'd', description: 'd'.repeat(500) })).description).toHaveLength(500)
    expect((await t.createKey({ name: 'e', description: '' })).description).toBe('')
    const res = await t.call('POST', '/api/keys', { body: { name: 'd', description: 'd'.repeat(501) } })
    expectError(res, 400, 'ValidationError')
    expect(detailFields(res)).toEqual(['description'])
  })

  it('requestLimit: integer 1 to 1,000,000', async () => {
    expect((await t.createKey({ name: 'min', requestLimit: 1 })).requestLimit).toBe(1)
    expect((await t.createKey({ name: 'max', requestLimit: 1_000_000 })).requestLimit).toBe(1_000_000)
    for (const requestLimit of [0, -1, 1_000_001, 2.5, 'many']) {
      const res = await t.call('POST', '/api/keys', { body: { name: 'x', requestLimit } })
      expectError(res, 400, 'ValidationError')
      expect(new Set(detailFields(res))).toEqual(new Set(['requestLimit']))
    }
  })

  it('timePeriod: minute, hour or day', async () => {
    for (const timePeriod of ['minute', 'hour', 'day'] as const)
      expect((await t.createKey({ name: timePeriod, timePeriod })).timePeriod).toBe(timePeriod)
    for (const timePeriod of ['week', 'Hour', 'second', '']) {
      const res = await t.call('POST', '/api/keys', { body: { name: 'x', timePeriod } })
      const body = expectError(res, 400, 'ValidationError')
      expect(body.details).toEqual([{ field: 'timePeriod', message: 'must be one of: minute, hour, day' }])
    }
  })

  it('expiresAt: must be a future ISO 8601 datetime; null means none', async () => {
    const past = await t.call('POST', '/api/keys', {
      body: { name: 'x', expiresAt: '2026-11-21T09:59:59.999Z' },
    })
    expect(expectError(past, 400, 'ValidationError').details).toEqual([
      { field: 'expiresAt', message: 'must be in the future' },
    ])
    const now = await t.call('POST', '/api/keys', { body: { name: 'x', expiresAt: NOW } })
    expectError(now, 400, 'ValidationError')
    for (const expiresAt of ['tomorrow', '2027-13-01T00:00:00Z', 12345]) {
      const res = await t.call('POST', '/api/keys', { body: { name: 'x', expiresAt } })
      expectError(res, 400, 'ValidationError')
      expect(detailFields(res)).toContain('expiresAt')
    }
    expect((await t.createKey({ name: 'soon', expiresAt: '2026-11-21T10:00:00.001Z' })).expiresAt).toBe(
      '2026-11-21T10:00:00.001Z',
    )
    expect((await t.createKey({ name: 'offset', expiresAt: '2026-11-22T12:00:00+02:00' })).expiresAt).toBe(
      '2026-11-22T10:00:00.000Z',
    )
    expect((await t.createKey({ name: 'never', expiresAt: null })).expiresAt).toBeNull()
  })

  it('allowedOrigins must be origins; they are stored, not enforced', async () => {
    for (const origin of [
      'not a url',
      'ftp://example.com',
      'https://example.com/path',
      'https://example.com/?q=1',
    ]) {
      const res = await t.call('POST', '/api/keys', {
        body: { name: 'x', allowedOrigins: ['https://ok.example.com', origin] },
      })
      expectError(res, 400, 'ValidationError')
      expect(detailFields(res)).toEqual(['allowedOrigins.1'])
    }
    const k = await t.createKey({ name: 'cors', preset: 'full', allowedOrigins: ['https://app.example.com'] })
    const res = await t.call('GET', '/api/keys', {
      key: k.key,
      headers: { origin: 'https://evil.example.net' },
    })
    expect(res.statusCode).toBe(200)
    // Stored as given: the key shows them, from its create answer and from a read.
    expect(k.allowedOrigins).toEqual(['https://app.example.com'])
    expect((await t.call('GET', `/api/keys/${k.id}`)).json().allowedOrigins).toEqual([
      'https://app.example.com',
    ])
    expect(res.json<{ data: { id: string }[] }>().data.map((x) => x.id)).toContain(k.id)
  })
})

describe('keys API: list and get', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  it('lists keys of the organization in the envelope, newest first', async () => {
    t.clock.advance(1000)
    const a = await t.createKey({ name: 'alpha' })
    t.clock.advance(1000)
    const b = await t.createKey({ name: 'beta' })
    const res = await t.call('GET', '/api/keys')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({ total: 3, page: 1, perPage: 20, hasMore: false })
    expect(body.data.map((k: { id: string }) => k.id).slice(0, 2)).toEqual([b.id, a.id])
    expect(body.data[2].name).toBe('owner')
  })

  it('filters by status', async () => {
    const active = await t.createKey({ name: 'active one' })
    const inactive = await t.createKey({ name: 'inactive one' })
    const revoked = await t.createKey({ name: 'revoked one' })
    const expiring = await t.createKey({
      name: 'expiring one',
      expiresAt: new Date(t.clock.now() + HOUR).toISOString(),
    })
    await t.call('POST', `/api/keys/${inactive.id}/deactivate`)
    await t.call('POST', `/api/keys/${revoked.id}/revoke`)
    t.clock.advance(HOUR)
    const ids = async (status: string) =>
      (await t.call('GET', `/api/keys?status=${status}`))
        .json()
        .data.map((k: { id: string; status: string }) => {
          expect(k.status).toBe(status)
          return k.id
        })
    expect(await ids('active')).toEqual(expect.arrayContaining([active.id]))
    expect(await ids('active')).toHaveLength(2) // + owner
    expect(await ids('inactive')).toEqual([inactive.id])
    expect(await ids('revoked')).toEqual([revoked.id])
    // expired without the job having run yet
    expect(await ids('expired')).toEqual([expiring.id])
    const total = (await t.call('GET', '/api/keys?status=expired')).json().total
    expect(total).toBe(1)
  })

  it('searches name and description, case-insensitively, with literal wildcards', async () => {
    const a = await t.createKey({ name: 'Billing Service' })
    const b = await t.createKey({ name: 'other', description: 'used by the BILLING cron' })
    await t.createKey({ name: '100% coverage' })
    await t.createKey({ name: 'unrelated' })
    const found = (await t.call('GET', '/api/keys?search=billing')).json()
    expect(found.total).toBe(2)
    expect(found.data.map((k: { id: string }) => k.id).sort()).toEqual([a.id, b.id].sort())
    expect((await t.call('GET', '/api/keys?search=%25')).json().total).toBe(1)
    expect((await t.call('GET', '/api/keys?search=_')).json().total).toBe(0)
    expect((await t.call('GET', '/api/keys?search=nomatch')).json()).toMatchObject({
      data: [],
      total: 0,
      hasMore: false,
    })
    expect((await t.call('GET', '/api/keys?search=billing&status=revoked')).json().total).toBe(0)
  })

  it('gets one key; unknown ids are 404', async () => {
    const k = await t.createKey({ name: 'single' })
    const res = await t.call('GET', `/api/keys/${k.id}`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: k.id, name: 'single', status: 'active' })
    const body = expectError(
      await t.call('GET', '/api/keys/key_doesnotexist'),
      404,
      'NotFound',
      '/api/keys/key_doesnotexist',
    )
    expect(body.message).toContain('key_doesnotexist')
  })
})

describe('keys API: update and transitions', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  it('updates every editable field and bumps updatedAt', async () => {
    const k = await t.createKey({ name: 'before', description: 'old', preset: 'read-only' })
    t.clock.advance(5000)
    const res = await t.call('PATCH', `/api/keys/${k.id}`, {
      body: {
        name: 'after',
        description: null,
        permissions: ['links:read', 'qr:write'],
        requestLimit: 10,
        timePeriod: 'day',
        allowedIps: ['198.51.100.0/24'],
        allowedOrigins: ['https://a.example.com'],
        expiresAt: '2027-06-01T00:00:00.000Z',
      },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      id: k.id,
      name: 'after',
      description: null,
      permissions: ['links:read', 'qrCodes:write'],
      requestLimit: 10,
      timePeriod: 'day',
      allowedIps: ['198.51.100.0/24'],
      allowedOrigins: ['https://a.example.com'],
      expiresAt: '2027-06-01T00:00:00.000Z',
      createdAt: NOW,
      updatedAt: '2026-11-21T10:00:05.000Z',
    })
    expect(res.json().key).toBeUndefined()
    // partial update leaves the rest alone
    const partial = (await t.call('PATCH', `/api/keys/${k.id}`, { body: { description: 'again' } })).json()
    expect(partial).toMatchObject({ name: 'after', description: 'again', requestLimit: 10 })
    // clearing the expiry
    expect(
      (await t.call('PATCH', `/api/keys/${k.id}`, { body: { expiresAt: null } })).json().expiresAt,
    ).toBeNull()
  })

  it('validates updates like creates; an empty body is 400', async () => {
    const k = await t.createKey({ name: 'x' })
    expectError(await t.call('PATCH', `/api/keys/${k.id}`, { body: {} }), 400, 'ValidationError')
    const long = await t.call('PATCH', `/api/keys/${k.id}`, { body: { name: 'n'.repeat(101) } })
    expect(detailFields(long)).toEqual(['name'])
    const unknown = await t.call('PATCH', `/api/keys/${k.id}`, { body: { status: 'active' } })
    expect(expectError(unknown, 400, 'ValidationError').details).toContainEqual({
      field: 'status',
      message: 'is not a known field',
    })
    const past = await t.call('PATCH', `/api/keys/${k.id}`, {
      body: { expiresAt: '2020-01-01T00:00:00.000Z' },
    })
    expect(detailFields(past)).toEqual(['expiresAt'])
    expectError(await t.call('PATCH', '/api/keys/key_nope', { body: { name: 'y' } }), 404, 'NotFound')
  })

  it('regenerate: a new value, the old one stops at once, the preview follows', async () => {
    const k = await t.createKey({ name: 'rotate', preset: 'full' })
    t.clock.advance(1000)
    const res = await t.call('POST', `/api/keys/${k.id}/regenerate`)
    expect(res.statusCode).toBe(200)
    const r = res.json()
    expect(r.key).toMatch(KEY_RE)
    expect(r.key).not.toBe(k.key)
    expect(r.id).toBe(k.id)
    expect(r.preview).toBe(`lk_\u2022\u2022\u2022${r.key.slice(-4)}`)
    expect(r.updatedAt).toBe('2026-11-21T10:00:01.000Z')
    expect(r.permissions).toEqual(k.permissions)
    expectError(await t.call('GET', '/api/keys', { key: k.key }), 401, 'Unauthorized')
    expect((await t.call('GET', '/api/keys', { key: r.key })).statusCode).toBe(200)
    expect((await t.call('GET', `/api/keys/${k.id}`)).json().key).toBeUndefined()
  })

  it('revoke: revokedAt set, permanent, and every later change is 409', async () => {
    const k = await t.createKey({ name: 'doomed', preset: 'full' })
    t.clock.advance(2000)
    const res = await t.call('POST', `/api/keys/${k.id}/revoke`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ status: 'revoked', revokedAt: '2026-11-21T10:00:02.000Z' })
    expectError(await t.call('GET', '/api/keys', { key: k.key }), 401, 'Unauthorized')

    for (const [method, url, body] of [
      ['POST', `/api/keys/${k.id}/activate`, undefined],
      ['POST', `/api/keys/${k.id}/deactivate`, undefined],
      ['POST', `/api/keys/${k.id}/regenerate`, undefined],
      ['PATCH', `/api/keys/${k.id}`, { name: 'revived' }],
      ['PATCH', `/api/keys/${k.id}`, { expiresAt: null }],
    ] as const) {
      const r = await t.call(method, url, body ? { body } : {})
      const err = expectError(r, 409, 'Conflict', url)
      expect(err.message).toContain('revoked')
    }
    // revoking again is harmless and keeps the first revokedAt
    t.clock.advance(DAY)
    const again = await t.call('POST', `/api/keys/${k.id}/revoke`)
    expect(again.statusCode).toBe(200)
    expect(again.json().revokedAt).toBe('2026-11-21T10:00:02.000Z')
    expect((await t.call('GET', `/api/keys/${k.id}`)).json()).toMatchObject({
      status: 'revoked',
      name: 'doomed',
    })
    expectError(await t.call('GET', '/api/keys', { key: k.key }), 401, 'Unauthorized')
  })

  it('deactivate and activate', async () => {
    const k = await t.createKey({ name: 'toggle', preset: 'full' })
    const off = await t.call('POST', `/api/keys/${k.id}/deactivate`)
    expect(off.statusCode).toBe(200)
    expect(off.json().status).toBe('inactive')
    expect((await t.call('POST', `/api/keys/${k.id}/deactivate`)).json().status).toBe('inactive')
    expectError(await t.call('GET', '/api/keys', { key: k.key }), 401, 'Unauthorized')
    // an inactive key can still be edited and regenerated
    expect((await t.call('PATCH', `/api/keys/${k.id}`, { body: { name: 'still toggle' } })).statusCode).toBe(
      200,
    )
    const on = await t.call('POST', `/api/keys/${k.id}/activate`)
    expect(on.json().status).toBe('active')
    expect((await t.call('POST', `/api/keys/${k.id}/activate`)).json().status).toBe('active')
    expect((await t.call('GET', '/api/keys', { key: k.key })).statusCode).toBe(200)
    expectError(await t.call('POST', '/api/keys/key_nope/activate'), 404, 'NotFound')
  })

  it('an expired key: activate and regenerate are 409; a new expiresAt brings it back', async () => {
    const k = await t.createKey({
      name: 'lapsed',
      preset: 'full',
      expiresAt: new Date(t.clock.now() + HOUR).toISOString(),
    })
    t.clock.advance(HOUR)
    expect((await t.call('GET', `/api/keys/${k.id}`)).json().status).toBe('expired')
    expectError(await t.call('POST', `/api/keys/${k.id}/activate`), 409, 'Conflict')
    expectError(await t.call('POST', `/api/keys/${k.id}/regenerate`), 409, 'Conflict')
    await t.app.linkd.scheduler.runNow('expire-keys')
    expectError(await t.call('POST', `/api/keys/${k.id}/activate`), 409, 'Conflict')
    const renewed = await t.call('PATCH', `/api/keys/${k.id}`, {
      body: { expiresAt: new Date(t.clock.now() + DAY).toISOString() },
    })
    expect(renewed.statusCode).toBe(200)
    expect(renewed.json().status).toBe('active')
    expect((await t.call('GET', '/api/keys', { key: k.key })).statusCode).toBe(200)
  })

  it('delete: 204, then 404, the value stops working and its activity is gone', async () => {
    const k = await t.createKey({ name: 'short life', preset: 'full' })
    for (let i = 0; i < 3; i++) await t.call('GET', '/api/keys', { key: k.key })
    const activity = (await t.call('GET', `/api/keys/${k.id}/activity`)).json()
    expect(activity.total).toBe(3)
    const del = await t.call('DELETE', `/api/keys/${k.id}`)
    expect(del.statusCode).toBe(204)
    expect(del.body).toBe('')
    expectError(await t.call('GET', `/api/keys/${k.id}`), 404, 'NotFound')
    expectError(await t.call('GET', `/api/keys/${k.id}/activity`), 404, 'NotFound')
    expectError(await t.call('DELETE', `/api/keys/${k.id}`), 404, 'NotFound')
    expectError(await t.call('GET', '/api/keys', { key: k.key }), 401, 'Unauthorized')
    const rows = await t.db.kysely
      .selectFrom('api_key_activity')
      .selectAll()
      .where('key_id', '=', k.id)
      .execute()
    expect(rows).toEqual([])
    expect(await storedKey(t, k.id)).toBeUndefined()
    expect((await t.call('GET', '/api/keys')).json().total).toBe(1)
  })

  it('a revoked key can be deleted', async () => {
    const k = await t.createKey({ name: 'revoke then delete' })
    await t.call('POST', `/api/keys/${k.id}/revoke`)
    expect((await t.call('DELETE', `/api/keys/${k.id}`)).statusCode).toBe(204)
    expectError(await t.call('GET', `/api/keys/${k.id}`), 404, 'NotFound')
  })

  it('activity of requests made just before deletion is dropped, not written', async () => {
    const k = await t.createKey({ name: 'busy', preset: 'full' })
    await t.call('GET', '/api/keys', { key: k.key })
    // the request above is still buffered; deleting must not fail on it
    expect(t.app.linkd.services.keys.usage.pending).toBeGreaterThan(0)
    expect((await t.call('DELETE', `/api/keys/${k.id}`)).statusCode).toBe(204)
    await t.app.linkd.services.keys.usage.flush()
    const rows = await t.db.kysely
      .selectFrom('api_key_activity')
      .selectAll()
      .where('key_id', '=', k.id)
      .execute()
    expect(rows).toEqual([])
  })
})

describe('keys API: organizations are isolated', () => {
  let t: TestApp
  afterEach(() => t.close())

  it("another organization's key id is 404 on every key route", async () => {
    t = await createTestApp()
    const other = await t.createOrg('acme')
    const theirs = await t.createKey({ name: 'acme key', preset: 'full' }, other.ownerKey)
    const routes = [
      ['GET', `/api/keys/${theirs.id}`, undefined],
      ['PATCH', `/api/keys/${theirs.id}`, { name: 'hijacked' }],
      ['DELETE', `/api/keys/${theirs.id}`, undefined],
      ['POST', `/api/keys/${theirs.id}/revoke`, undefined],
      ['POST', `/api/keys/${theirs.id}/regenerate`, undefined],
      ['POST', `/api/keys/${theirs.id}/activate`, undefined],
      ['POST', `/api/keys/${theirs.id}/deactivate`, undefined],
      ['GET', `/api/keys/${theirs.id}/activity`, undefined],
    ] as const
    for (const [method, url, body] of routes)
      expectError(await t.call(method, url, body ? { body } : {}), 404, 'NotFound', url)
    // nothing changed for them
    const got = await t.call('GET', `/api/keys/${theirs.id}`, { key: other.ownerKey })
    expect(got.json()).toMatchObject({ name: 'acme key', status: 'active' })
    expect((await t.call('GET', '/api/keys', { key: theirs.key })).statusCode).toBe(200)
    // lists show only their own organization
    const mine = (await t.call('GET', '/api/keys')).json()
    expect(mine.total).toBe(1)
    expect(mine.data.map((k: { id: string }) => k.id)).not.toContain(theirs.id)
    expect((await t.call('GET', '/api/keys?search=acme')).json().total).toBe(0)
    expect((await t.call('GET', '/api/keys', { key: other.ownerKey })).json().total).toBe(2)
  })
})
