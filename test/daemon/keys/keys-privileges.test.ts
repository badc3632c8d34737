/**
 * Key privileges: acting on a key (PATCH, regenerate, revoke, delete, activate,
 * deactivate) needs every scope the target key holds; a key may always act on itself; and the
 * organization's last active key holding keys:write cannot be revoked, deactivated, deleted or
 * stripped of keys:write, so an organization cannot lock itself out of key management; nor can
 * its last active key holding every scope (no weaker key could reactivate it).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { createTestApp, type TestApp } from '../../support/app.js'
import { SCOPES } from '../../../src/contract/scopes.js'
import { expectError } from '../../support/responses.js'

const HOUR = 3_600_000

type Verb = 'patch' | 'regenerate' | 'revoke' | 'delete' | 'activate' | 'deactivate'
const VERBS: Verb[] = ['patch', 'regenerate', 'revoke', 'delete', 'activate', 'deactivate']

/** One verb on key `id`, sent with `key`. */
function act(t: TestApp, verb: Verb, id: string, key: string, body: unknown = { name: 'renamed' }) {
  if (verb === 'patch') return t.call('PATCH', `/api/keys/${id}`, { key, body })
  if (verb === 'delete') return t.call('DELETE', `/api/keys/${id}`, { key })
  return t.call('POST', `/api/keys/${id}/${verb}`, { key })
}

const ownerId = async (t: TestApp): Promise<string> =>
  (await t.call('GET', '/api/keys?search=owner')).json<{ data: { id: string }[] }>().data[0]!.id

const okStatus = (verb: Verb) => (verb === 'delete' ? 204 : 200)

describe('acting on a key needs every scope it holds', () => {
  let t: TestApp
  let owner: string
  beforeEach(async () => {
    t = await createTestApp()
    owner = await ownerId(t)
  })
  afterEach(() => t.close())

  it.each(VERBS)(
    '%s: a keys:write-only key gets 403 naming the missing scopes on the owner key',
    async (verb) => {
      const admin = await t.createKey({ name: 'key admin', permissions: ['keys:read', 'keys:write'] })
      const state = async () => {
        const k = (await t.call('GET', `/api/keys/${owner}`)).json()
        return [k.name, k.status, k.permissions, k.preview, k.updatedAt, k.revokedAt]
      }
      const before = await state()
      const res = await act(t, verb, owner, admin.key)
      const err = expectError(res, 403, 'Forbidden')
      const missing = SCOPES.filter((s) => s !== 'keys:read' && s !== 'keys:write')
      expect(err.message).toBe(`this key lacks ${missing.join(', ')} held by the target key`)
      expect(res.body).not.toMatch(/lk_live_/)
      // Nothing changed: same value, status, name and scopes; the owner key still works.
      expect(await state()).toEqual(before)
      expect((await t.call('GET', '/api/keys')).statusCode).toBe(200)
    },
  )

  it.each(VERBS)(
    '%s: allowed on a key whose scopes the caller holds (aliases compared canonically)',
    async (verb) => {
      const admin = await t.createKey({
        name: 'key admin',
        permissions: ['keys:write', 'qr:read', 'links:read'],
      })
      const target = await t.createKey({ name: 'target', permissions: ['qrCodes:read', 'links:read'] })
      if (verb === 'activate') await t.call('POST', `/api/keys/${target.id}/deactivate`)
      const res = await act(t, verb, target.id, admin.key)
      expect(res.statusCode, res.body).toBe(okStatus(verb))
      if (verb === 'regenerate') expect(res.json().key).toMatch(/^lk_live_/)
      // A key with no scopes at all is fair game too.
      const empty = await t.createKey({ name: 'empty' })
      expect((await act(t, verb, empty.id, admin.key)).statusCode).toBe(okStatus(verb))
    },
  )

  it.each(VERBS)('%s: a key may always act on itself', async (verb) => {
    const admin = await t.createKey({ name: 'key admin', permissions: ['keys:write'] })
    // Acting on itself needs nothing more than keys:write; activate is tried on an active key.
    const res = await act(t, verb, admin.id, admin.key)
    expect(res.statusCode, res.body).toBe(okStatus(verb))
  })

  it('only the scopes the caller lacks are named', async () => {
    const admin = await t.createKey({ name: 'admin', permissions: ['keys:write', 'links:read'] })
    const target = await t.createKey({
      name: 'target',
      permissions: ['links:read', 'links:write', 'qr:write'],
    })
    const err = expectError(await act(t, 'revoke', target.id, admin.key), 403, 'Forbidden')
    expect(err.message).toBe('this key lacks links:write, qrCodes:write held by the target key')
    expect((await t.call('GET', `/api/keys/${target.id}`)).json().status).toBe('active')
  })

  it('PATCH of permissions: the target check and the "grant only what you hold" rule both apply', async () => {
    const admin = await t.createKey({
      name: 'admin',
      permissions: ['keys:write', 'links:read', 'links:write'],
    })
    const target = await t.createKey({ name: 'target', permissions: ['links:read'] })
    // Target held, new scopes held: fine.
    const ok = await act(t, 'patch', target.id, admin.key, { permissions: ['links:write'] })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json().permissions).toEqual(['links:write'])
    // Target held, new scope not held: the existing grant rule.
    const grant = expectError(
      await act(t, 'patch', target.id, admin.key, { permissions: ['analytics:read'] }),
      403,
      'Forbidden',
    )
    expect(grant.message).toContain('cannot grant scopes it does not hold: analytics:read')
    // Stripping a stronger key down to what the caller holds is refused: the target check.
    const strong = await t.createKey({ name: 'strong', permissions: ['links:read', 'webhooks:write'] })
    const strip = expectError(
      await act(t, 'patch', strong.id, admin.key, { permissions: ['links:read'] }),
      403,
      'Forbidden',
    )
    expect(strip.message).toBe('this key lacks webhooks:write held by the target key')
    // On itself, a key still cannot grant itself more.
    expectError(
      await act(t, 'patch', admin.id, admin.key, { permissions: ['analytics:read'] }),
      403,
      'Forbidden',
    )
  })
})

