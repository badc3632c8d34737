import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { expectError, rateHeaders } from '../../support/responses.js'

const HOUR = 3_600_000

describe('plan limits on API keys', () => {
  let t: TestApp
  afterEach(() => t.close())

  const create = (name: string, key?: string) =>
    t.call('POST', '/api/keys', { body: { name }, ...(key ? { key } : {}) })

  it('free: 5 usable keys (the owner key included) pass, the 6th is 403', async () => {
    t = await createTestApp({ defaultPlan: 'free' })
    const ids: string[] = []
    for (let i = 2; i <= 5; i++) {
      const res = await create(`key ${i}`)
      expect(res.statusCode, `key ${i}`).toBe(201)
      ids.push(res.json().id)
    }
    const sixth = await create('key 6')
    const body = expectError(sixth, 403, 'Forbidden', '/api/keys')
    expect(body.message).toMatch(/free plan allows 5 API keys/)
    expect((await t.call('GET', '/api/keys')).json().total).toBe(5)
  })

  it('revoked, expired and deleted keys free their slot; inactive keys keep it', async () => {
    t = await createTestApp({ defaultPlan: 'free' })
    const ids: string[] = []
    for (let i = 2; i <= 5; i++) ids.push((await create(`key ${i}`)).json().id)
    expectError(await create('full'), 403, 'Forbidden')

    await t.call('POST', `/api/keys/${ids[0]}/deactivate`)
    expectError(await create('still full'), 403, 'Forbidden')

    await t.call('POST', `/api/keys/${ids[0]}/revoke`)
    expect((await create('after revoke')).statusCode).toBe(201)
    expectError(await create('full again'), 403, 'Forbidden')

    expect((await t.call('DELETE', `/api/keys/${ids[1]}`)).statusCode).toBe(204)
    expect((await create('after delete')).statusCode).toBe(201)
    expectError(await create('full again'), 403, 'Forbidden')

    // an expiring key counts until it expires
    await t.call('DELETE', `/api/keys/${ids[2]}`)
    const expiring = await t.call('POST', '/api/keys', {
      body: { name: 'expiring', expiresAt: new Date(t.clock.now() + HOUR).toISOString() },
    })
    expect(expiring.statusCode).toBe(201)
    expectError(await create('full again'), 403, 'Forbidden')
    t.clock.advance(HOUR)
    expect((await create('after expiry')).statusCode).toBe(201)
    // bringing the expired key back with a new expiry would exceed the plan
    const id = expiring.json().id as string
    const revive = await t.call('PATCH', `/api/keys/${id}`, { body: { expiresAt: null } })
    expect(expectError(revive, 403, 'Forbidden').message).toMatch(/free plan allows 5 API keys/)
    expect((await t.call('GET', `/api/keys/${id}`)).json()).toMatchObject({ status: 'expired' })
    // other edits of the expired key are fine
    const renamed = await t.call('PATCH', `/api/keys/${id}`, { body: { name: 'renamed' } })
    expect(renamed.statusCode).toBe(200)
    expect(renamed.json()).toMatchObject({ id, name: 'renamed', status: 'expired' })
    // with room again, it can come back
    await t.call('POST', `/api/keys/${ids[3]}/revoke`)
    const back = await t.call('PATCH', `/api/keys/${id}`, { body: { expiresAt: null } })
    expect(back.statusCode).toBe(200)
    expect(back.json().status).toBe('active')
  })

  it('starter allows 10; changing the plan applies at once', async () => {
    t = await createTestApp({ defaultPlan: 'free' })
    for (let i = 2; i <= 5; i++) expect((await create(`key ${i}`)).statusCode).toBe(201)
    expectError(await create('key 6'), 403, 'Forbidden')
    const org = await t.app.linkd.services.orgs.setPlan('default', 'starter')
    expect(org.plan).toBe('starter')
    for (let i = 6; i <= 10; i++) expect((await create(`key ${i}`)).statusCode, `key ${i}`).toBe(201)
    const eleventh = await create('key 11')
    expect(expectError(eleventh, 403, 'Forbidden').message).toMatch(/starter plan allows 10/)
    // downgrading keeps existing keys but blocks new ones
    await t.app.linkd.services.orgs.setPlan(t.orgId, 'free')
    expectError(await create('after downgrade'), 403, 'Forbidden')
    const kept = await t.call('GET', '/api/keys')
    expect(kept.statusCode).toBe(200)
    // the owner key and keys 2 to 10, all still active
    expect(kept.json()).toMatchObject({ total: 10 })
    expect(kept.json<{ data: { status: string }[] }>().data.map((k) => k.status)).toEqual(
      Array(10).fill('active'),
    )
  })

  it('professional allows 50; enterprise is unlimited', async () => {
    t = await createTestApp({ defaultPlan: 'professional' })
    const { keys } = t.app.linkd.services
    for (let i = 2; i <= 49; i++) await keys.create(t.orgId, { name: `bulk ${i}` })
    expect((await create('key 50')).statusCode).toBe(201)
    expect(expectError(await create('key 51'), 403, 'Forbidden').message).toMatch(
      /professional plan allows 50/,
    )
    await t.app.linkd.services.orgs.setPlan('default', 'enterprise')
    for (let i = 51; i <= 60; i++) await keys.create(t.orgId, { name: `bulk ${i}` })
    expect((await create('key 61')).statusCode).toBe(201)
    expect((await t.call('GET', '/api/keys')).json().total).toBe(61)
  })

  it('limits are per organization', async () => {
    t = await createTestApp({ defaultPlan: 'free' })
    for (let i = 2; i <= 5; i++) await create(`key ${i}`)
    expectError(await create('key 6'), 403, 'Forbidden')
    const other = await t.createOrg('acme', 'free')
    expect((await create('acme 2', other.ownerKey)).statusCode).toBe(201)
  })

  it('setPlan refuses unknown plans', async () => {
    t = await createTestApp()
    await expect(t.app.linkd.services.orgs.setPlan('default', 'platinum')).rejects.toMatchObject({
      type: 'ValidationError',
    })
    await expect(t.app.linkd.services.orgs.setPlan('nope', 'free')).rejects.toMatchObject({
      type: 'NotFound',
    })
  })
})

