/**
 * Whose keys a key may touch: every key route × the acting key's role × the target key's member
 * (its own member, or another member of each role). Owners act on every key; admins on every key
 * but owners'; members only on their own; viewers read their own and write none. Admins and owners
 * read every key's metadata. Another organization's key is a 404. The audit log names the member
 * whose key made the request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import { joinTeam, ownerMemberId, type Joined } from '../../support/team.js'
import { ROLES, type Role } from '../../../src/contract/scopes.js'

type Route = 'get' | 'activity' | 'patch' | 'delete' | 'regenerate' | 'revoke' | 'activate' | 'deactivate'
const ROUTES: Route[] = [
  'get',
  'activity',
  'patch',
  'delete',
  'regenerate',
  'revoke',
  'activate',
  'deactivate',
]
const READS = new Set<Route>(['get', 'activity'])
/** The target key: another key of the actor's own member, or a key of another member of a role. */
type Target = 'own' | Role

function send(t: TestApp, route: Route, id: string, key: string) {
  switch (route) {
    case 'get':
      return t.call('GET', `/api/keys/${id}`, { key })
    case 'activity':
      return t.call('GET', `/api/keys/${id}/activity`, { key })
    case 'patch':
      return t.call('PATCH', `/api/keys/${id}`, { key, body: { name: 'renamed' } })
    case 'delete':
      return t.call('DELETE', `/api/keys/${id}`, { key })
    default:
      return t.call('POST', `/api/keys/${id}/${route}`, { key })
  }
}

/** What the rule says: the status, and for a refusal its message. */
function expected(actor: Role, target: Target, route: Route): { status: number; message?: string } {
  const ok = { status: route === 'delete' ? 204 : 200 }
  if (!READS.has(route) && actor === 'viewer')
    return {
      status: 403,
      message: 'the viewer role does not allow keys:write; a team admin can change the role',
    }
  if (target === 'own' || actor === 'owner') return ok
  if (actor === 'admin')
    return READS.has(route) || target !== 'owner'
      ? ok
      : { status: 403, message: "an admin cannot act on an owner's keys" }
  return { status: 403, message: 'members manage only their own keys' }
}

describe('key routes × acting role × target member', () => {
  let t: TestApp
  /** The acting members (one per role) and, per role, another member whose keys are targets. */
  const actors = {} as Record<Role, Joined>
  const others = {} as Record<Role, string>
  beforeAll(async () => {
    t = await createTestApp()
    for (const role of ROLES) actors[role] = await joinTeam(t, role, `Actor ${role}`)
    for (const role of ROLES)
      others[role] =
        role === 'owner' ? await ownerMemberId(t) : (await joinTeam(t, role, `Other ${role}`)).memberId
  })
  afterAll(() => t.close())

  /** A fresh full-preset key of `memberId` (inactive when the route is activate). */
  async function targetKey(memberId: string, route: Route) {
    const { keys } = t.app.linkd.services
    const k = await keys.create(t.orgId, { name: `target ${route}`, preset: 'full' }, undefined, { memberId })
    if (route === 'activate') await keys.deactivate(t.orgId, k.id)
    return k
  }
  const works = async (key: string) => (await t.call('GET', '/api/team/me', { key })).statusCode === 200

  for (const actor of ROLES)
    for (const target of ['own', ...ROLES] as Target[])
      it(`${actor} on ${target === 'own' ? 'its own member' : `another ${target}`}'s key`, async () => {
        const memberId = target === 'own' ? actors[actor].memberId : others[target]
        for (const route of ROUTES) {
          const k = await targetKey(memberId, route)
          const res = await send(t, route, k.id, actors[actor].key)
          const want = expected(actor, target, route)
          const what = `${actor} ${route} → ${target}: ${res.body.slice(0, 200)}`
          if (want.message) {
            expect(expectError(res, want.status, 'Forbidden').message, what).toBe(want.message)
            expect(res.body, what).not.toMatch(/lk_live_/)
            // Refused: the target key is untouched and still works.
            const after = (await t.call('GET', `/api/keys/${k.id}`)).json<{ name: string; status: string }>()
            expect(after.name, what).toBe(k.name)
            expect(after.status, what).toBe(route === 'activate' ? 'inactive' : 'active')
            if (route !== 'activate') expect(await works(k.key), what).toBe(true)
            continue
          }
          expect(res.statusCode, what).toBe(want.status)
          if (route === 'regenerate') {
            const fresh = res.json<{ key: string }>().key
            expect(await works(k.key), what).toBe(false)
            expect(await works(fresh), what).toBe(true)
          }
          if (route === 'revoke' || route === 'delete' || route === 'deactivate')
            expect(await works(k.key), what).toBe(false)
          if (route === 'activate') expect(await works(k.key), what).toBe(true)
        }
      })

  it('GET /api/keys lists every key to owners and admins, only their own to members and viewers', async () => {
    const everyone = new Set([...ROLES.map((r) => actors[r].memberId), ...Object.values(others)])
    for (const actor of ROLES) {
      const res = await t.call('GET', '/api/keys?limit=100&status=active', { key: actors[actor].key })
      expect(res.statusCode, res.body).toBe(200)
      const members = new Set(res.json<{ data: Array<{ memberId: string }> }>().data.map((k) => k.memberId))
      if (actor === 'owner' || actor === 'admin') expect(members, actor).toEqual(everyone)
      else expect([...members], actor).toEqual([actors[actor].memberId])
    }
  })

  it('POST /api/keys makes a key for the calling member only: naming another member is a 400', async () => {
    for (const actor of ['owner', 'admin', 'member'] as const) {
      const res = await t.call('POST', '/api/keys', {
        key: actors[actor].key,
        body: { name: 'for someone else', preset: 'read-only', memberId: others.owner },
      })
      expect(expectError(res, 400, 'ValidationError').message, actor).toContain('memberId')
      const mine = await t.call('POST', '/api/keys', {
        key: actors[actor].key,
        body: { name: 'mine', preset: 'read-only' },
      })
      expect(mine.statusCode, mine.body).toBe(201)
      expect(mine.json<{ memberId: string }>().memberId).toBe(actors[actor].memberId)
    }
    const viewer = await t.call('POST', '/api/keys', {
      key: actors.viewer.key,
      body: { name: 'mine', preset: 'read-only' },
    })
    expect(expectError(viewer, 403, 'Forbidden').message).toContain('keys:write')
  })

  it("another organization's key is a 404 on every route, whatever the role", async () => {
    const other = await t.createOrg('elsewhere')
    const theirs = (await t.call('GET', '/api/keys', { key: other.ownerKey })).json<{
      data: Array<{ id: string }>
    }>().data[0]!.id
    for (const actor of ['owner', 'admin', 'member'] as const)
      for (const route of ROUTES)
        expectError(await send(t, route, theirs, actors[actor].key), 404, 'NotFound')
    expect(await works(other.ownerKey)).toBe(true)
  })
})

