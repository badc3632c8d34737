/**
 * team.member_added and team.member_removed reach a real HTTP receiver on loopback with the
 * contract's data, and the webhook test action's samples carry the same fields.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'
import { joinTeam, ownerMemberId } from '../../support/team.js'
import { ROLE_SCOPES, SCOPES } from '../../../src/contract/scopes.js'

let t: TestApp
let rx: Receiver
beforeEach(async () => {
  t = await createTestApp({ publicUrl: 'https://sho.rt' })
  rx = await startReceiver()
})
afterEach(async () => {
  await t.close()
  await rx.close()
})

const deliver = async () => {
  await t.app.linkd.services.webhooks.settle()
  await t.app.linkd.services.webhooks.worker.runDue()
}
const payloads = () =>
  rx.received.map(
    (r) => JSON.parse(r.raw.toString('utf8')) as { event: string; data: Record<string, unknown> },
  )

describe('team events', () => {
  it('accepting an invitation and removing the member are delivered with the contract data', async () => {
    const w = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: rx.url, events: ['team.member_added', 'team.member_removed'] },
    })
    expect(w.statusCode, w.body).toBe(201)
    const owner = await ownerMemberId(t)
    const ada = await joinTeam(t, 'admin', 'Ada')
    expect((await t.call('DELETE', `/api/team/members/${ada.memberId}`)).statusCode).toBe(204)
    await deliver()
    const got = payloads()
    expect(got.map((p) => p.event)).toEqual(['team.member_added', 'team.member_removed'])
    const joinedAt = new Date(t.clock.now()).toISOString()
    expect(got[0]!.data).toEqual({
      memberId: ada.memberId,
      name: 'Ada',
      email: 'ada@example.com',
      role: 'admin',
      permissions: [...SCOPES],
      invitedBy: owner,
      joinedAt,
    })
    expect(got[1]!.data).toEqual({
      memberId: ada.memberId,
      name: 'Ada',
      email: 'ada@example.com',
      role: 'admin',
      removedBy: owner,
      removedAt: joinedAt,
    })
    const members = (await t.call('GET', '/api/team/members')).json<{ data: Array<{ joinedAt: string }> }>()
    expect(members.data.map((m) => m.joinedAt)).toContain(joinedAt)
  })

  it("member_added's permissions are the scopes the new member's role allows", async () => {
    const w = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: rx.url, events: ['team.member_added'] },
    })
    expect(w.statusCode, w.body).toBe(201)
    await joinTeam(t, 'viewer', 'Vi')
    await joinTeam(t, 'member', 'Mo')
    await deliver()
    const [viewer, member] = payloads().map((p) => p.data as { role: string; permissions: string[] })
    expect(viewer).toMatchObject({ role: 'viewer', permissions: [...ROLE_SCOPES.viewer] })
    expect(viewer!.permissions.every((s) => s.endsWith(':read'))).toBe(true)
    expect(member).toMatchObject({ role: 'member', permissions: [...ROLE_SCOPES.member] })
    expect(member!.permissions).not.toContain('team:write')
  })

  it("the test action's samples have the same fields as the real events", async () => {
    const w = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: rx.url, events: ['team.member_added', 'team.member_removed'] },
    })
    const id = w.json<{ id: string }>().id
    for (const event of ['team.member_added', 'team.member_removed']) {
      const res = await t.call('POST', `/api/webhooks/${id}/test`, { body: { event } })
      expect(res.statusCode, res.body).toBeLessThan(300)
    }
    await deliver()
    const byEvent = Object.fromEntries(payloads().map((p) => [p.event, Object.keys(p.data).sort()]))
    expect(byEvent['team.member_added']).toEqual([
      'email',
      'invitedBy',
      'joinedAt',
      'memberId',
      'name',
      'permissions',
      'role',
      'test',
    ])
    expect(byEvent['team.member_removed']).toEqual([
      'email',
      'memberId',
      'name',
      'removedAt',
      'removedBy',
      'role',
      'test',
    ])
  })
})
