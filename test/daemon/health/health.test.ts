import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, JOB_NAMES, type TestApp } from '../../support/app.js'
import { expectError, raw } from '../../support/responses.js'

interface RouteInfo {
  method: string
  path: string
  permission: string | null
}

/** Routes that need no key (contract: discovery, the key tester, the docs). */
// The SKAN postback needs no key: Apple signs it (docs/reference/skan.md).
const PUBLIC = new Set([
  'GET /api/use',
  'POST /api/keys/test',
  'POST /api/v1/skan/postbacks',
  // The invitation token is the credential.
  'POST /api/team/invitations/accept',
])
const isPublic = (method: string, path: string) =>
  PUBLIC.has(`${method} ${path}`) || path === '/api/docs' || path.startsWith('/api/docs/')

describe('health', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  it('GET /health answers without a key', async () => {
    t.clock.advance(90_000)
    const res = await t.call('GET', '/health', { key: null })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-request-id']).toMatch(/^req_/)
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    const body = res.json()
    expect(body).toMatchObject({
      status: 'ok',
      uptimeSeconds: 90,
      checks: { database: 'ok', migrations: 'ok' },
    })
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('GET /health/live answers without a key', async () => {
    const res = await t.call('GET', '/health/live', { key: null })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
  })

  it('GET /health/ready: database, migrations and jobs', async () => {
    const res = await t.call('GET', '/health/ready', { key: null })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({ status: 'ok', checks: { database: 'ok', migrations: 'ok' } })
    expect(body.jobs.map((j: { name: string }) => j.name)).toEqual(JOB_NAMES)
  })

  it('GET /health/ready is 503 with the error body while migrations are pending', async () => {
    await sql`DELETE FROM schema_migrations`.execute(t.db.kysely)
    const res = await t.call('GET', '/health/ready', { key: null })
    const body = expectError(res, 503, 'ServiceUnavailable', '/health/ready')
    expect(body.details).toEqual([{ field: 'migrations', message: 'pending; run linkd migrate' }])
    expect((await t.call('GET', '/health', { key: null })).json()).toMatchObject({
      status: 'down',
      checks: { migrations: 'pending' },
    })
    // liveness does not depend on it
    expect((await t.call('GET', '/health/live', { key: null })).statusCode).toBe(200)
  })

  it('health routes ignore a bad key rather than refusing', async () => {
    const res = await t.call('GET', '/health', { key: 'lk_live_short' })
    expect(res.statusCode).toBe(200)
    // The same answer as without a key.
    expect(res.json()).toMatchObject({ status: 'ok', checks: { database: 'ok', migrations: 'ok' } })
  })
})

describe('discovery GET /api/use', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp({ publicUrl: 'https://links.example.com' })
  })
  afterEach(() => t.close())

  it('lists version, documentation, authentication and routes with their permissions, without a key', async () => {
    const res = await t.call('GET', '/api/use', { key: null })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({
      name: 'linkd',
      version: 'v1',
      status: 'ok',
      documentation: {
        openapi: 'https://links.example.com/api/docs/openapi.json',
        ui: 'https://links.example.com/api/docs',
        postman: 'https://links.example.com/docs/postman/collection.json',
      },
      authentication: ['Authorization: Bearer <API_KEY>', 'X-API-Key: <API_KEY>'],
      features: { gaming: true },
    })
    const routes = body.routes as RouteInfo[]
    const expected: RouteInfo[] = [
      { method: 'GET', path: '/api/keys', permission: 'keys:read' },
      { method: 'POST', path: '/api/keys', permission: 'keys:write' },
      { method: 'GET', path: '/api/keys/:id', permission: 'keys:read' },
      { method: 'PATCH', path: '/api/keys/:id', permission: 'keys:write' },
      { method: 'DELETE', path: '/api/keys/:id', permission: 'keys:write' },
      { method: 'POST', path: '/api/keys/:id/regenerate', permission: 'keys:write' },
      { method: 'POST', path: '/api/keys/:id/revoke', permission: 'keys:write' },
      { method: 'POST', path: '/api/keys/:id/activate', permission: 'keys:write' },
      { method: 'POST', path: '/api/keys/:id/deactivate', permission: 'keys:write' },
      { method: 'GET', path: '/api/keys/:id/activity', permission: 'keys:read' },
      { method: 'POST', path: '/api/keys/test', permission: null },
      { method: 'GET', path: '/api/use', permission: null },
      { method: 'POST', path: '/api/v1/gaming/events', permission: 'game SDK key' },
    ]
    for (const r of expected) expect(routes).toContainEqual(r)
    // no HEAD duplicates, no docs routes, no non-API routes
    expect(routes.some((r) => r.method === 'HEAD')).toBe(false)
    expect(routes.some((r) => r.path.startsWith('/api/docs') || !r.path.startsWith('/api/'))).toBe(false)
    // public routes are exactly the documented public ones
    expect(
      routes
        .filter((r) => r.permission === null)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual([...PUBLIC].sort())
  })
})