describe('an admin cannot take over the organization', () => {
  it("regenerating, editing or removing the owner's keys is refused; so is promoting itself or removing the owner", async () => {
    const t = await createTestApp()
    try {
      const admin = await joinTeam(t, 'admin', 'Mallory')
      const owner = await ownerMemberId(t)
      const ownerKeyId = (await t.call('GET', '/api/team/me')).json<{ key: { id: string } }>().key.id
      const regen = await t.call('POST', `/api/keys/${ownerKeyId}/regenerate`, { key: admin.key })
      expect(expectError(regen, 403, 'Forbidden').message).toBe("an admin cannot act on an owner's keys")
      expect(regen.body).not.toMatch(/lk_live_/)
      const patch = await t.call('PATCH', `/api/keys/${ownerKeyId}`, {
        key: admin.key,
        body: { permissions: ['links:read'] },
      })
      expectError(patch, 403, 'Forbidden')
      for (const verb of ['deactivate', 'revoke'])
        expectError(
          await t.call('POST', `/api/keys/${ownerKeyId}/${verb}`, { key: admin.key }),
          403,
          'Forbidden',
        )
      expectError(await t.call('DELETE', `/api/keys/${ownerKeyId}`, { key: admin.key }), 403, 'Forbidden')
      const promote = await t.call('PATCH', `/api/team/members/${admin.memberId}`, {
        key: admin.key,
        body: { role: 'owner' },
      })
      expect(expectError(promote, 403, 'Forbidden').message).toBe(
        'an admin cannot grant the owner role (above its own)',
      )
      const remove = await t.call('DELETE', `/api/team/members/${owner}`, { key: admin.key })
      expect(expectError(remove, 403, 'Forbidden').message).toBe('only an owner can remove an owner')
      // The owner and its key are as they were.
      const me = await t.call('GET', '/api/team/me')
      expect(me.statusCode).toBe(200)
      expect(me.json<{ member: { id: string; role: string } }>().member).toMatchObject({
        id: owner,
        role: 'owner',
      })
      expect(me.json<{ effectivePermissions: string[] }>().effectivePermissions).toContain('keys:write')
    } finally {
      await t.close()
    }
  })
})

describe('the audit log names the member whose key made the request', () => {
  it('for key regenerate, revoke and role changes, never the target member', async () => {
    const t = await createTestApp()
    try {
      const admin = await joinTeam(t, 'admin', 'Ad')
      const ana = await joinTeam(t, 'member', 'Ana')
      const owner = await ownerMemberId(t)
      const adminKeyId = admin.keyId
      expect((await t.call('POST', `/api/keys/${ana.keyId}/regenerate`, { key: admin.key })).statusCode).toBe(
        200,
      )
      const role = await t.call('PATCH', `/api/team/members/${ana.memberId}`, {
        key: admin.key,
        body: { role: 'viewer' },
      })
      expect(role.statusCode, role.body).toBe(200)
      expect((await t.call('POST', `/api/keys/${admin.keyId}/revoke`)).statusCode).toBe(200)
      const log = (await t.call('GET', '/api/audit-log')).json<{
        data: Array<{ action: string; memberId: string; keyId: string; resourceId: string }>
      }>().data
      const entry = (action: string) => log.find((e) => e.action === action)
      expect(entry('key.regenerate')).toMatchObject({
        memberId: admin.memberId,
        keyId: adminKeyId,
        resourceId: ana.keyId,
      })
      expect(entry('member.update')).toMatchObject({
        memberId: admin.memberId,
        keyId: adminKeyId,
        resourceId: ana.memberId,
      })
      expect(entry('key.revoke')).toMatchObject({ memberId: owner, resourceId: admin.keyId })
    } finally {
      await t.close()
    }
  })
})
