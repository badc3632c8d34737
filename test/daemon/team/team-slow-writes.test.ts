/**
 * A write whose headers arrived before its member was removed (or demoted, or its key revoked)
 * must not complete: the key's standing is read again once the body has been received, right
 * before the handler runs. The body here is a stream that waits for the test: the request is
 * authenticated, the test changes the member, then the body arrives.
 */
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { count, createTestApp, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'
import { joinTeam } from '../../support/team.js'
import type { Role } from '../../../src/contract/scopes.js'

let t: TestApp
beforeEach(async () => {
  t = await createTestApp({ webhookAllowLoopback: true })
})
afterEach(async () => {
  await t.close()
})

/**
 * Sends `body` to `url` with `key`, but only after the server has started reading the body (so
 * after authentication) and `meanwhile` has run.
 */
async function slowWrite(
  method: 'POST' | 'PATCH',
  url: string,
  key: string,
  body: unknown,
  meanwhile: () => Promise<void>,
) {
  let wanted!: () => void
  const bodyWanted = new Promise<void>((resolve) => (wanted = resolve))
  let started = false
  const stream = new Readable({
    read() {
      if (started) return
      started = true
      wanted()
    },
  })
  const response = t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: stream,
  })
  await bodyWanted
  await meanwhile()
  stream.push(JSON.stringify(body))
  stream.push(null)
  return response
}

const remove = async (memberId: string) => {
  expect((await t.call('DELETE', `/api/team/members/${memberId}`)).statusCode).toBe(204)
}
const setRole = async (memberId: string, role: Role) => {
  const res = await t.call('PATCH', `/api/team/members/${memberId}`, { body: { role } })
  expect(res.statusCode, res.body).toBe(200)
}

describe('a write outlives no removal', () => {
  it('a link whose body arrives after its member was removed is refused (401) and not stored', async () => {
    const ana = await joinTeam(t, 'member', 'Ana')
    const res = await slowWrite(
      'POST',
      '/api/use/links',
      ana.key,
      { destinationUrl: 'https://example.com/late' },
      () => remove(ana.memberId),
    )
    expect(expectError(res, 401, 'Unauthorized').message).toBe('the API key has been revoked')
    expect(await count(t, 'links')).toBe(0)
  })

  it('a webhook whose body arrives after the removal is refused and not stored', async () => {
    const ana = await joinTeam(t, 'admin', 'Ana')
    const res = await slowWrite(
      'POST',
      '/api/webhooks',
      ana.key,
      { name: 'exfil', url: 'http://127.0.0.1:9/hook', events: ['link.created'] },
      () => remove(ana.memberId),
    )
    expectError(res, 401, 'Unauthorized')
    expect(await count(t, 'webhooks')).toBe(0)
  })

  it('a demotion while the body is on its way narrows the write (403 naming the role) and stores nothing', async () => {
    const ana = await joinTeam(t, 'admin', 'Ana')
    const res = await slowWrite(
      'POST',
      '/api/team/invitations',
      ana.key,
      { email: 'eve@example.com', role: 'admin' },
      () => setRole(ana.memberId, 'viewer'),
    )
    expect(expectError(res, 403, 'Forbidden').message).toBe(
      'the viewer role does not allow team:write; a team admin can change the role',
    )
    expect(await count(t, 'team_invitations', 'email = ?', 'eve@example.com')).toBe(0)
  })

  it('the handler acts with the role the member has once the body has arrived', async () => {
    const first = await joinTeam(t, 'owner', 'First')
    // An owner starts inviting an owner; demoted to admin meanwhile, it may not grant that role.
    const res = await slowWrite(
      'POST',
      '/api/team/invitations',
      first.key,
      { email: 'eve@example.com', role: 'owner' },
      () => setRole(first.memberId, 'admin'),
    )
    expect(expectError(res, 403, 'Forbidden').message).toBe(
      'an admin cannot grant the owner role (above its own)',
    )
    expect(await count(t, 'team_invitations', 'email = ?', 'eve@example.com')).toBe(0)
  })

  it('a key revoked or deactivated while the body is on its way is refused', async () => {
    const ana = await joinTeam(t, 'member', 'Ana')
    for (const verb of ['deactivate', 'revoke']) {
      const k = await t.createKey({ name: verb, permissions: ['links:write'] }, ana.key)
      const res = await slowWrite(
        'POST',
        '/api/use/links',
        k.key,
        { destinationUrl: 'https://example.com/k' },
        async () => {
          expect((await t.call('POST', `/api/keys/${k.id}/${verb}`)).statusCode).toBe(200)
        },
      )
      expectError(res, 401, 'Unauthorized')
    }
    expect(await count(t, 'links')).toBe(0)
  })
})