describe('every non-public /api/ route needs a key', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(() => t.close())

  async function allRoutes(): Promise<Array<{ method: string; path: string }>> {
    const discovery = (await t.call('GET', '/api/use', { key: null })).json().routes as RouteInfo[]
    const doc = (await t.call('GET', '/api/docs/openapi.json', { key: null })).json() as {
      paths: Record<string, Record<string, unknown>>
    }
    const seen = new Map<string, { method: string; path: string }>()
    for (const r of discovery) seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path })
    for (const [path, ops] of Object.entries(doc.paths)) {
      const fastifyPath = path.replace(/\{(\w+)\}/g, ':$1')
      for (const method of Object.keys(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
        seen.set(`${method.toUpperCase()} ${fastifyPath}`, {
          method: method.toUpperCase(),
          path: fastifyPath,
        })
      }
    }
    return [...seen.values()].filter((r) => r.path.startsWith('/api/'))
  }

  const concrete = (path: string) =>
    path.replace(/:(\w+)/g, (_m, name: string) => (name === 'id' ? 'key_doesnotmatter' : `x-${name}`))

  it('returns 401 without a key (Bearer or X-API-Key) except the public list', async () => {
    const routes = await allRoutes()
    expect(routes.length).toBeGreaterThanOrEqual(12)
    const guarded = routes.filter((r) => !isPublic(r.method, r.path))
    expect(guarded.length).toBeGreaterThanOrEqual(10)
    for (const r of guarded) {
      const url = concrete(r.path)
      const payload = ['POST', 'PATCH', 'PUT'].includes(r.method) ? { name: 'x' } : undefined
      const none = await raw(t, { method: r.method as 'GET', url, ...(payload ? { payload } : {}) })
      expectError(none, 401, 'Unauthorized', url)
      const bad = await raw(t, {
        method: r.method as 'GET',
        url,
        headers: { 'x-api-key': `lk_live_${'0'.repeat(32)}` },
      })
      expectError(bad, 401, 'Unauthorized', url)
      if (r.method === 'GET')
        expect((await raw(t, { method: 'HEAD', url })).statusCode, `HEAD ${url}`).toBe(401)
    }
    for (const r of routes.filter((x) => isPublic(x.method, x.path))) {
      const res = await raw(t, {
        method: r.method as 'GET',
        url: r.path,
        ...(r.method === 'POST' ? { payload: { key: 'lk_live_short' } } : {}),
      })
      // Answered without a key; {key} is no postback (nor an acceptance), so those routes say what is wrong.
      const expected = ['/api/v1/skan/postbacks', '/api/team/invitations/accept'].includes(r.path) ? 400 : 200
      expect(res.statusCode, `${r.method} ${r.path}`).toBe(expected)
    }
  })

  it('docs routes are public', async () => {
    for (const url of [
      '/api/docs',
      '/api/docs/openapi.json',
      '/api/docs/json',
      '/docs/postman/collection.json',
    ]) {
      const res = await raw(t, { method: 'GET', url })
      expect([200, 302], url).toContain(res.statusCode)
    }
  })
})
