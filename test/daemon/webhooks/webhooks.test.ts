/** Webhook management API: create/list/get/update/delete, limits, actions, bulk, templates, utilities. */
import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { detailFields, expectError } from '../../support/responses.js'
import { WEBHOOK_EVENTS } from '../../../src/contract/limits.js'

const NOW = '2026-11-21T10:00:00.000Z'
const WEBHOOK_FIELDS = [
  'consecutiveFailures',
  'createdAt',
  'description',
  'events',
  'failedAttempts',
  'format',
  'headers',
  'id',
  'maxRetries',
  'name',
  'retryPolicy',
  'status',
  'timeoutSeconds',
  'updatedAt',
  'url',
].sort()

let t: TestApp
beforeEach(async () => {
  t = await createTestApp()
})
afterEach(() => t.close())

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Orders',
  url: 'https://hooks.example.com/linkd',
  events: ['link.created'],
  ...over,
})
const create = (over: Record<string, unknown> = {}, key?: string) =>
  t.call('POST', '/api/webhooks', { body: body(over), ...(key ? { key } : {}) })
const created = async (over: Record<string, unknown> = {}) => {
  const res = await create(over)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string; secret: string; status: string; consecutiveFailures: number }>()
}
const expect400 = async (over: Record<string, unknown>, field: string) => {
  const res = await create(over)
  expectError(res, 400, 'ValidationError', '/api/webhooks')
  expect(detailFields(res), JSON.stringify(over).slice(0, 120)).toContain(field)
}
const headersOf = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`X-Custom-${i}`, `v${i}`]))