describe('what a key may grant', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('a key with keys:write but not links:write cannot grant links:write', async () => {
    t = await createTestApp()
    const admin = await t.createKey({
      name: 'key admin',
      permissions: ['keys:read', 'keys:write', 'analytics:read'],
    })
    const denied = await t.call('POST', '/api/keys', {
      key: admin.key,
      body: { name: 'escalate', permissions: ['links:write'] },
    })
    const body = expectError(denied, 403, 'Forbidden', '/api/keys')
    expect(body.message).toContain('links:write')
    expectError(
      await t.call('POST', '/api/keys', { key: admin.key, body: { name: 'escalate', preset: 'full' } }),
      403,
      'Forbidden',
    )
    expectError(
      await t.call('POST', '/api/keys', { key: admin.key, body: { name: 'escalate', preset: 'read-only' } }),
      403,
      'Forbidden',
    )
    // a subset of its own scopes is fine
    const ok = await t.call('POST', '/api/keys', {
      key: admin.key,
      body: { name: 'subset', permissions: ['analytics:read', 'keys:read'] },
    })
    expect(ok.statusCode).toBe(201)
    expect(ok.json().permissions).toEqual(['analytics:read', 'keys:read'])
    expect(
      (
        await t.call('POST', '/api/keys', {
          key: admin.key,
          body: { name: 'preset', preset: 'analytics-only' },
        })
      ).statusCode,
    ).toBe(201)
    expect((await t.call('POST', '/api/keys', { key: admin.key, body: { name: 'none' } })).statusCode).toBe(
      201,
    )
    // nor by editing a key
    const target = ok.json().id as string
    expectError(
      await t.call('PATCH', `/api/keys/${target}`, {
        key: admin.key,
        body: { permissions: ['links:write'] },
      }),
      403,
      'Forbidden',
    )
    expect((await t.call('GET', `/api/keys/${target}`)).json().permissions).toEqual([
      'analytics:read',
      'keys:read',
    ])
    expect(
      (await t.call('PATCH', `/api/keys/${target}`, { key: admin.key, body: { permissions: ['keys:read'] } }))
        .statusCode,
    ).toBe(200)
    // nothing was created by the refused requests
    expect((await t.call('GET', '/api/keys?search=escalate')).json().total).toBe(0)
  })

  it('QR aliases count as the scope they stand for', async () => {
    t = await createTestApp()
    const qr = await t.createKey({ name: 'qr admin', permissions: ['keys:write', 'qrCodes:read'] })
    const res = await t.call('POST', '/api/keys', {
      key: qr.key,
      body: { name: 'qr child', permissions: ['qr:read'] },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().permissions).toEqual(['qrCodes:read'])
    expectError(
      await t.call('POST', '/api/keys', {
        key: qr.key,
        body: { name: 'qr child', permissions: ['qr:write'] },
      }),
      403,
      'Forbidden',
    )
  })
})