describe('the last active key holding keys:write, or every scope', () => {
  let t: TestApp
  let owner: string
  beforeEach(async () => {
    t = await createTestApp()
    owner = await ownerId(t)
  })
  afterEach(() => t.close())

  const refused = (res: LightMyRequestResponse, what: string) => {
    const err = expectError(res, 409, 'Conflict')
    expect(err.message).toContain(what)
    expect(err.message).toContain('linkd keys create')
    return err
  }
  const lastKeyError = (res: LightMyRequestResponse) => refused(res, 'last active API key with keys:write')
  const lastFullKeyError = (res: LightMyRequestResponse) =>
    refused(res, 'last active key holding every scope')

  it('cannot be revoked, deactivated, deleted or lose keys:write; other changes are fine', async () => {
    lastKeyError(await act(t, 'revoke', owner, t.ownerKey))
    lastKeyError(await act(t, 'deactivate', owner, t.ownerKey))
    lastKeyError(await act(t, 'delete', owner, t.ownerKey))
    lastKeyError(await act(t, 'patch', owner, t.ownerKey, { permissions: ['keys:read', 'links:read'] }))
    expect((await t.call('GET', `/api/keys/${owner}`)).json()).toMatchObject({
      status: 'active',
      permissions: [...SCOPES],
    })
    // Renaming and regenerating stay possible.
    expect((await act(t, 'patch', owner, t.ownerKey, { name: 'boss' })).statusCode).toBe(200)
    const regen = await act(t, 'regenerate', owner, t.ownerKey)
    expect(regen.statusCode).toBe(200)
    expect((await t.call('GET', '/api/keys', { key: regen.json().key })).statusCode).toBe(200)
  })

  it('another active keys:write key lifts the guard; inactive and expired ones do not count', async () => {
    const second = await t.createKey({ name: 'second', preset: 'full' })
    await act(t, 'deactivate', second.id, t.ownerKey)
    lastKeyError(await act(t, 'revoke', owner, t.ownerKey))
    await act(t, 'activate', second.id, t.ownerKey)
    const lapsing = await t.createKey({
      name: 'lapsing',
      permissions: ['keys:write'],
      expiresAt: new Date(t.clock.now() + HOUR).toISOString(),
    })
    expect((await act(t, 'revoke', second.id, t.ownerKey)).statusCode).toBe(200)
    // `lapsing` still holds keys:write for an hour: the owner may go.
    t.clock.advance(2 * HOUR)
    lastKeyError(await act(t, 'revoke', owner, t.ownerKey))
    expect((await t.call('GET', `/api/keys/${lapsing.id}`)).json().status).toBe('expired')
  })

  it('a second keys:write key can revoke the owner; then it is the last one', async () => {
    const second = await t.createKey({ name: 'second', preset: 'full' })
    expect((await act(t, 'revoke', owner, second.key)).statusCode).toBe(200)
    lastKeyError(await act(t, 'revoke', second.id, second.key))
    lastKeyError(await act(t, 'delete', second.id, second.key))
    // Keys without keys:write, or not active, are not guarded.
    const reader = await t.createKey({ name: 'reader', preset: 'read-only' }, second.key)
    expect((await act(t, 'delete', reader.id, second.key)).statusCode).toBe(204)
    const spare = await t.createKey({ name: 'spare', permissions: ['keys:write'] }, second.key)
    await act(t, 'deactivate', spare.id, second.key)
    expect((await act(t, 'delete', spare.id, second.key)).statusCode).toBe(204)
  })

  it("another organization's keys do not count", async () => {
    await t.createOrg('acme')
    lastKeyError(await act(t, 'deactivate', owner, t.ownerKey))
    // Refused before any change: the owner key still works.
    expect((await t.call('GET', `/api/keys/${owner}`)).json()).toMatchObject({ id: owner, status: 'active' })
  })

  it('cannot be deactivated, revoked, deleted or narrowed while only weaker keys:write keys remain', async () => {
    // Without the guard, the admin key below could never reactivate the owner key (it lacks scopes).
    const admin = await t.createKey({ name: 'key admin', permissions: ['keys:read', 'keys:write'] })
    lastFullKeyError(await act(t, 'deactivate', owner, t.ownerKey))
    lastFullKeyError(await act(t, 'revoke', owner, t.ownerKey))
    lastFullKeyError(await act(t, 'delete', owner, t.ownerKey))
    lastFullKeyError(await act(t, 'patch', owner, t.ownerKey, { permissions: ['keys:read', 'keys:write'] }))
    expect((await t.call('GET', `/api/keys/${owner}`)).json()).toMatchObject({
      status: 'active',
      permissions: [...SCOPES],
    })
    // The weaker key itself may still go (the owner key can manage keys).
    expect((await act(t, 'deactivate', admin.id, t.ownerKey)).statusCode).toBe(200)
  })

  it('a second active key with every scope lifts the guard', async () => {
    const second = await t.createKey({ name: 'second', preset: 'full' })
    const fewer = await act(t, 'patch', owner, t.ownerKey, { permissions: ['keys:read', 'keys:write'] })
    expect(fewer.statusCode, fewer.body).toBe(200)
    expect((await act(t, 'deactivate', owner, second.key)).statusCode).toBe(200)
    // The second key can bring the owner key back: it holds every scope the owner key holds.
    expect((await act(t, 'activate', owner, second.key)).statusCode).toBe(200)
  })
})