describe('webhooks API: create', () => {
  it('creates an active webhook with defaults; the secret is shown once and encrypted at rest', async () => {
    const res = await create({ description: ' For the order system ' })
    expect(res.statusCode).toBe(201)
    const w = res.json()
    expect(Object.keys(w).sort()).toEqual([...WEBHOOK_FIELDS, 'secret'].sort())
    expect(w).toMatchObject({
      name: 'Orders',
      description: 'For the order system',
      url: 'https://hooks.example.com/linkd',
      events: ['link.created'],
      retryPolicy: 'exponential',
      format: 'json',
      maxRetries: 3,
      timeoutSeconds: 30,
      headers: {},
      status: 'active',
      consecutiveFailures: 0,
      failedAttempts: 0,
      createdAt: NOW,
      updatedAt: NOW,
    })
    expect(w.id).toMatch(/^wh_[a-z0-9]+$/)
    expect(w.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/)
    const got = await t.call('GET', `/api/webhooks/${w.id}`)
    expect(Object.keys(got.json()).sort()).toEqual(WEBHOOK_FIELDS)
    const row = await t.db.kysely
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', w.id)
      .executeTakeFirstOrThrow()
    expect(row.secret_sealed).not.toContain(w.secret)
    expect(JSON.stringify(row)).not.toContain(w.secret.slice(6))
  })

  it('keeps every option; a template gives its events', async () => {
    const w = await created({
      events: ['link.clicked', 'link.created', 'link.clicked'],
      retryPolicy: 'linear',
      maxRetries: 10,
      timeoutSeconds: 5,
      headers: { Authorization: 'Bearer abc', 'X-Team': 'growth' },
    })
    expect(w).toMatchObject({
      events: ['link.clicked', 'link.created'],
      retryPolicy: 'linear',
      maxRetries: 10,
      timeoutSeconds: 5,
      headers: { Authorization: 'Bearer abc', 'X-Team': 'growth' },
    })
    const fromTemplate = await created({ events: undefined, template: 'domain-management' })
    expect(fromTemplate).toMatchObject({ events: ['domain.created', 'domain.verified', 'domain.deleted'] })
  })

  it('name, url and events are required (events or a template)', async () => {
    for (const field of ['name', 'url']) await expect400({ [field]: undefined }, field)
    await expect400({ events: undefined }, 'events')
    await expect400({ events: [] }, 'events')
    await expect400({ events: ['link.exploded'] }, 'events.0')
    await expect400({ template: 'nope' }, 'template')
    await expect400({ status: 'disabled' }, 'status')
  })

  it('URL: HTTPS required; HTTP only for localhost and 127.0.0.1', async () => {
    for (const url of [
      'http://hooks.example.com/x',
      'http://10.0.0.1/x',
      'http://[::1]:8080/x',
      'ftp://hooks.example.com/x',
      'hooks.example.com/x',
      'https://user:pass@hooks.example.com/x',
      'not a url',
    ])
      await expect400({ url }, 'url')
    for (const url of ['http://localhost:3000/hook', 'http://127.0.0.1:9000/hook', 'https://localhost/x'])
      expect(await created({ url }), url).toMatchObject({ url })
    await expect400({ url: `https://example.com/${'a'.repeat(2049 - 20)}` }, 'url')
    const longest = `https://example.com/${'a'.repeat(2048 - 20)}`
    expect(await created({ url: longest })).toMatchObject({ url: longest })
  })

  it('limits at their boundaries: max retries 0-10, timeout 1-60 s, name 100, description 500', async () => {
    for (const ok of [{ maxRetries: 0 }, { maxRetries: 10 }, { timeoutSeconds: 1 }, { timeoutSeconds: 60 }])
      expect(await created(ok), JSON.stringify(ok)).toMatchObject(ok)
    await expect400({ maxRetries: 11 }, 'maxRetries')
    await expect400({ maxRetries: -1 }, 'maxRetries')
    await expect400({ timeoutSeconds: 0 }, 'timeoutSeconds')
    await expect400({ timeoutSeconds: 61 }, 'timeoutSeconds')
    await expect400({ retryPolicy: 'fibonacci' }, 'retryPolicy')
    expect(await created({ name: 'n'.repeat(100) })).toMatchObject({ name: 'n'.repeat(100) })
    await expect400({ name: 'n'.repeat(101) }, 'name')
    await expect400({ name: '   ' }, 'name')
    expect(await created({ description: 'd'.repeat(500) })).toMatchObject({ description: 'd'.repeat(500) })
    await expect400({ description: 'd'.repeat(501) }, 'description')
  })

  it('custom headers: 10 pass, 11 fail; reserved and invalid names are refused', async () => {
    expect(await created({ headers: headersOf(10) })).toMatchObject({ headers: headersOf(10) })
    await expect400({ headers: headersOf(11) }, 'headers')
    for (const name of [
      'Content-Type',
      'user-agent',
      'X-Webhook-Signature',
      'x-webhook-anything',
      'Host',
      'Content-Length',
    ])
      await expect400({ headers: { [name]: 'x' } }, `headers.${name}`)
    await expect400({ headers: { 'Bad Name': 'x' } }, 'headers.Bad Name')
    await expect400({ headers: { 'X-Ok': 'line\r\nInjected: yes' } }, 'headers.X-Ok')
    await expect400({ headers: { 'X-Dup': 'a', 'x-dup': 'b' } }, 'headers.x-dup')
    await expect400({ headers: { 'X-Long': 'v'.repeat(1001) } }, 'headers.X-Long')
  })

  it('needs webhooks:write to create and webhooks:read to read', async () => {
    const reader = await t.createKey({ permissions: ['webhooks:read'] })
    expectError(await create({}, reader.key), 403, 'Forbidden')
    expect((await t.call('GET', '/api/webhooks', { key: reader.key })).statusCode).toBe(200)
    const linksOnly = await t.createKey({ permissions: ['links:read'] })
    expectError(await t.call('GET', '/api/webhooks', { key: linksOnly.key }), 403, 'Forbidden')
    expectError(await t.call('GET', '/api/webhooks', { key: null }), 401, 'Unauthorized')
  })
})

