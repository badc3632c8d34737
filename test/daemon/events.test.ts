import { afterEach, describe, expect, it } from 'vitest'
import { EventBus, type EventEnvelope, type EventType } from '../../daemon/events.js'
import { createTestApp, type TestApp } from '../support/app.js'

const created = (id: string) => ({
  organizationId: 'org_1',
  data: { id, name: 'k', permissions: [], createdAt: '2026-11-21T10:00:00.000Z' },
})

describe('EventBus', () => {
  it('delivers to typed listeners and to onAny, with type and time', () => {
    const bus = new EventBus()
    const typed: EventEnvelope<'api_key.created'>[] = []
    const any: EventEnvelope[] = []
    bus.on('api_key.created', (e) => void typed.push(e))
    bus.onAny((e) => void any.push(e))
    bus.emit('api_key.created', created('key_1'), 42)
    bus.emit(
      'api_key.revoked',
      { organizationId: 'org_1', data: { id: 'key_1', name: 'k', revokedAt: 'x', reason: 'revoked' } },
      43,
    )
    expect(typed).toEqual([{ type: 'api_key.created', at: 42, ...created('key_1') }])
    expect(any.map((e) => [e.type, e.at])).toEqual([
      ['api_key.created', 42],
      ['api_key.revoked', 43],
    ])
  })

  it('onAny with a filter gets only the types it wants, and listening() follows the filter', () => {
    const bus = new EventBus()
    const seen: string[] = []
    let wanted = new Set<string>(['api_key.created'])
    bus.onAny(
      (e) => void seen.push(e.type),
      (type) => wanted.has(type),
    )
    expect(bus.listening('api_key.created')).toBe(true)
    expect(bus.listening('link.clicked')).toBe(false)
    bus.emit('api_key.created', created('a'), 1)
    bus.emit(
      'api_key.revoked',
      { organizationId: 'org_1', data: { id: 'a', name: 'k', revokedAt: 'x', reason: 'revoked' } },
      2,
    )
    wanted = new Set(['api_key.revoked'])
    expect(bus.listening('api_key.created')).toBe(false)
    bus.emit('api_key.created', created('b'), 3)
    expect(seen).toEqual(['api_key.created'])
  })

  it('unsubscribes', () => {
    const bus = new EventBus()
    const seen: string[] = []
    const off = bus.on('api_key.created', (e) => void seen.push(e.data.id))
    const offAny = bus.onAny((e) => void seen.push(`any:${e.type}`))
    bus.emit('api_key.created', created('a'), 1)
    off()
    offAny()
    bus.emit('api_key.created', created('b'), 2)
    expect(seen).toEqual(['a', 'any:api_key.created'])
  })

  it('isolates a failing listener, sync or async, and reports it', async () => {
    const errors: Array<[string, EventType]> = []
    const bus = new EventBus((err, type) => errors.push([(err as Error).message, type]))
    const seen: string[] = []
    bus.on('api_key.created', () => {
      throw new Error('sync boom')
    })
    bus.on('api_key.created', async () => {
      throw new Error('async boom')
    })
    bus.on('api_key.created', (e) => void seen.push(e.data.id))
    expect(() => bus.emit('api_key.created', created('c'), 3)).not.toThrow()
    expect(seen).toEqual(['c'])
    await new Promise((r) => setImmediate(r))
    expect(errors).toEqual([
      ['sync boom', 'api_key.created'],
      ['async boom', 'api_key.created'],
    ])
  })

  it('a bus without an error callback swallows listener failures', () => {
    const bus = new EventBus()
    bus.onAny(() => {
      throw new Error('ignored')
    })
    expect(() => bus.emit('api_key.created', created('d'), 4)).not.toThrow()
  })
})

describe('API key events', () => {
  let t: TestApp
  afterEach(() => t.close())

  function record(): EventEnvelope[] {
    const events: EventEnvelope[] = []
    t.app.linkd.services.events.onAny((e) => void events.push(e))
    return events
  }

  it('api_key.created on create, with the organization and no secret', async () => {
    t = await createTestApp()
    const events = record()
    const k = await t.createKey({ name: 'announced', permissions: ['links:read', 'qr:read'] })
    expect(events).toEqual([
      {
        type: 'api_key.created',
        at: t.clock.now(),
        organizationId: t.orgId,
        data: {
          id: k.id,
          name: 'announced',
          permissions: ['links:read', 'qrCodes:read'],
          createdAt: '2026-11-21T10:00:00.000Z',
        },
      },
    ])
    expect(JSON.stringify(events)).not.toContain(k.key)
  })

  it('api_key.revoked on revoke (once) and on delete', async () => {
    t = await createTestApp()
    const a = await t.createKey({ name: 'revoked one' })
    const b = await t.createKey({ name: 'deleted one' })
    const c = await t.createKey({ name: 'revoked then deleted' })
    const events = record()
    t.clock.advance(1000)
    await t.call('POST', `/api/keys/${a.id}/revoke`)
    await t.call('POST', `/api/keys/${a.id}/revoke`)
    await t.call('DELETE', `/api/keys/${b.id}`)
    await t.call('POST', `/api/keys/${c.id}/revoke`)
    await t.call('DELETE', `/api/keys/${c.id}`)
    expect(
      events.map((e) => [
        e.type,
        'id' in e.data ? e.data.id : undefined,
        'reason' in e.data ? e.data.reason : undefined,
      ]),
    ).toEqual([
      ['api_key.revoked', a.id, 'revoked'],
      ['api_key.revoked', b.id, 'deleted'],
      ['api_key.revoked', c.id, 'revoked'],
    ])
    expect(events[0]).toMatchObject({
      organizationId: t.orgId,
      at: t.clock.now(),
      data: { name: 'revoked one', revokedAt: '2026-11-21T10:00:01.000Z' },
    })
  })

  it('no events for refused or failed operations, nor for other changes', async () => {
    t = await createTestApp({ defaultPlan: 'free' })
    const k = await t.createKey({ name: 'quiet' })
    const events = record()
    await t.call('PATCH', `/api/keys/${k.id}`, { body: { name: 'renamed' } })
    await t.call('POST', `/api/keys/${k.id}/deactivate`)
    await t.call('POST', `/api/keys/${k.id}/activate`)
    await t.call('POST', `/api/keys/${k.id}/regenerate`)
    await t.call('POST', '/api/keys', { body: { nope: 1 } })
    await t.call('DELETE', '/api/keys/key_missing')
    for (let i = 0; i < 4; i++) await t.createKey({ name: `fill ${i}` }).catch(() => undefined)
    const createdBefore = events.filter((e) => e.type === 'api_key.created').length
    expect((await t.call('POST', '/api/keys', { body: { name: 'over the plan' } })).statusCode).toBe(403)
    expect(events.filter((e) => e.type === 'api_key.created')).toHaveLength(createdBefore)
    expect(events.filter((e) => e.type === 'api_key.revoked')).toEqual([])
  })

  it('a failing listener does not fail the request', async () => {
    t = await createTestApp()
    t.app.linkd.services.events.on('api_key.created', () => {
      throw new Error('listener bug')
    })
    const res = await t.call('POST', '/api/keys', { body: { name: 'still created' } })
    expect(res.statusCode).toBe(201)
    // The key was created and is readable, whatever the listener did.
    const id = res.json<{ id: string }>().id
    expect(res.json()).toMatchObject({ name: 'still created', status: 'active' })
    expect((await t.call('GET', `/api/keys/${id}`)).json()).toMatchObject({ id, name: 'still created' })
  })
})
