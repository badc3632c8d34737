/**
 * Team members and invitations through the API: listing, roles and their refusals (last owner,
 * admin vs owner, above one's own role), tenant isolation, invitation life cycle (create, list,
 * revoke, accept once, expiry on the injected clock, concurrent accepts), and GET /api/team/me.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import { joinTeam, ownerMemberId } from '../../support/team.js'
import { INVITATION_TOKEN_PATTERN, TEAM_LIMITS } from '../../../src/contract/team.js'
import { SCOPES } from '../../../src/contract/scopes.js'

let t: TestApp
beforeEach(async () => {
  t = await createTestApp()
})
afterEach(async () => {
  await t.close()
})

const invite = (body: Record<string, unknown>, key?: string) =>
  t.call('POST', '/api/team/invitations', { body, ...(key ? { key } : {}) })
const accept = (token: string, name = 'Ada') =>
  t.call('POST', '/api/team/invitations/accept', { key: null, body: { token, name } })

describe('members', () => {
  it('the organization starts with its Owner member, which owns the owner key', async () => {
    const res = await t.call('GET', '/api/team/members')
    expect(res.statusCode, res.body).toBe(200)
    const page = res.json<{ data: Array<Record<string, unknown>>; total: number }>()
    expect(page.total).toBe(1)
    expect(page.data[0]).toMatchObject({ name: 'Owner', role: 'owner', email: null, invitedBy: null })
    expect(page.data[0]!.id).toMatch(/^mem_/)
    const keys = (await t.call('GET', '/api/keys')).json<{ data: Array<{ memberId: string }> }>()
    expect(keys.data.map((k) => k.memberId)).toEqual([page.data[0]!.id])
  })

  it('a key created through the API belongs to the calling member', async () => {
    const ada = await joinTeam(t, 'member', 'Ada')
    const res = await t.call('POST', '/api/keys', {
      key: ada.key,
      body: { name: 'ada ci', preset: 'read-only' },
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json<{ memberId: string }>().memberId).toBe(ada.memberId)
  })

  it('PATCH changes the role; DELETE removes the member, revokes all its keys and hides it (404 after)', async () => {
    const ada = await joinTeam(t, 'member', 'Ada')
    const second = await t.createKey({ name: 'ada 2', preset: 'read-only' }, ada.key)
    const patched = await t.call('PATCH', `/api/team/members/${ada.memberId}`, { body: { role: 'viewer' } })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json()).toMatchObject({ id: ada.memberId, role: 'viewer', name: 'Ada' })

    const del = await t.call('DELETE', `/api/team/members/${ada.memberId}`)
    expect(del.statusCode, del.body).toBe(204)
    for (const id of [ada.keyId, second.id])
      expect((await t.call('GET', `/api/keys/${id}`)).json<{ status: string }>().status).toBe('revoked')
    const list = (await t.call('GET', '/api/team/members')).json<{ data: Array<{ id: string }> }>()
    expect(list.data.map((m) => m.id)).not.toContain(ada.memberId)
    expectError(await t.call('DELETE', `/api/team/members/${ada.memberId}`), 404, 'NotFound')
    expectError(
      await t.call('PATCH', `/api/team/members/${ada.memberId}`, { body: { role: 'member' } }),
      404,
      'NotFound',
    )
  })

  it('a removed member keeps its name and e-mail for the audit log: listed with include=removed, marked removedAt', async () => {
    const ana = await joinTeam(t, 'member', 'Ana')
    const link = await t.call('POST', '/api/use/links', {
      key: ana.key,
      body: { destinationUrl: 'https://example.com/ana' },
    })
    expect(link.statusCode, link.body).toBe(201)
    t.clock.advance(60_000)
    expect((await t.call('DELETE', `/api/team/members/${ana.memberId}`)).statusCode).toBe(204)
    const removedAt = new Date(t.clock.now()).toISOString()

    const current = (await t.call('GET', '/api/team/members')).json<{
      data: Array<{ id: string }>
      total: number
    }>()
    expect(current.data.map((m) => m.id)).not.toContain(ana.memberId)
    const all = await t.call('GET', '/api/team/members?include=removed')
    expect(all.statusCode, all.body).toBe(200)
    const page = all.json<{ data: Array<Record<string, unknown>>; total: number }>()
    expect(page.total).toBe(current.total + 1)
    expect(page.data.find((m) => m.id === ana.memberId)).toEqual({
      id: ana.memberId,
      name: 'Ana',
      email: 'ana@example.com',
      role: 'member',
      joinedAt: expect.any(String),
      invitedBy: await ownerMemberId(t),
      removedAt,
    })
    // Members still present carry no removedAt.
    expect(page.data.filter((m) => 'removedAt' in m).map((m) => m.id)).toEqual([ana.memberId])
    const log = (await t.call('GET', `/api/audit-log?memberId=${ana.memberId}`)).json<{
      data: Array<{ action: string }>
    }>()
    expect(log.data.map((e) => e.action)).toEqual(['link.create', 'invitation.accept'])

    // The e-mail can be invited again: a new member, the removed one still listed apart.
    const again = await joinTeam(t, 'viewer', 'Ana')
    const both = (await t.call('GET', '/api/team/members?include=removed')).json<{
      data: Array<{ id: string; email: string; removedAt?: string }>
    }>()
    expect(both.data.filter((m) => m.email === 'ana@example.com')).toEqual([
      expect.objectContaining({ id: ana.memberId, removedAt }),
      expect.not.objectContaining({ removedAt: expect.anything() }),
    ])
    expect(both.data.find((m) => m.id === again.memberId)).toBeDefined()
    expectError(await t.call('GET', '/api/team/members?include=everyone'), 400, 'ValidationError')
    // A removed member is still a 404 to act on.
    expectError(await t.call('DELETE', `/api/team/members/${ana.memberId}`), 404, 'NotFound')
  })

  it("another organization's member is a 404, never a 403", async () => {
    const other = await t.createOrg('other')
    const theirs = await t.call('GET', '/api/team/members', { key: other.ownerKey })
    const id = theirs.json<{ data: Array<{ id: string }> }>().data[0]!.id
    expectError(
      await t.call('PATCH', `/api/team/members/${id}`, { body: { role: 'viewer' } }),
      404,
      'NotFound',
    )
    expectError(await t.call('DELETE', `/api/team/members/${id}`), 404, 'NotFound')
    const mine = (await t.call('GET', '/api/team/members')).json<{ data: Array<{ id: string }> }>()
    expect(mine.data.map((m) => m.id)).not.toContain(id)
  })

  it('the last owner can be neither demoted nor removed (409); with a second owner it can', async () => {
    const owner = await ownerMemberId(t)
    const demote = await t.call('PATCH', `/api/team/members/${owner}`, { body: { role: 'admin' } })
    expect(expectError(demote, 409, 'Conflict').message).toContain('last owner')
    expect(
      expectError(await t.call('DELETE', `/api/team/members/${owner}`), 409, 'Conflict').message,
    ).toContain('last owner')
    await joinTeam(t, 'owner', 'Second')
    const ok = await t.call('PATCH', `/api/team/members/${owner}`, { body: { role: 'admin' } })
    expect(ok.statusCode, ok.body).toBe(200)
  })

  it('an admin cannot change or remove an owner (403); nobody promotes above its own role (403)', async () => {
    const owner = await ownerMemberId(t)
    const admin = await joinTeam(t, 'admin', 'Admin')
    const m = await joinTeam(t, 'member', 'Mem')
    const change = await t.call('PATCH', `/api/team/members/${owner}`, {
      key: admin.key,
      body: { role: 'viewer' },
    })
    expect(expectError(change, 403, 'Forbidden').message).toContain('only an owner')
    expectError(await t.call('DELETE', `/api/team/members/${owner}`, { key: admin.key }), 403, 'Forbidden')
    const promote = await t.call('PATCH', `/api/team/members/${m.memberId}`, {
      key: admin.key,
      body: { role: 'owner' },
    })
    expect(expectError(promote, 403, 'Forbidden').message).toContain('above its own')
    // Within its own role it may.
    const ok = await t.call('PATCH', `/api/team/members/${m.memberId}`, {
      key: admin.key,
      body: { role: 'admin' },
    })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(
      expectError(await invite({ email: 'x@example.com', role: 'owner' }, admin.key), 403, 'Forbidden')
        .message,
    ).toContain('above its own')
  })
})

describe('invitations', () => {
  it('an address that is not one is refused in words, with an example', async () => {
    const body = expectError(await invite({ email: 'notanemail' }), 400, 'ValidationError')
    expect(body.details).toEqual([
      { field: 'email', message: 'must be an e-mail address such as ana@example.com' },
    ])
  })
  it('create answers the token once (lkinv_, 7 days, pending, default member); list never shows it', async () => {
    const res = await invite({ email: 'ada@example.com' })
    expect(res.statusCode, res.body).toBe(201)
    const inv = res.json<Record<string, string>>()
    expect(inv.token).toMatch(INVITATION_TOKEN_PATTERN)
    expect(inv.id).toMatch(/^inv_/)
    expect(inv).toMatchObject({ email: 'ada@example.com', role: 'member', status: 'pending' })
    expect(Date.parse(inv.expiresAt!) - t.clock.now()).toBe(TEAM_LIMITS.invitationDays * 86_400_000)
    const list = await t.call('GET', '/api/team/invitations')
    expect(list.statusCode).toBe(200)
    expect(list.body).not.toContain(inv.token)
    expect(list.json<{ data: Array<{ id: string; status: string }> }>().data).toEqual([
      expect.objectContaining({ id: inv.id, status: 'pending', invitedBy: await ownerMemberId(t) }),
    ])
  })

  it('an e-mail is stored lower-cased; inviting it again while pending, or once a member, is 409', async () => {
    const first = await invite({ email: 'Ada@Example.COM' })
    expect(first.statusCode, first.body).toBe(201)
    const inv = first.json<{ id: string; email: string; token: string }>()
    expect(inv.email).toBe('ada@example.com')
    const again = expectError(await invite({ email: 'ADA@example.com' }), 409, 'Conflict')
    expect(again.message).toBe(
      `ada@example.com already has a pending invitation (${inv.id}); revoke it to invite again`,
    )
    expect((await t.call('DELETE', `/api/team/invitations/${inv.id}`)).statusCode).toBe(204)
    const second = (await invite({ email: 'ada@example.com' })).json<{ token: string }>()
    const joined = (await accept(second.token)).json<{ member: { id: string } }>()
    const member = expectError(await invite({ email: 'Ada@example.com' }), 409, 'Conflict')
    expect(member.message).toBe(`ada@example.com is already a member (${joined.member.id})`)
    expect((await t.call('DELETE', `/api/team/members/${joined.member.id}`)).statusCode).toBe(204)
    expect((await invite({ email: 'ada@example.com' })).statusCode).toBe(201)
  })

  it('accept needs no key: 201 with the member and its first key (full preset, shown once); a second use is 410', async () => {
    const inv = (await invite({ email: 'ada@example.com', role: 'admin' })).json<{
      token: string
      id: string
    }>()
    const res = await accept(inv.token, 'Ada Lovelace')
    expect(res.statusCode, res.body).toBe(201)
    const body = res.json<{ member: Record<string, unknown>; apiKey: Record<string, unknown> }>()
    expect(body.member).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'admin',
      invitedBy: await ownerMemberId(t),
    })
    expect(body.apiKey).toMatchObject({
      name: "Ada Lovelace's key",
      memberId: body.member.id,
      permissions: [...SCOPES],
    })
    const me = await t.call('GET', '/api/team/me', { key: body.apiKey.key as string })
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json()).toMatchObject({
      member: { id: body.member.id, role: 'admin' },
      key: { id: body.apiKey.id, name: "Ada Lovelace's key", preview: body.apiKey.preview },
      organization: { id: t.orgId, name: 'default' },
      permissions: [...SCOPES],
      effectivePermissions: [...SCOPES],
    })
    const again = await accept(inv.token, 'Eve')
    expect(expectError(again, 410, 'Gone').message).toContain('accepted')
    const list = (await t.call('GET', '/api/team/invitations?status=accepted')).json<{
      data: Array<{ id: string }>
    }>()
    expect(list.data.map((i) => i.id)).toEqual([inv.id])
  })

  it('an unknown or malformed token is 404', async () => {
    expectError(await accept(`lkinv_${'x'.repeat(32)}`), 404, 'NotFound')
    expectError(await accept('not-a-token'), 404, 'NotFound')
  })

  it('an expired invitation is 410 and lists as expired', async () => {
    const inv = (await invite({ email: 'ada@example.com' })).json<{ token: string; id: string }>()
    t.clock.advance(TEAM_LIMITS.invitationDays * 86_400_000)
    expect(expectError(await accept(inv.token), 410, 'Gone').message).toContain('expired')
    const list = (await t.call('GET', '/api/team/invitations')).json<{ data: Array<{ status: string }> }>()
    expect(list.data.map((i) => i.status)).toEqual(['expired'])
    expect(
      (await t.call('GET', '/api/team/invitations?status=pending')).json<{ total: number }>().total,
    ).toBe(0)
  })

  it('DELETE revokes a pending invitation (204); then accept is 410 and DELETE again 409', async () => {
    const inv = (await invite({ email: 'ada@example.com' })).json<{ token: string; id: string }>()
    expect((await t.call('DELETE', `/api/team/invitations/${inv.id}`)).statusCode).toBe(204)
    expect(expectError(await accept(inv.token), 410, 'Gone').message).toContain('revoked')
    expect(
      expectError(await t.call('DELETE', `/api/team/invitations/${inv.id}`), 409, 'Conflict').message,
    ).toContain('revoked')
    expectError(await t.call('DELETE', '/api/team/invitations/inv_unknown'), 404, 'NotFound')
  })

  it('removing a member revokes its pending invitations: accept is 410 saying why, and nobody joins', async () => {
    const admin = await joinTeam(t, 'admin', 'Adm')
    const pending = (await invite({ email: 'eve@example.com', role: 'admin' }, admin.key)).json<{
      token: string
      id: string
    }>()
    const used = (await invite({ email: 'bob@example.com' }, admin.key)).json<{ token: string }>()
    const bob = (await accept(used.token, 'Bob')).json<{ member: { id: string } }>().member
    const mine = (await invite({ email: 'kim@example.com' })).json<{ token: string }>()
    expect((await t.call('DELETE', `/api/team/members/${admin.memberId}`)).statusCode).toBe(204)

    const refused = expectError(await accept(pending.token, 'Eve'), 410, 'Gone')
    expect(refused.message).toBe(
      'this invitation was revoked because the member who sent it was removed; ask a team admin for a new one',
    )
    const list = (await t.call('GET', '/api/team/invitations')).json<{
      data: Array<{ id: string; status: string }>
    }>()
    expect(list.data.find((i) => i.id === pending.id)?.status).toBe('revoked')
    const members = (await t.call('GET', '/api/team/members')).json<{ data: Array<{ id: string }> }>()
    expect(members.data.map((m) => m.id).sort()).toEqual([await ownerMemberId(t), bob.id].sort())
    // Members it invited earlier stay; other members' invitations still work; the e-mail can be invited again.
    expect((await accept(mine.token, 'Kim')).statusCode).toBe(201)
    expect((await invite({ email: 'eve@example.com' })).statusCode).toBe(201)
  })

  it('an invitation that landed while its inviter was being removed is refused the same way', async () => {
    const admin = await joinTeam(t, 'admin', 'Adm')
    const inv = (await invite({ email: 'eve@example.com' }, admin.key)).json<{ token: string; id: string }>()
    // As if the removal had finished just before this invitation was written.
    await sqlRows(t, 'UPDATE members SET removed_at = ? WHERE id = ?', t.clock.now(), admin.memberId)
    const refused = expectError(await accept(inv.token, 'Eve'), 410, 'Gone')
    expect(refused.message).toContain('revoked because the member who sent it was removed')
    const list = (await t.call('GET', '/api/team/invitations')).json<{
      data: Array<{ id: string; status: string }>
    }>()
    expect(list.data.find((i) => i.id === inv.id)?.status).toBe('revoked')
  })

  it('two concurrent accepts of one token: one 201, one 410, one new member', async () => {
    const inv = (await invite({ email: 'ada@example.com' })).json<{ token: string }>()
    const results = await Promise.all([accept(inv.token, 'One'), accept(inv.token, 'Two')])
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 410])
    const members = (await t.call('GET', '/api/team/members')).json<{ total: number }>()
    expect(members.total).toBe(2)
  })

  it('a member cannot invite (team:write is not in its role): 403 naming the scope', async () => {
    const m = await joinTeam(t, 'member', 'Mem')
    const res = await invite({ email: 'x@example.com' }, m.key)
    expect(expectError(res, 403, 'Forbidden').message).toContain('team:write')
  })

  it('bad input is a 400 with details, never a 500', async () => {
    expectError(await invite({ email: 'nope' }), 400, 'ValidationError')
    expectError(await invite({ email: 'a@example.com', role: 'god' }), 400, 'ValidationError')
    expectError(
      await t.call('POST', '/api/team/invitations/accept', { key: null, body: { token: 'x' } }),
      400,
      'ValidationError',
    )
  })
})