describe('webhooks API: list, get, update, delete', () => {
  it('lists newest first in the pagination envelope, filtered by status and event', async () => {
    const a = await created({ name: 'a' })
    t.clock.advance(1000)
    const b = await created({ name: 'b', events: ['link.clicked'] })
    t.clock.advance(1000)
    const c = await created({ name: 'c' })
    await t.call('POST', `/api/webhooks/${c.id}/disable`)
    const all = (await t.call('GET', '/api/webhooks?limit=10')).json()
    expect(all).toMatchObject({ total: 3, page: 1, perPage: 10, hasMore: false })
    expect(all.data.map((w: { id: string }) => w.id)).toEqual([c.id, b.id, a.id])
    expect(all.data[0]).not.toHaveProperty('secret')
    const active = (await t.call('GET', '/api/webhooks?status=active')).json()
    expect(active.data.map((w: { id: string }) => w.id)).toEqual([b.id, a.id])
    const clicked = (await t.call('GET', '/api/webhooks?event=link.clicked')).json()
    expect(clicked.data.map((w: { id: string }) => w.id)).toEqual([b.id])
    expectError(await t.call('GET', '/api/webhooks?limit=7'), 400, 'ValidationError')
  })

  it('filters by an event whose name holds an underscore (a LIKE wildcard, matched literally)', async () => {
    const scans = await created({ name: 'scans', events: ['qr_code.scanned'] })
    await created({ name: 'revocations', events: ['api_key.revoked'] })
    const res = (await t.call('GET', '/api/webhooks?event=qr_code.scanned')).json()
    expect(res.data.map((w: { id: string }) => w.id)).toEqual([scans.id])
  })

  it('updates fields with the same rules; status is not a PATCH field', async () => {
    const w = await created()
    t.clock.advance(5000)
    const res = await t.call('PATCH', `/api/webhooks/${w.id}`, {
      body: {
        name: 'Renamed',
        events: ['link.deleted'],
        maxRetries: 0,
        headers: { 'X-A': '1' },
        description: null,
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      events: ['link.deleted'],
      maxRetries: 0,
      headers: { 'X-A': '1' },
      description: null,
      updatedAt: '2026-11-21T10:00:05.000Z',
    })
    expect(res.json()).not.toHaveProperty('secret')
    for (const [patch, field] of [
      [{ url: 'http://example.com/' }, 'url'],
      [{ maxRetries: 11 }, 'maxRetries'],
      [{ headers: { 'User-Agent': 'x' } }, 'headers.User-Agent'],
      [{ status: 'active' }, 'status'],
    ] as const) {
      const r = await t.call('PATCH', `/api/webhooks/${w.id}`, { body: patch })
      expectError(r, 400, 'ValidationError')
      expect(detailFields(r)).toContain(field)
    }
    expectError(await t.call('PATCH', `/api/webhooks/${w.id}`, { body: {} }), 400, 'ValidationError')
  })

  it('delete: 204, then 404', async () => {
    const w = await created()
    expect((await t.call('DELETE', `/api/webhooks/${w.id}`)).statusCode).toBe(204)
    expectError(await t.call('GET', `/api/webhooks/${w.id}`), 404, 'NotFound')
    expectError(await t.call('DELETE', `/api/webhooks/${w.id}`), 404, 'NotFound')
  })

  it("another organization's webhook is a 404 everywhere, and bulk leaves it alone", async () => {
    const w = await created()
    const other = await t.createOrg('other')
    const k = other.ownerKey
    for (const [method, path] of [
      ['GET', `/api/webhooks/${w.id}`],
      ['PATCH', `/api/webhooks/${w.id}`],
      ['DELETE', `/api/webhooks/${w.id}`],
      ['POST', `/api/webhooks/${w.id}/enable`],
      ['POST', `/api/webhooks/${w.id}/disable`],
      ['POST', `/api/webhooks/${w.id}/suspend`],
      ['POST', `/api/webhooks/${w.id}/rotate-secret`],
      ['POST', `/api/webhooks/${w.id}/test`],
      ['GET', `/api/webhooks/${w.id}/deliveries`],
      ['POST', `/api/webhooks/${w.id}/deliveries/dlv_x/retry`],
      ['GET', `/api/webhooks/${w.id}/analytics`],
    ] as const)
      expectError(
        await t.call(method, path, { key: k, ...(method === 'PATCH' ? { body: { name: 'x' } } : {}) }),
        404,
        'NotFound',
      )
    expect((await t.call('GET', '/api/webhooks', { key: k })).json().total).toBe(0)
    for (const action of ['disable', 'delete'])
      expect(
        (await t.call('POST', '/api/webhooks/bulk', { key: k, body: { action, ids: [w.id] } })).json(),
      ).toEqual({
        updated: 0,
      })
    expect((await t.call('GET', `/api/webhooks/${w.id}`)).json().status).toBe('active')
  })
})

describe('webhooks API: status actions, secret rotation, bulk', () => {
  it('disable, enable, suspend change the status as documented', async () => {
    const w = await created()
    const post = (a: string) => t.call('POST', `/api/webhooks/${w.id}/${a}`)
    expect((await post('disable')).json().status).toBe('disabled')
    expectError(await post('suspend'), 422, 'Unprocessable')
    expect((await post('enable')).json().status).toBe('active')
    expect((await post('suspend')).json().status).toBe('suspended')
    expect((await post('disable')).json().status).toBe('disabled')
    expect((await post('enable')).json().status).toBe('active')
    expect((await post('enable')).json().status).toBe('active')
  })

  it('rotate-secret returns a new secret once', async () => {
    const w = await created()
    const res = await t.call('POST', `/api/webhooks/${w.id}/rotate-secret`)
    expect(res.statusCode).toBe(200)
    const rotated = res.json()
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(w.secret)
    expect((await t.call('GET', `/api/webhooks/${w.id}`)).json()).not.toHaveProperty('secret')
  })

  it('bulk enable, disable and delete report how many changed; delete removes delivery logs', async () => {
    const ids = [(await created()).id, (await created()).id, (await created()).id]
    const bulk = (action: string, list: string[]) =>
      t.call('POST', '/api/webhooks/bulk', { body: { action, ids: list } })
    expect((await bulk('disable', [ids[0]!, ids[1]!, 'wh_unknown'])).json()).toEqual({ updated: 2 })
    expect((await bulk('disable', [ids[0]!, ids[1]!])).json()).toEqual({ updated: 0 })
    expect((await t.call('GET', '/api/webhooks?status=disabled')).json().total).toBe(2)
    expect((await bulk('enable', ids)).json()).toEqual({ updated: 2 })
    expect((await t.call('GET', '/api/webhooks?status=active')).json().total).toBe(3)

    await t.call('POST', `/api/webhooks/${ids[0]}/test`, { body: { event: 'link.created' } })
    const logs = () => t.db.kysely.selectFrom('webhook_deliveries').select('id').execute()
    expect((await logs()).length).toBe(1)
    expect((await bulk('delete', [ids[0]!, ids[1]!])).json()).toEqual({ updated: 2 })
    expect((await logs()).length).toBe(0)
    expect((await t.call('GET', '/api/webhooks')).json().total).toBe(1)

    expectError(await bulk('archive', ids), 400, 'ValidationError')
    expectError(await bulk('enable', []), 400, 'ValidationError')
    const hundred = await bulk(
      'enable',
      Array.from({ length: 100 }, (_, i) => `wh_${i}`),
    )
    expect(hundred.statusCode).toBe(200)
    // 100 ids is within the limit; none of them exists, so nothing changed.
    expect(hundred.json()).toEqual({ updated: 0 })
    expectError(
      await bulk(
        'enable',
        Array.from({ length: 101 }, (_, i) => `wh_${i}`),
      ),
      400,
      'ValidationError',
    )
  })
})

describe('webhooks API: templates and utilities', () => {
  it('six templates, each a ready event set; all-events has all thirteen', async () => {
    const res = await t.call('GET', '/api/webhooks/templates')
    expect(res.statusCode).toBe(200)
    const list = res.json().data as Array<{ id: string; events: string[] }>
    expect(list.map((x) => x.id)).toEqual([
      'team-chat',
      'community-chat',
      'analytics',
      'team-notifications',
      'domain-management',
      'all-events',
    ])
    for (const tpl of list) {
      expect(tpl.events.length).toBeGreaterThan(0)
      for (const e of tpl.events) expect(WEBHOOK_EVENTS).toContain(e)
    }
    expect(list.at(-1)!.events).toEqual([...WEBHOOK_EVENTS])
  })

  it('validate-url: errors, warnings (port), suggestions (root path) and a score', async () => {
    const check = async (url: string) =>
      (await t.call('POST', '/api/webhooks/utilities/validate-url', { body: { url } })).json()
    const best = await check('https://hooks.example.com/linkd')
    expect(best).toEqual({ valid: true, errors: [], warnings: [], suggestions: [], securityScore: 100 })
    const port = await check('https://hooks.example.com:8443/linkd')
    expect(port.valid).toBe(true)
    expect(port.warnings.join(' ')).toMatch(/non-standard port 8443/)
    expect(port.securityScore).toBe(90)
    const root = await check('https://hooks.example.com/')
    expect(root.suggestions.join(' ')).toMatch(/path/)
    expect(root.securityScore).toBe(95)
    const local = await check('http://localhost:3000/hook')
    expect(local.valid).toBe(true)
    expect(local.securityScore).toBeLessThan(50)
    const plain = await check('http://hooks.example.com/x')
    expect(plain).toMatchObject({ valid: false, securityScore: 0 })
    expect(plain.errors.join(' ')).toMatch(/HTTPS/)
  })

  it('signature utilities: a timestamp is a Unix ms time up to year 9999 (one past is 400)', async () => {
    const gen = (timestamp: number) =>
      t.call('POST', '/api/webhooks/utilities/generate-signature', {
        body: { secret: 'whsec_test', payload: '{}', timestamp },
      })
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
    expect((await gen(last)).json().signedString).toBe(`${last}.{}`)
    for (const bad of [last + 1, 1e300]) {
      const res = await gen(bad)
      expect(res.statusCode, String(bad)).toBe(400)
      expect(res.json().details[0].field).toBe('timestamp')
    }
    // verify-signature takes the header's text as it came: out of range as text, it is malformed;
    // as a number, it is a number out of range (a body's types are never coerced).
    const verify = (timestamp: unknown) =>
      t.call('POST', '/api/webhooks/utilities/verify-signature', {
        body: { secret: 'whsec_test', payload: '{}', signature: `sha256=${'0'.repeat(64)}`, timestamp },
      })
    const text = await verify('1e300')
    expect(text.statusCode, text.body).toBe(200)
    expect(text.json()).toEqual({ valid: false, reason: 'malformed' })
    const number = await verify(1e300)
    expect(number.statusCode, number.body).toBe(400)
    expect(number.json().details[0].field).toBe('timestamp')
  })

  it('generate-signature and verify-signature agree with an independent HMAC', async () => {
    const payload = '{"id":"evt_1","event":"link.created","data":{"x":"é"}}'
    const gen = await t.call('POST', '/api/webhooks/utilities/generate-signature', {
      body: { secret: 'whsec_test', payload },
    })
    expect(gen.statusCode, gen.body).toBe(200)
    const g = gen.json()
    expect(g.timestamp).toBe(t.clock.now())
    const expected = createHmac('sha256', 'whsec_test').update(`${g.timestamp}.${payload}`).digest('hex')
    expect(g.signature).toBe(`sha256=${expected}`)
    expect(g.signedString).toBe(`${g.timestamp}.${payload}`)
    expect(g.headers).toMatchObject({
      'X-Webhook-Signature': g.signature,
      'X-Webhook-Timestamp': String(g.timestamp),
      'X-Webhook-Event': 'link.created',
      'Content-Type': 'application/json',
      'User-Agent': 'linkd-Webhook/2.0',
    })
    const verify = async (over: Record<string, unknown>) =>
      (
        await t.call('POST', '/api/webhooks/utilities/verify-signature', {
          body: {
            secret: 'whsec_test',
            payload,
            signature: g.signature,
            timestamp: String(g.timestamp),
            ...over,
          },
        })
      ).json()
    expect(await verify({})).toEqual({ valid: true })
    expect(await verify({ timestamp: g.timestamp })).toEqual({ valid: true })
    expect(await verify({ secret: 'whsec_other' })).toEqual({ valid: false, reason: 'mismatch' })
    expect(await verify({ payload: payload.replace('é', 'e') })).toEqual({ valid: false, reason: 'mismatch' })
    expect(await verify({ signature: 'abc' })).toEqual({ valid: false, reason: 'malformed' })
    expect(await verify({ timestamp: 'yesterday' })).toEqual({ valid: false, reason: 'malformed' })
    t.clock.advance(5 * 60_000)
    expect(await verify({})).toEqual({ valid: true })
    t.clock.advance(1)
    expect(await verify({})).toEqual({ valid: false, reason: 'stale' })
    expectError(
      await t.call('POST', '/api/webhooks/utilities/verify-signature', { body: { secret: 's' } }),
      400,
      'ValidationError',
    )
  })
})

describe('webhooks and the click hot path', () => {
  /** Waits for the dispatcher's re-read of the subscribed types (one query). */
  const settled = async (want: boolean) => {
    for (let i = 0; i < 50 && t.app.linkd.services.events.listening('link.clicked') !== want; i++)
      await new Promise((r) => setTimeout(r, 10))
    return t.app.linkd.services.events.listening('link.clicked')
  }

  it('clicks are announced only while some active webhook subscribes to link.clicked', async () => {
    expect(await settled(false)).toBe(false)
    await created({ events: ['link.created'] })
    expect(await settled(false)).toBe(false)

    const hook = await created({ events: ['link.clicked'] })
    // At once (no event emitted right after the create may be missed), and still after the re-read.
    expect(t.app.linkd.services.events.listening('link.clicked')).toBe(true)
    expect(await settled(true)).toBe(true)

    expect((await t.call('POST', `/api/webhooks/${hook.id}/disable`)).statusCode).toBe(200)
    expect(await settled(false)).toBe(false)
    expect((await t.call('POST', `/api/webhooks/${hook.id}/enable`)).statusCode).toBe(200)
    expect(await settled(true)).toBe(true)
    expect((await t.call('DELETE', `/api/webhooks/${hook.id}`)).statusCode).toBe(204)
    expect(await settled(false)).toBe(false)
  })

  it("another organization's subscription counts too (the filter is global; delivery stays per organization)", async () => {
    const other = await t.createOrg('other')
    await create({ events: ['link.clicked'] }, other.ownerKey)
    expect(await settled(true)).toBe(true)
  })
})

describe('webhook custom headers at rest', () => {
  it('are stored encrypted (they often hold credentials) and returned to the owner', async () => {
    const hook = await created({ headers: { Authorization: 'Bearer s3cret-token-value' } })
    const row = await t.db.kysely
      .selectFrom('webhooks')
      .select(['headers', 'secret_sealed'])
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow()
    expect(row.headers).not.toContain('s3cret-token-value')
    expect(row.headers).not.toContain('Authorization')
    expect(row.secret_sealed).not.toContain(hook.secret)
    const got = await t.call('GET', `/api/webhooks/${hook.id}`)
    expect(got.json().headers).toEqual({ Authorization: 'Bearer s3cret-token-value' })
  })
})
