/**
 * Roles bound keys at every request: a matrix over the app's own route table (GET /api/use) ×
 * the four roles, live demotion and removal, the keys rules of members (own keys only, never
 * beyond their effective scopes), and the per-member rate-limit tier.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import { joinTeam, type Joined } from '../../support/team.js'
import { ROLES, ROLE_SCOPES, type Role, type Scope } from '../../../src/contract/scopes.js'

let t: TestApp
afterEach(async () => {
  await t.close()
})

describe('role × route matrix', () => {
  beforeEach(async () => {
    t = await createTestApp()
  })

  it('every scoped route refuses exactly the roles whose scopes lack its scope (403 naming it)', async () => {
    const routes = (await t.call('GET', '/api/use', { key: null })).json<{
      routes: Array<{ method: string; path: string; permission: string | null }>
    }>().routes
    const scoped = routes.filter((r) => r.permission !== null && r.permission.includes(':'))
    expect(scoped.length).toBeGreaterThan(40)
    expect(scoped.map((r) => r.path)).toContain('/api/team/members/:id')
    const keys: Record<Role, string> = {
      owner: t.ownerKey,
      admin: (await joinTeam(t, 'admin')).key,
      member: (await joinTeam(t, 'member')).key,
      viewer: (await joinTeam(t, 'viewer')).key,
    }
    for (const role of ROLES) {
      for (const r of scoped) {
        const scope = r.permission as Scope
        // An unknown id and a body no route accepts: the request stops at validation or look-up.
        const url = r.path.replace(/:\w+/g, 'zz_unknown')
        const res = await t.call(r.method as 'GET', url, {
          key: keys[role],
          ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { body: { zz_not_a_field: true } }),
        })
        const what = `${role} ${r.method} ${r.path} (${scope}): ${res.statusCode} ${res.body.slice(0, 200)}`
        if (ROLE_SCOPES[role].includes(scope)) expect(res.statusCode, what).not.toBe(403)
        else {
          expect(res.statusCode, what).toBe(403)
          expect(res.json<{ message: string }>().message, what).toBe(
            `the ${role} role does not allow ${scope}; a team admin can change the role`,
          )
        }
      }
    }
  })
})

describe('live keys follow their member', () => {
  let admin: Joined
  beforeEach(async () => {
    t = await createTestApp()
    admin = await joinTeam(t, 'admin', 'Admin')
  })

  it('a demotion narrows the live key at its next request', async () => {
    const before = await t.call('GET', '/api/team/invitations', { key: admin.key })
    expect(before.statusCode).toBe(200)
    const inv = await t.call('POST', '/api/team/invitations', {
      key: admin.key,
      body: { email: 'a@example.com' },
    })
    expect(inv.statusCode).toBe(201)
    await t.call('PATCH', `/api/team/members/${admin.memberId}`, { body: { role: 'viewer' } })
    const write = await t.call('POST', '/api/use/links', {
      key: admin.key,
      body: { destinationUrl: 'https://example.com/' },
    })
    expect(expectError(write, 403, 'Forbidden').message).toContain('links:write')
    expect((await t.call('GET', '/api/use/links', { key: admin.key })).statusCode).toBe(200)
    const me = (await t.call('GET', '/api/team/me', { key: admin.key })).json<{
      member: { role: string }
      effectivePermissions: string[]
    }>()
    expect(me.member.role).toBe('viewer')
    expect(me.effectivePermissions.every((s) => s.endsWith(':read'))).toBe(true)
  })

  it("a removed member's keys are refused (401) at their next request", async () => {
    expect((await t.call('GET', '/api/team/me', { key: admin.key })).statusCode).toBe(200)
    expect((await t.call('DELETE', `/api/team/members/${admin.memberId}`)).statusCode).toBe(204)
    expectError(await t.call('GET', '/api/team/me', { key: admin.key }), 401, 'Unauthorized')
  })
})

describe('keys rules of members and viewers', () => {
  beforeEach(async () => {
    t = await createTestApp()
  })

  it('a member sees and acts on its own keys only (403 on another member’s), an admin on any', async () => {
    const a = await joinTeam(t, 'member', 'A')
    const b = await joinTeam(t, 'member', 'B')
    const admin = await joinTeam(t, 'admin', 'Admin')
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/activity'],
      ['PATCH', ''],
      ['POST', '/regenerate'],
      ['POST', '/revoke'],
      ['POST', '/deactivate'],
      ['POST', '/activate'],
      ['DELETE', ''],
    ] as const) {
      const res = await t.call(method, `/api/keys/${b.keyId}${suffix}`, {
        key: a.key,
        ...(method === 'PATCH' ? { body: { name: 'taken' } } : {}),
      })
      expect(expectError(res, 403, 'Forbidden').message, `${method} ${suffix}`).toBe(
        'members manage only their own keys',
      )
    }
    const list = (await t.call('GET', '/api/keys', { key: a.key })).json<{ data: Array<{ id: string }> }>()
    expect(list.data.map((k) => k.id)).toEqual([a.keyId])
    expect((await t.call('GET', `/api/keys/${b.keyId}`, { key: admin.key })).statusCode).toBe(200)
    const all = (await t.call('GET', '/api/keys', { key: admin.key })).json<{ total: number }>()
    expect(all.total).toBe(4)
  })

  it('a member grants nothing beyond its effective scopes, yet manages its own full-preset keys', async () => {
    const a = await joinTeam(t, 'member', 'A')
    const full = await t.call('POST', '/api/keys', { key: a.key, body: { name: 'full', preset: 'full' } })
    expect(expectError(full, 403, 'Forbidden').message).toContain('team:write')
    const second = await t.app.linkd.services.keys.create(
      t.orgId,
      { name: 'second', preset: 'full' },
      undefined,
      {
        memberId: a.memberId,
      },
    )
    const regen = await t.call('POST', `/api/keys/${second.id}/regenerate`, { key: a.key })
    expect(regen.statusCode, regen.body).toBe(200)
    const off = await t.call('POST', `/api/keys/${second.id}/deactivate`, { key: a.key })
    expect(off.statusCode, off.body).toBe(200)
  })

  it("a viewer's full-preset key does not count as a key manager: the owner cannot revoke its last one", async () => {
    const viewer = await joinTeam(t, 'viewer', 'Vi')
    const me = await t.call('GET', '/api/team/me')
    const ownerKeyId = me.json<{ key: { id: string } }>().key.id
    const refused = await t.call('POST', `/api/keys/${ownerKeyId}/revoke`)
    expect(expectError(refused, 409, 'Conflict').message).toMatch(/last active/)
    // Promoted to admin, the same key manages keys: now the owner key may go.
    const promote = await t.call('PATCH', `/api/team/members/${viewer.memberId}`, { body: { role: 'admin' } })
    expect(promote.statusCode, promote.body).toBe(200)
    const ok = await t.call('POST', `/api/keys/${ownerKeyId}/deactivate`)
    expect(ok.statusCode, ok.body).toBe(200)
  })
})

describe('per-member rate limit', () => {
  it('all keys of one member share the member window; another member still passes', async () => {
    t = await createTestApp({ rateLimitPerMember: 2 })
    const a = await joinTeam(t, 'member', 'A')
    const second = await t.app.linkd.services.keys.create(
      t.orgId,
      { name: 'a2', preset: 'read-only' },
      undefined,
      {
        memberId: a.memberId,
      },
    )
    t.clock.advance(60_000) // a fresh minute: setup requests are forgotten
    expect((await t.call('GET', '/api/use/links', { key: a.key })).statusCode).toBe(200)
    expect((await t.call('GET', '/api/use/links', { key: second.key })).statusCode).toBe(200)
    const third = await t.call('GET', '/api/use/links', { key: a.key })
    expect(expectError(third, 429, 'RateLimitExceeded').message).toContain('per member')
    expect(third.headers['x-ratelimit-limit']).toBe('2')
    expect(third.headers['x-ratelimit-remaining']).toBe('0')
    expect(third.headers['retry-after']).toBeDefined()
    const other = await t.call('GET', '/api/use/links')
    expect(other.statusCode).toBe(200)
    expect(other.headers['x-ratelimit-limit']).not.toBe('2')
  })
})

describe('team routes × acting role × target member', () => {
  /** What the rules say: null when allowed, else the 403 message. */
  function refusal(actor: Role, target: Role, verb: string): string | null {
    if (actor === 'member' || actor === 'viewer')
      return `the ${actor} role does not allow team:write; a team admin can change the role`
    if (actor === 'admin' && target === 'owner')
      return verb === 'invite'
        ? 'an admin cannot grant the owner role (above its own)'
        : `only an owner can ${verb} an owner`
    return null
  }

  it('owners change, remove and invite anyone; admins anyone but owners; members and viewers nobody', async () => {
    t = await createTestApp()
    const actors = {} as Record<Role, Joined>
    for (const role of ROLES) actors[role] = await joinTeam(t, role, `Actor ${role}`)
    let n = 0
    for (const actor of ROLES)
      for (const target of ROLES) {
        const what = `${actor} → ${target}`
        const other = await joinTeam(t, target, `T${n++}`)
        // A role change away from the target's role and back, then the removal.
        const to: Role = target === 'viewer' ? 'member' : 'viewer'
        const change = await t.call('PATCH', `/api/team/members/${other.memberId}`, {
          key: actors[actor].key,
          body: { role: to },
        })
        const changeRefused = refusal(actor, target, 'change')
        if (changeRefused) expect(expectError(change, 403, 'Forbidden').message, what).toBe(changeRefused)
        else expect(change.json<{ role: string }>().role, what).toBe(to)
        // Promoting someone to the target role (from viewer).
        const promote = await t.call('PATCH', `/api/team/members/${actors.viewer.memberId}`, {
          key: actors[actor].key,
          body: { role: target },
        })
        const promoteRefused = refusal(actor, target, 'invite')
        if (promoteRefused) expect(expectError(promote, 403, 'Forbidden').message, what).toBe(promoteRefused)
        else expect(promote.statusCode, what).toBe(200)
        expect(
          (await t.call('PATCH', `/api/team/members/${actors.viewer.memberId}`, { body: { role: 'viewer' } }))
            .statusCode,
        ).toBe(200)
        const remove = await t.call('DELETE', `/api/team/members/${other.memberId}`, {
          key: actors[actor].key,
        })
        const removeRefused = refusal(actor, changeRefused ? target : to, 'remove')
        if (removeRefused) expect(expectError(remove, 403, 'Forbidden').message, what).toBe(removeRefused)
        else expect(remove.statusCode, what).toBe(204)
        const invite = await t.call('POST', '/api/team/invitations', {
          key: actors[actor].key,
          body: { email: `inv${n}@example.com`, role: target },
        })
        const inviteRefused = refusal(actor, target, 'invite')
        if (inviteRefused) expect(expectError(invite, 403, 'Forbidden').message, what).toBe(inviteRefused)
        else expect(invite.json<{ role: string }>().role, what).toBe(target)
      }
    // Nobody's refusal changed a thing: the owner is still the owner.
    const me = await t.call('GET', '/api/team/me')
    expect(me.json<{ member: { role: string } }>().member.role).toBe('owner')
  })
})