describe('key tester POST /api/keys/test', () => {
  let t: TestApp
  afterEach(() => t.close())

  const test = (key: string) => t.call('POST', '/api/keys/test', { key: null, body: { key } })

  it('a valid key: name, permissions, status, organization and rate limit, without needing a key', async () => {
    t = await createTestApp({ defaultPlan: 'starter' })
    const k = await t.createKey({
      name: 'tested',
      permissions: ['links:read', 'keys:read'],
      requestLimit: 10,
      timePeriod: 'minute',
    })
    await t.call('GET', '/api/keys', { key: k.key })
    await t.call('GET', '/api/keys', { key: k.key })
    const res = await test(k.key)
    expect(res.statusCode).toBe(200)
    rateHeaders(res)
    expect(res.json()).toEqual({
      valid: true,
      key: {
        id: k.id,
        name: 'tested',
        status: 'active',
        permissions: ['links:read', 'keys:read'],
        preview: k.preview,
        expiresAt: null,
        organization: { id: t.orgId, name: 'default', plan: 'starter' },
      },
      rateLimit: {
        limit: 10,
        period: 'minute',
        remaining: 8,
        reset: Date.parse('2026-11-21T10:01:00.000Z') / 1000,
      },
    })
    // testing does not use up the key's requests
    expect((await test(k.key)).json().rateLimit.remaining).toBe(8)
    expect(res.body).not.toContain(k.key)
  })

  it('trims surrounding whitespace of a pasted key', async () => {
    t = await createTestApp()
    expect((await test(`  ${t.ownerKey}\n`)).json().valid).toBe(true)
  })

  it('revoked, expired, inactive: valid false with the reason and the key identity', async () => {
    t = await createTestApp()
    const revoked = await t.createKey({ name: 'revoked' })
    const inactive = await t.createKey({ name: 'inactive' })
    const expired = await t.createKey({
      name: 'expired',
      expiresAt: new Date(t.clock.now() + HOUR).toISOString(),
    })
    await t.call('POST', `/api/keys/${revoked.id}/revoke`)
    await t.call('POST', `/api/keys/${inactive.id}/deactivate`)
    t.clock.advance(HOUR)
    for (const [k, reason] of [
      [revoked, 'revoked'],
      [inactive, 'inactive'],
      [expired, 'expired'],
    ] as const) {
      const res = await test(k.key)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        valid: false,
        reason,
        key: { id: k.id, name: k.name, status: reason },
      })
    }
    // after the job has persisted the expiry too
    await t.app.linkd.scheduler.runNow('expire-keys')
    expect((await test(expired.key)).json()).toMatchObject({ valid: false, reason: 'expired' })
  })

  it('nonexistent and malformed keys: valid false with the reason and nothing else', async () => {
    t = await createTestApp()
    expect((await test(`lk_live_${'Z'.repeat(32)}`)).json()).toEqual({ valid: false, reason: 'nonexistent' })
    for (const bad of ['lk_live_short', 'hello', '', `sk_live_${'a'.repeat(32)}`, `${t.ownerKey}x`]) {
      const res = await test(bad)
      expect(res.statusCode).toBe(200)
      expect(res.json(), bad).toEqual({ valid: false, reason: 'malformed' })
    }
    // a regenerated-away value is nonexistent
    const k = await t.createKey({ name: 'rotated' })
    await t.call('POST', `/api/keys/${k.id}/regenerate`)
    expect((await test(k.key)).json()).toEqual({ valid: false, reason: 'nonexistent' })
  })

  it('validates its body', async () => {
    t = await createTestApp()
    expectError(
      await t.call('POST', '/api/keys/test', { key: null, body: {} }),
      400,
      'ValidationError',
      '/api/keys/test',
    )
    expectError(
      await t.call('POST', '/api/keys/test', { key: null, body: { key: 'x'.repeat(201) } }),
      400,
      'ValidationError',
    )
    expectError(
      await t.call('POST', '/api/keys/test', { key: null, body: { key: 'x', extra: 1 } }),
      400,
      'ValidationError',
    )
  })

  it('is not logged as use of the tested key', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'observed' })
    await test(k.key)
    // even when a caller sends its own key along
    await t.call('POST', '/api/keys/test', { key: k.key, body: { key: k.key } })
    const got = (await t.call('GET', `/api/keys/${k.id}`)).json()
    expect(got.usage.totalRequests).toBe(0)
    expect(got.lastUsedAt).toBeNull()
  })
})
