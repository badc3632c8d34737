import { afterEach, describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { createTestApp, type TestApp } from '../../support/app.js'
import { detailFields, expectError } from '../../support/responses.js'

const DAY = 86_400_000

describe('idempotency', () => {
  let t: TestApp
  afterEach(() => t.close())

  const create = (idem: string, body: unknown, key?: string) =>
    t.call('POST', '/api/keys', { body, headers: { 'x-idempotency-key': idem }, ...(key ? { key } : {}) })
  const total = async () => (await t.call('GET', '/api/keys')).json().total as number

  it('replays status and body with Idempotent-Replayed and does not create a second key', async () => {
    t = await createTestApp()
    const created: string[] = []
    t.app.linkd.services.events.on('api_key.created', (e) => void created.push(e.data.id))
    const idem = randomUUID()
    const first = await create(idem, { name: 'ci', preset: 'read-only' })
    expect(first.statusCode).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    expect(await total()).toBe(2)

    const again = await create(idem, { name: 'ci', preset: 'read-only' })
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.headers['content-type']).toMatch(/^application\/json/)
    expect(again.body).toBe(first.body)
    expect(again.json().key).toBe(first.json().key)
    expect(await total()).toBe(2)
    expect(created).toEqual([first.json().id])
    // the replay still carries rate limit headers
    expect(again.headers['x-ratelimit-limit']).toBeDefined()
    expect(again.headers['x-ratelimit-limit']).toBe(first.headers['x-ratelimit-limit'])
    // The same window: the list read in between and the replay each counted in it.
    expect(Number(again.headers['x-ratelimit-remaining'])).toBe(
      Number(first.headers['x-ratelimit-remaining']) - 2,
    )
  })

  it('the same body with its fields in another order is the same request', async () => {
    t = await createTestApp()
    const idem = randomUUID()
    const first = await create(idem, { name: 'ordered', description: 'd', timePeriod: 'day' })
    const again = await create(idem, { timePeriod: 'day', description: 'd', name: 'ordered' })
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().id).toBe(first.json().id)
    expect(await total()).toBe(2)
  })

  it('the same key with a different body is 422 Unprocessable and creates nothing', async () => {
    t = await createTestApp()
    const idem = randomUUID()
    expect((await create(idem, { name: 'one' })).statusCode).toBe(201)
    const body = expectError(await create(idem, { name: 'two' }), 422, 'Unprocessable', '/api/keys')
    expect(body.message).toMatch(/X-Idempotency-Key/)
    expect(await total()).toBe(2)
    // the same key on another endpoint is also a different request
    const k = (await t.call('GET', '/api/keys')).json().data[0].id as string
    expectError(
      await t.call('POST', `/api/keys/${k}/deactivate`, { headers: { 'x-idempotency-key': idem } }),
      422,
      'Unprocessable',
    )
  })

  it('is scoped to the API key that sent it', async () => {
    t = await createTestApp()
    const second = await t.createKey({ name: 'second admin', permissions: ['keys:read', 'keys:write'] })
    const idem = randomUUID()
    const a = await create(idem, { name: 'same' })
    const b = await create(idem, { name: 'same' }, second.key)
    expect(a.statusCode).toBe(201)
    expect(b.statusCode).toBe(201)
    expect(b.headers['idempotent-replayed']).toBeUndefined()
    expect(b.json().id).not.toBe(a.json().id)
    // a different body under the other owner is not a conflict either
    expect((await create(randomUUID(), { name: 'x' }, second.key)).statusCode).toBe(201)
    expect(await total()).toBe(5)
  })

  it('is remembered for 24 hours, then the key is fresh again', async () => {
    t = await createTestApp()
    const idem = randomUUID()
    const first = await create(idem, { name: 'daily' })
    t.clock.advance(DAY - 1)
    const replay = await create(idem, { name: 'daily' })
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json().id).toBe(first.json().id)
    t.clock.advance(1)
    const fresh = await create(idem, { name: 'daily' })
    expect(fresh.statusCode).toBe(201)
    expect(fresh.headers['idempotent-replayed']).toBeUndefined()
    expect(fresh.json().id).not.toBe(first.json().id)
    expect(await total()).toBe(3)
    // and the new response is what is replayed from now on
    const replay2 = await create(idem, { name: 'daily' })
    expect(replay2.json().id).toBe(fresh.json().id)
  })

  it('replays error responses and actions without repeating them', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'victim', preset: 'full' })
    const idem = randomUUID()
    const regen = await t.call('POST', `/api/keys/${k.id}/regenerate`, {
      headers: { 'x-idempotency-key': idem },
    })
    expect(regen.statusCode).toBe(200)
    const again = await t.call('POST', `/api/keys/${k.id}/regenerate`, {
      headers: { 'x-idempotency-key': idem },
    })
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().key).toBe(regen.json().key)
    // the replayed value is still the one that works: no second regeneration happened
    expect((await t.call('GET', '/api/keys', { key: regen.json().key })).statusCode).toBe(200)

    await t.call('POST', `/api/keys/${k.id}/revoke`)
    const idem2 = randomUUID()
    const conflict = await t.call('PATCH', `/api/keys/${k.id}`, {
      body: { name: 'renamed' },
      headers: { 'x-idempotency-key': idem2 },
    })
    expectError(conflict, 409, 'Conflict')
    const conflictAgain = await t.call('PATCH', `/api/keys/${k.id}`, {
      body: { name: 'renamed' },
      headers: { 'x-idempotency-key': idem2 },
    })
    expect(conflictAgain.statusCode).toBe(409)
    expect(conflictAgain.headers['idempotent-replayed']).toBe('true')
    expect(conflictAgain.body).toBe(conflict.body)
  })

  it('replays a 204 delete instead of answering 404', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'temp' })
    const idem = randomUUID()
    const del = await t.call('DELETE', `/api/keys/${k.id}`, { headers: { 'x-idempotency-key': idem } })
    expect(del.statusCode).toBe(204)
    expect(del.body).toBe('')
    const again = await t.call('DELETE', `/api/keys/${k.id}`, { headers: { 'x-idempotency-key': idem } })
    expect(again.statusCode).toBe(204)
    expect(again.body).toBe('')
    expect(again.headers['idempotent-replayed']).toBe('true')
    expectError(await t.call('DELETE', `/api/keys/${k.id}`), 404, 'NotFound')
  })

  it('validation errors are not stored: a corrected request with the same key goes through', async () => {
    t = await createTestApp()
    const idem = randomUUID()
    expectError(await create(idem, { nope: 1 }), 400, 'ValidationError')
    const ok = await create(idem, { name: 'fixed' })
    expect(ok.statusCode).toBe(201)
    expect(ok.headers['idempotent-replayed']).toBeUndefined()
  })

  it('an over-long idempotency key is 400', async () => {
    t = await createTestApp()
    const res = await create('k'.repeat(256), { name: 'x' })
    expectError(res, 400, 'ValidationError')
    expect(detailFields(res)).toEqual(['X-Idempotency-Key'])
    expect((await create('k'.repeat(255), { name: 'x' })).statusCode).toBe(201)
  })

  it('is ignored on GET and on unauthenticated routes', async () => {
    t = await createTestApp()
    const idem = randomUUID()
    const a = await t.call('GET', '/api/keys', { headers: { 'x-idempotency-key': idem } })
    const b = await t.call('GET', '/api/keys', { headers: { 'x-idempotency-key': idem } })
    expect(b.headers['idempotent-replayed']).toBeUndefined()
    expect(a.statusCode).toBe(200)
    const tester = (key: string) =>
      t.call('POST', '/api/keys/test', { key: null, body: { key }, headers: { 'x-idempotency-key': idem } })
    expect((await tester(t.ownerKey)).json().valid).toBe(true)
    const second = await tester('lk_live_short')
    expect(second.headers['idempotent-replayed']).toBeUndefined()
    expect(second.json()).toEqual({ valid: false, reason: 'malformed' })
  })

  it('two concurrent requests with one key create one key', async () => {
    t = await createTestApp()
    const idem = randomUUID()
    const [a, b] = await Promise.all([create(idem, { name: 'race' }), create(idem, { name: 'race' })])
    const statuses = [a.statusCode, b.statusCode].sort()
    expect(statuses[0]).toBe(201)
    expect([201, 409]).toContain(statuses[1])
    expect(await total()).toBe(2)
    // afterwards the stored response is replayed
    const c = await create(idem, { name: 'race' })
    expect(c.headers['idempotent-replayed']).toBe('true')
  })
})
