/**
 * GET /api/audit-log: the envelope, newest first, the filters (memberId, action, resourceType,
 * since, until), another organization's entries never shown, team:read required; and the
 * prune-audit-log job keeping 365 days.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../../src/contract/team.js'
import { DAY_MS } from '../../../daemon/clock.js'
import { createTestApp, type TestApp } from '../../support/app.js'

interface Page {
  data: AuditEntry[]
  total: number
  page: number
  perPage: number
  hasMore: boolean
}

let t: TestApp
afterEach(() => t.close())

const log = async (query = '', key?: string) => {
  const res = await t.call('GET', `/api/audit-log${query}`, key ? { key } : {})
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Page>()
}
const createLink = async (key?: string) => {
  const res = await t.call('POST', '/api/use/links', {
    body: { destinationUrl: 'https://example.org/' },
    ...(key ? { key } : {}),
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string }>().id
}

describe('GET /api/audit-log', () => {
  it('pages newest first, filters, and shows one organization its own entries only', async () => {
    t = await createTestApp()
    const other = await t.createOrg('other')
    const first = await createLink()
    t.clock.advance(60_000)
    const second = await createLink()
    await t.call('PATCH', `/api/use/links/${second}`, { body: { title: 'x' } })
    t.clock.advance(60_000)
    const otherLink = await createLink(other.ownerKey)
    await t.call('DELETE', `/api/use/links/${otherLink}`, { key: other.ownerKey })
    // An entry with a member, as the API records for a member's key.
    t.app.linkd.services.audit.record({
      organizationId: t.orgId,
      memberId: 'mem_alice',
      keyId: null,
      action: 'member.remove',
      resourceType: 'member',
      resourceId: 'mem_bob',
      ip: '203.0.113.7',
      statusCode: 204,
    })

    const all = await log()
    expect(all).toMatchObject({ total: 4, page: 1, perPage: 20, hasMore: false })
    expect(all.data.map((e) => [e.action, e.resourceId])).toEqual([
      ['member.remove', 'mem_bob'],
      ['link.update', second],
      ['link.create', second],
      ['link.create', first],
    ])
    const e = all.data[3]!
    expect(Object.keys(e).sort()).toEqual(
      ['action', 'at', 'id', 'ip', 'keyId', 'memberId', 'resourceId', 'resourceType', 'statusCode'].sort(),
    )
    expect(e).toMatchObject({ at: '2026-11-21T10:00:00.000Z', statusCode: 201, resourceType: 'link' })
    expect(e.id).toMatch(/^aud_/)
    expect(e.ip).toBe('127.0.0.1')

    // The other organization sees its two entries, never these.
    const theirs = await log('', other.ownerKey)
    expect(theirs.data.map((x) => x.action)).toEqual(['link.delete', 'link.create'])
    expect(theirs.data.every((x) => x.resourceId === otherLink)).toBe(true)
    expect((await log(`?resourceType=link&action=link.delete`)).total).toBe(0)

    expect((await log('?action=link.create')).data.map((x) => x.resourceId)).toEqual([second, first])
    expect((await log('?resourceType=member')).data.map((x) => x.action)).toEqual(['member.remove'])
    expect((await log('?memberId=mem_alice')).total).toBe(1)
    expect((await log('?memberId=mem_nobody')).total).toBe(0)
    const at = (n: number) => new Date(Date.parse('2026-11-21T10:00:00.000Z') + n * 60_000).toISOString()
    expect((await log(`?since=${at(1)}`)).total).toBe(3)
    expect((await log(`?until=${at(1)}`)).total).toBe(3)
    expect((await log(`?since=${at(1)}&until=${at(1)}`)).data.map((x) => x.action)).toEqual([
      'link.update',
      'link.create',
    ])
    const page2 = await log('?limit=10&page=2')
    expect(page2).toMatchObject({ total: 4, page: 2, perPage: 10, hasMore: false, data: [] })
  })

  it('refuses bad filters with the error body, and keys without team:read', async () => {
    t = await createTestApp()
    const bad = await t.call('GET', '/api/audit-log?since=yesterday')
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ error: 'ValidationError' })
    const reversed = await t.call(
      'GET',
      '/api/audit-log?since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z',
    )
    expect(reversed.statusCode).toBe(400)
    expect(reversed.json()).toMatchObject({
      error: 'ValidationError',
      message: 'since must not be after until',
    })
    expect((await t.call('GET', '/api/audit-log?color=red')).statusCode).toBe(400)
    const linksOnly = await t.createKey({ name: 'links', permissions: ['links:read', 'links:write'] })
    const refused = await t.call('GET', '/api/audit-log', { key: linksOnly.key })
    expect(refused.statusCode).toBe(403)
    expect(refused.json<{ message: string }>().message).toContain('team:read')
    expect((await t.call('GET', '/api/audit-log', { key: null })).statusCode).toBe(401)
  })
})

describe('prune-audit-log', () => {
  it('deletes entries older than 365 days and keeps younger ones', async () => {
    t = await createTestApp()
    const now = t.clock.now()
    t.clock.set(now - 366 * DAY_MS)
    const old = await createLink()
    t.clock.set(now - 364 * DAY_MS)
    const young = await createLink()
    t.clock.set(now)
    expect((await log()).total).toBe(2)
    const result = await t.app.linkd.scheduler.runNow('prune-audit-log')
    expect(result).toMatchObject({ ran: true, status: 'ok', summary: '1 audit entry pruned' })
    const left = await log()
    expect(left.data.map((e) => e.resourceId)).toEqual([young])
    expect(left.data.map((e) => e.resourceId)).not.toContain(old)
  })
})

describe('a route without an API key', () => {
  it('accepting an invitation is audited with the new member and key as the actor', async () => {
    t = await createTestApp()
    const inv = await t.call('POST', '/api/team/invitations', { body: { email: 'ana@example.com' } })
    expect(inv.statusCode, inv.body).toBe(201)
    const { id, token } = inv.json<{ id: string; token: string }>()
    const accept = () =>
      t.call('POST', '/api/team/invitations/accept', { key: null, body: { token, name: 'Ana' } })
    const ok = await accept()
    expect(ok.statusCode, ok.body).toBe(201)
    const { member, apiKey } = ok.json<{ member: { id: string }; apiKey: { id: string } }>()
    // A used token (410) and an unknown one (404) record nothing.
    expect((await accept()).statusCode).toBe(410)
    const unknown = await t.call('POST', '/api/team/invitations/accept', {
      key: null,
      body: { token: `lkinv_${'Z'.repeat(32)}`, name: 'Eve' },
    })
    expect(unknown.statusCode).toBe(404)
    const accepted = (await log()).data.filter((e) => e.action === 'invitation.accept')
    expect(accepted).toEqual([
      expect.objectContaining({
        resourceType: 'invitation',
        memberId: member.id,
        keyId: apiKey.id,
        resourceId: id,
        statusCode: 201,
      }),
    ])
  })
})
