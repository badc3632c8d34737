import { expect } from 'vitest'
import type { TestApp } from './app.js'
import type { Role } from '../../src/contract/scopes.js'

/** A member who joined by invitation (made with the owner key unless `by`), with its first key. */
export interface Joined {
  memberId: string
  key: string
  keyId: string
}

/** Invites `email` with `role` and accepts as `name`: the new member and its full-preset key. */
export async function joinTeam(t: TestApp, role: Role, name: string = role, by?: string): Promise<Joined> {
  const inv = await t.call('POST', '/api/team/invitations', {
    body: { email: `${name.replace(/\W/g, '')}@example.com`, role },
    ...(by ? { key: by } : {}),
  })
  expect(inv.statusCode, inv.body).toBe(201)
  const acc = await t.call('POST', '/api/team/invitations/accept', {
    key: null,
    body: { token: inv.json<{ token: string }>().token, name },
  })
  expect(acc.statusCode, acc.body).toBe(201)
  const body = acc.json<{ member: { id: string }; apiKey: { id: string; key: string } }>()
  return { memberId: body.member.id, key: body.apiKey.key, keyId: body.apiKey.id }
}

/** The owner member of the test organization (the owner key's member). */
export async function ownerMemberId(t: TestApp): Promise<string> {
  const me = await t.call('GET', '/api/team/me')
  expect(me.statusCode, me.body).toBe(200)
  return me.json<{ member: { id: string } }>().member.id
}
