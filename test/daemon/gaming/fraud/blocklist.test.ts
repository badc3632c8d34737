/** The fraud blocklist: CRUD, IP normalization, duplicates, expiry job, blocked events. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DAY_MS } from '../../../../daemon/clock.js'
import type { BlocklistEntry } from '../../../../src/contract/fraud.js'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send, storedEvents } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t, { modules: { fraud: true } })
})
afterAll(() => t.close())

const url = (g: GameWithSecrets = game) => `/api/v1/admin/fraud/games/${g.id}/blocklist`
const add = async (body: Record<string, unknown>, g = game) => t.call('POST', url(g), { body })
const added = async (body: Record<string, unknown>, g = game) => {
  const res = await add(body, g)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<BlocklistEntry>()
}
const remove = (id: string, g = game) => t.call('DELETE', `${url(g)}/${id}`)
const o = (g = game, ip?: string) => ({ game: g, orgId: t.orgId, ...(ip ? { ip } : {}) })

describe('entries', () => {
  it('adds an entry that expires after 30 days, lists it newest first and removes it', async () => {
    const e = await added({ type: 'ip', value: '198.51.100.7', reason: 'credential stuffing' })
    expect(e).toMatchObject({ type: 'ip', value: '198.51.100.7', reason: 'credential stuffing' })
    expect(e.id).toMatch(/^blk_/)
    expect(Date.parse(e.expiresAt) - Date.parse(e.createdAt)).toBe(30 * DAY_MS)
    const d = await added({ type: 'device', value: 'a1b2c3d4e5' })
    expect(d.reason).toBe('')
    const list = await t.call('GET', url())
    expect(list.statusCode).toBe(200)
    expect(
      list
        .json()
        .data.map((x: BlocklistEntry) => x.id)
        .slice(0, 2)
        .sort(),
    ).toEqual([d.id, e.id].sort())
    expect(list.json().total).toBeGreaterThanOrEqual(2)
    expect((await remove(e.id)).statusCode).toBe(204)
    expect((await remove(e.id)).statusCode).toBe(404)
    expect((await remove(d.id)).statusCode).toBe(204)
  })

  it('normalizes IPs: an IPv4-mapped IPv6 address is the IPv4 address (duplicate 409)', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    const v4 = await added({ type: 'ip', value: '203.0.113.5' }, g)
    const mapped = await add({ type: 'ip', value: '::ffff:203.0.113.5' }, g)
    expect(mapped.statusCode).toBe(409)
    expect(mapped.json()).toMatchObject({ error: 'Conflict' })
    const v6 = await added({ type: 'ip', value: '2001:DB8:0:0:0:0:0:1' }, g)
    expect(v6.value).toBe('2001:db8::1')
    expect((await add({ type: 'ip', value: '2001:db8::1' }, g)).statusCode).toBe(409)
    expect((await add({ type: 'device', value: 'dup-device' }, g)).statusCode).toBe(201)
    expect((await add({ type: 'device', value: 'dup-device' }, g)).statusCode).toBe(409)
    expect(v4.value).toBe('203.0.113.5')
  })

  it.each([
    [{ type: 'ip', value: '999.1.1.1' }, 'value'],
    [{ type: 'ip', value: '1.2.3' }, 'value'],
    [{ type: 'ip', value: '0x7f.0.0.1' }, 'value'],
    [{ type: 'ip', value: '010.1.1.1' }, 'value'],
    [{ type: 'ip', value: 'example.com' }, 'value'],
    [{ type: 'ip', value: '2001:db8::g' }, 'value'],
    [{ type: 'device', value: 'has space' }, 'value'],
    [{ type: 'device', value: 'x'.repeat(257) }, 'value'],
    [{ type: 'device', value: '' }, 'value'],
    [{ type: 'email', value: 'a@b.c' }, 'type'],
    [{ type: 'ip', value: '203.0.113.1', reason: 'r'.repeat(501) }, 'reason'],
  ])('%j → 400 on %s', async (body, field) => {
    const res = await add(body)
    expect(res.statusCode, res.body).toBe(400)
    expect(JSON.stringify(res.json().details)).toContain(`"${field}`)
  })

  it('another organization gets 404; fraud:read cannot add', async () => {
    const other = await t.createOrg('other-blocklist')
    expect((await t.call('GET', url(), { key: other.ownerKey })).statusCode).toBe(404)
    const reader = await t.createKey({ permissions: ['fraud:read'] })
    expect((await t.call('GET', url(), { key: reader.key })).statusCode).toBe(200)
    const res = await t.call('POST', url(), { key: reader.key, body: { type: 'ip', value: '192.0.2.1' } })
    expect(res.statusCode).toBe(403)
  })
})

describe('enforcement in the ingestion', () => {
  it('blocks every event from a listed IP (mapped spelling too), with a per-event error', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    await added({ type: 'ip', value: '::ffff:192.0.2.44', reason: 'bot farm' }, g)
    const before = await storedEvents(t, g)
    const r = accepted(await send(t, batch(t, [event(t), event(t)]), o(g, '192.0.2.44')))
    expect(r).toMatchObject({ accepted: 0, blocked: 2, rejected: 0 })
    expect(r.errors.map((e) => [e.index, e.error])).toEqual([
      [0, 'Blocked'],
      [1, 'Blocked'],
    ])
    expect(r.errors[0]!.message).toContain('IP address')
    expect(await storedEvents(t, g)).toBe(before)
    // Another IP passes.
    expect(accepted(await send(t, batch(t, [event(t)]), o(g, '192.0.2.45')))).toMatchObject({
      accepted: 1,
      blocked: 0,
    })
  })

  it('blocks the events carrying a listed device fingerprint, keeps the others and the invalid ones apart', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    const entry = await added({ type: 'device', value: 'farm-device-1' }, g)
    const events = [
      event(t, { data: { device_fingerprint: 'farm-device-1' } }),
      event(t, { event_type: '' }),
      event(t, { data: { device_fingerprint: 'honest-device' } }),
    ]
    const r = accepted(await send(t, batch(t, events), o(g)))
    expect(r).toMatchObject({ accepted: 1, blocked: 1, rejected: 1 })
    expect(r.errors.map((e) => [e.index, e.error])).toEqual([
      [0, 'Blocked'],
      [1, 'InvalidEvent'],
    ])
    expect(r.errors[0]!.eventId).toBe(events[0]!.event_id)
    // Removed: the device passes again at once.
    expect((await remove(entry.id, g)).statusCode).toBe(204)
    const again = [event(t, { data: { device_fingerprint: 'farm-device-1' } })]
    expect(accepted(await send(t, batch(t, again), o(g)))).toMatchObject({ accepted: 1, blocked: 0 })
  })

  it('a game with fraud off is not filtered, even with entries kept from when it was on', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    await added({ type: 'ip', value: '192.0.2.77' }, g)
    await t.call('PATCH', `/api/v1/admin/games/${g.id}`, { body: { modules: { fraud: false } } })
    expect(accepted(await send(t, batch(t, [event(t)]), o(g, '192.0.2.77')))).toMatchObject({
      accepted: 1,
      blocked: 0,
    })
  })
})

describe('expiry', () => {
  it('an entry stops blocking after 30 days and the fraud-blocklist-expiry job removes it', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    await added({ type: 'ip', value: '192.0.2.99' }, g)
    t.clock.advance(30 * DAY_MS - 1)
    expect(accepted(await send(t, batch(t, [event(t)]), o(g, '192.0.2.99')))).toMatchObject({ blocked: 1 })
    expect(await t.app.linkd.scheduler.runNow('fraud-blocklist-expiry')).toEqual({ ran: true, status: 'ok' })
    expect((await t.call('GET', url(g))).json().total).toBe(1)
    t.clock.advance(1)
    expect(accepted(await send(t, batch(t, [event(t)]), o(g, '192.0.2.99')))).toMatchObject({
      accepted: 1,
      blocked: 0,
    })
    await t.app.linkd.scheduler.runNow('fraud-blocklist-expiry')
    expect((await t.call('GET', url(g))).json().total).toBe(0)
    // Expired and removed: it can be listed again.
    expect((await add({ type: 'ip', value: '192.0.2.99' }, g)).statusCode).toBe(201)
  })
})