describe('the API description of the key routes', () => {
  it('documents 403 (missing scopes of the target) and 409 (last keys:write key) on each verb', async () => {
    const t = await createTestApp()
    try {
      const doc = (await t.call('GET', '/api/docs/openapi.json', { key: null })).json<{
        paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>
      }>()
      const responses = (path: string, method: string) => doc.paths[path]![method]!.responses
      for (const [path, method] of [
        ['/api/keys/{id}', 'patch'],
        ['/api/keys/{id}', 'delete'],
        ['/api/keys/{id}/regenerate', 'post'],
        ['/api/keys/{id}/revoke', 'post'],
        ['/api/keys/{id}/activate', 'post'],
        ['/api/keys/{id}/deactivate', 'post'],
      ] as const) {
        const r = responses(path, method)
        expect(r['403']?.description, `${method} ${path}`).toMatch(/scope the target key holds/)
        expect(r['409']?.description, `${method} ${path}`).toBeTruthy()
      }
      for (const [path, method] of [
        ['/api/keys/{id}', 'patch'],
        ['/api/keys/{id}', 'delete'],
        ['/api/keys/{id}/revoke', 'post'],
        ['/api/keys/{id}/deactivate', 'post'],
      ] as const)
        expect(responses(path, method)['409']!.description).toMatch(/last active key with keys:write/)
    } finally {
      await t.close()
    }
  })
})
