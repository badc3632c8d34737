/**
 * The served OpenAPI document as a contract third-party tools rely on: it does
 * not change when the Postman collection is built, it documents what the routes really answer,
 * and its request examples are accepted by the routes they describe.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EXAMPLE_INVITATION_TOKEN,
  EXAMPLE_LINK_ID,
  EXAMPLE_TIME_ISO,
  requestExamples,
} from '../../../daemon/http/openapi-examples.js'
import { sha256Hex } from '../../../daemon/crypto.js'
import { joinTeam } from '../../support/team.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { raw } from '../../support/responses.js'
import { fraudEvent, gameIdOf, seedFraud } from '../../support/fraud.js'
import { S3RVER_KEY, startS3, type TestS3 } from '../../support/s3.js'

type Json = Record<string, unknown>
interface Operation {
  operationId?: string
  security?: Array<Record<string, string[]>>
  responses: Record<string, { description?: string; headers?: Json; content?: Json }>
  tags?: string[]
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Json }>
  requestBody?: { content: Record<string, { schema?: Json; example?: unknown }> }
}
interface OpenApiDoc {
  info: { contact?: Json; license?: { name?: string } }
  tags?: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, Operation>>
  components: { securitySchemes: Record<string, Json>; schemas?: Record<string, Json> }
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete']
const WRITES = new Set(['post', 'patch', 'put', 'delete'])

function operations(doc: OpenApiDoc): Array<{ path: string; method: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ path, method, op })),
  )
}

/** Every object in a JSON tree, with its JSON pointer. */
function* nodes(value: unknown, pointer = ''): Generator<[Json, string]> {
  if (!value || typeof value !== 'object') return
  if (!Array.isArray(value)) yield [value as Json, pointer]
  for (const [k, v] of Object.entries(value)) yield* nodes(v, `${pointer}/${k}`)
}

const isPublic = (op: Operation) => Array.isArray(op.security) && op.security.length === 0
const needsApiKey = (op: Operation) => (op.security ?? []).some((s) => 'bearerAuth' in s)
const bodyOf = (op: Operation) => op.requestBody?.content['application/json']

describe('OpenAPI document contract', () => {
  let t: TestApp
  let doc: OpenApiDoc
  const getDoc = async () => {
    const res = await t.call('GET', '/api/docs/openapi.json', { key: null })
    expect(res.statusCode).toBe(200)
    return res.json<OpenApiDoc>()
  }
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://links.example.com' })
    doc = await getDoc()
  })
  afterAll(() => t.close())

  it('fetching the Postman collection leaves the served document unchanged', async () => {
    const collection = await raw(t, { method: 'GET', url: '/docs/postman/collection.json' })
    expect(collection.statusCode).toBe(200)
    const after = await getDoc()
    expect(after).toEqual(doc)
    // What the converter used to leave behind in the served object.
    const bulk = bodyOf(after.paths['/api/use/links/bulk']!.post!)!.schema as {
      properties: { links: { maxItems?: number } }
    }
    expect(bulk.properties.links.maxItems).toBe(1000)
    for (const [node, pointer] of nodes(after.paths))
      if (pointer.match(/\/headers\/[^/]+$/)) expect(Object.keys(node), pointer).not.toContain('name')
  })

  it('every nullable enum lists null among its values', () => {
    const found: string[] = []
    for (const [node, pointer] of nodes(doc))
      if (node.nullable === true && Array.isArray(node.enum)) {
        found.push(pointer)
        expect(node.enum, pointer).toContain(null)
      }
    for (const prop of ['/sslStatus', '/lastStatus', '/band'])
      expect(
        found.some((p) => p.endsWith(prop)),
        prop,
      ).toBe(true)
  })

  it('every operation has a unique camelCase operationId', () => {
    const ids = operations(doc).map(({ path, method, op }) => {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/)
      return op.operationId
    })
    expect(new Set(ids).size).toBe(ids.length)
    expect(doc.paths['/api/keys/{id}']!.get!.operationId).toBe('getApiKeysById')
  })

  it('declares every tag with a description; info has contact and the package license', () => {
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]))
    for (const { path, method, op } of operations(doc))
      for (const tag of op.tags ?? []) {
        expect(declared.has(tag), `${method} ${path} tag ${tag}`).toBe(true)
        expect(declared.get(tag)?.length, tag).toBeGreaterThan(10)
      }
    expect(doc.info.contact).toBeDefined()
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      license: string
    }
    expect(doc.info.license?.name).toBe(pkg.license)
  })

  it('public routes declare security: [], the others name their scheme', () => {
    for (const [path, method] of [
      ['/health', 'get'],
      ['/health/live', 'get'],
      ['/health/ready', 'get'],
      ['/api/use', 'get'],
      ['/api/keys/test', 'post'],
    ] as const)
      expect(doc.paths[path]![method]!.security, `${method} ${path}`).toEqual([])
    for (const { path, method, op } of operations(doc))
      expect(Array.isArray(op.security), `${method} ${path} declares security`).toBe(true)
  })

  it('documents the ingestion body, its headers and the SDK-key scheme', () => {
    expect(doc.components.securitySchemes.sdkKey).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(Object.keys(doc.components.securitySchemes)).toEqual(
      expect.arrayContaining(['bearerAuth', 'apiKeyHeader', 'sdkKey']),
    )
    const op = doc.paths['/api/v1/gaming/events']!.post!
    expect(op.security).toEqual([{ sdkKey: [] }])
    const headers = new Map((op.parameters ?? []).filter((p) => p.in === 'header').map((p) => [p.name, p]))
    expect(headers.get('X-Game-ID')?.required).toBe(true)
    expect(headers.get('X-Organization-ID')?.required).toBe(true)
    for (const optional of ['X-Signature', 'X-Timestamp', 'Content-Encoding'])
      expect(headers.get(optional)?.required, optional).not.toBe(true)
    const schema = bodyOf(op)!.schema as {
      required: string[]
      properties: { events: { items: { required: string[]; properties: Json } } }
    }
    expect(schema.required).toEqual(expect.arrayContaining(['batch_id', 'batch_timestamp', 'events']))
    expect(schema.properties.events.items.required).toEqual(
      expect.arrayContaining(['event_id', 'event_type', 'timestamp', 'player_id']),
    )
    expect(Object.keys(schema.properties.events.items.properties)).toEqual(
      expect.arrayContaining(['session_id', 'platform', 'data']),
    )
  })

  it('documents the statuses every route can answer', () => {
    for (const { path, method, op } of operations(doc)) {
      const codes = Object.keys(op.responses)
      const expected = ['400', '429']
      if (needsApiKey(op)) expected.push('401', '403')
      if (path.includes('{')) expected.push('404')
      if (WRITES.has(method)) expected.push('413', '415')
      if (WRITES.has(method) && needsApiKey(op)) expected.push('409', '422')
      expect(codes, `${method} ${path}`).toEqual(expect.arrayContaining(expected))
      for (const code of codes.filter((c) => Number(c) >= 400)) {
        const r = op.responses[code]!
        expect(r.description?.length, `${method} ${path} ${code}`).toBeGreaterThan(0)
        expect(r.content?.['application/json'], `${method} ${path} ${code} error body`).toBeDefined()
      }
    }
    // domain-specific ones, read from the services
    const codes = (path: string, method: string) => Object.keys(doc.paths[path]![method]!.responses)
    expect(codes('/api/v1/gaming/gdpr/deletions', 'post')).toContain('404')
    // A game or link named in the query or body that is not the organization's is a 404 too.
    expect(codes('/api/v1/gaming/analytics/funnel', 'get')).toContain('404')
    expect(codes('/api/v1/gaming/export', 'get')).toContain('404')
    expect(codes('/api/use/analytics/clicks/export', 'get')).toContain('404')
    expect(codes('/api/exports/destinations', 'post')).toContain('404')
    expect(doc.paths['/api/domains']!.post!.responses['409']!.description).toMatch(/already/)
    expect(doc.paths['/api/domains']!.post!.responses['422']!.description).toMatch(/own domain/)
    expect(doc.paths['/api/webhooks/{id}/suspend']!.post!.responses['422']!.description).toMatch(/active/)
    expect(doc.paths['/api/v1/admin/games']!.post!.responses['409']!.description).toMatch(/slug|id/)
    // every 409 and 422 of an authenticated write also names the idempotency case
    for (const { path, method, op } of operations(doc))
      if (WRITES.has(method) && needsApiKey(op)) {
        expect(op.responses['409']!.description, `${method} ${path}`).toMatch(/X-Idempotency-Key/)
        expect(op.responses['422']!.description, `${method} ${path}`).toMatch(/X-Idempotency-Key/)
        const idem = (op.parameters ?? []).find((p) => p.name === 'X-Idempotency-Key')
        expect(idem, `${method} ${path} X-Idempotency-Key`).toMatchObject({ in: 'header' })
        expect(idem?.required).not.toBe(true)
      }
    for (const { path, method, op } of operations(doc))
      expect(op.responses['429']!.headers, `${method} ${path}`).toHaveProperty('Retry-After')
  })

  it('every route taking a body answers 415 to another content type, as documented', async () => {
    let checked = 0
    for (const { path, method, op } of operations(doc)) {
      if (!WRITES.has(method) || !(isPublic(op) || needsApiKey(op))) continue
      // A safety list upload takes the feed file as downloaded, whatever its content type.
      if (`${method} ${path}` === 'post /api/safety/lists') continue
      const url = path.replace(/\{[^}]+\}/g, 'x')
      const res = await raw(t, {
        method: method.toUpperCase() as 'POST',
        url,
        headers: { authorization: `Bearer ${t.ownerKey}`, 'content-type': 'text/plain' },
        payload: 'hello',
      })
      expect(res.statusCode, `${method} ${path}`).toBe(415)
      expect(Object.keys(op.responses), `${method} ${path}`).toContain('415')
      checked++
    }
    expect(checked).toBeGreaterThan(30)
  })

  it('a request body over the limit is 413, as documented', async () => {
    const res = await t.call('POST', '/api/keys', { body: { name: 'x'.repeat(2_000_000) } })
    expect(res.statusCode).toBe(413)
    expect(Object.keys(doc.paths['/api/keys']!.post!.responses)).toContain('413')
  })
})

describe('OpenAPI request examples', () => {
  let t: TestApp
  let doc: OpenApiDoc
  let s3: TestS3
  beforeAll(async () => {
    // Webhook tests resolve nothing: no network.
    t = await createTestApp(
      { publicUrl: 'https://links.example.com' },
      { resolve: () => Promise.reject(new Error('offline')) },
    )
    doc = (await t.call('GET', '/api/docs/openapi.json', { key: null })).json<OpenApiDoc>()
    s3 = await startS3(['fixture-lake'])
  })
  afterAll(async () => {
    await s3.close()
    await t.close()
  })

  it('every request body has an example', () => {
    let bodies = 0
    for (const { path, method, op } of operations(doc)) {
      if (!op.requestBody) continue
      bodies++
      expect(bodyOf(op)?.example, `${method} ${path}`).toBeDefined()
    }
    expect(bodies).toBeGreaterThan(15)
  })

  it('every example names an operation of the document (none is left behind by a route change)', () => {
    const ops = new Set(operations(doc).map(({ path, method }) => `${method.toUpperCase()} ${path}`))
    for (const key of Object.keys(requestExamples())) expect(ops.has(key), key).toBe(true)
  })

  it('every example is accepted by its route (2xx)', async () => {
    // Resources the examples' path parameters refer to, created the ordinary way.
    const gdprGame = (
      bodyOf(doc.paths['/api/v1/gaming/gdpr/deletions']!.post!)!.example as { gameId: string }
    ).gameId
    const game = await t.call('POST', '/api/v1/admin/games', {
      body: { name: 'Fixture game', slug: gdprGame, platform: 'ios' },
    })
    expect(game.statusCode, game.body).toBe(201)
    const g = game.json<{ id: string; sdkKey: string; organizationId: string }>()
    const link = await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.org/' } })
    const smartLink = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://example.org/game' },
    })
    const webhook = await t.call('POST', '/api/webhooks', {
      body: { name: 'fixture', url: 'https://hooks.example.org/x', events: ['link.created'] },
    })
    const qrCode = await t.call('POST', '/api/use/qr-codes', {
      body: { linkId: link.json<{ id: string }>().id },
    })
    // The QR code example names a fixed link id: a second link takes it.
    const exampleLink = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.org/q' },
    })
    await sqlRows(
      t,
      'UPDATE links SET id = ? WHERE id = ?',
      EXAMPLE_LINK_ID,
      exampleLink.json<{ id: string }>().id,
    )
    const domain = await t.call('POST', '/api/domains', { body: { domain: 'fixture.example.org' } })
    // The run example writes a day to a real S3-protocol server.
    const destination = await t.call('POST', '/api/exports/destinations', {
      body: { endpoint: s3.endpoint, bucket: 'fixture-lake', ...S3RVER_KEY, datasets: ['clicks'] },
    })
    expect(destination.statusCode, destination.body).toBe(201)
    const key = await t.createKey({ name: 'fixture', preset: 'full' })
    const fraudGame = await t.call('POST', '/api/v1/admin/games', {
      body: { name: 'Fraud fixture', platform: 'android', modules: { fraud: true } },
    })
    const fg = fraudGame.json<{ id: string }>().id
    const rules = await t.call('GET', `/api/v1/admin/fraud/games/${fg}/rules`)
    const skanGame = await t.call('POST', '/api/v1/admin/games', {
      body: { name: 'SKAN fixture', platform: 'ios', modules: { skan: true } },
    })
    const sg = skanGame.json<{ id: string }>().id
    const campaign = await t.call('POST', `/api/v1/skan/games/${sg}/campaigns`, {
      body: {
        name: 'fixture',
        adNetworkId: 'fixture.skadnetwork',
        lockWindowHours: 24,
        conversionSchema: { events: {} },
      },
    })
    // A fraud event as the ingestion pipeline stores it, for the review example.
    const flagged = fraudEvent(t, await gameIdOf(t, fg))
    await seedFraud(t, flagged.gameId, [flagged])
    const member = await joinTeam(t, 'member', 'Fixture')
    // A pending invitation whose token is the accept example's.
    await sqlRows(
      t,
      `INSERT INTO team_invitations (id, organization_id, email, role, token_hash, status, invited_by, expires_at, created_at)
       VALUES ('inv_example', ?, 'grace@example.com', 'member', ?, 'pending', NULL, ?, ?)`,
      t.orgId,
      sha256Hex(EXAMPLE_INVITATION_TOKEN),
      t.clock.now() + 86_400_000,
      t.clock.now(),
    )
    const ids: Record<string, string> = {
      '/api/team/members/': member.memberId,
      '/api/v1/admin/fraud/games/': fg,
      [`/api/v1/admin/fraud/games/${fg}/rules/`]: rules.json<{ data: { id: string }[] }>().data[0]!.id,
      [`/api/v1/admin/fraud/games/${fg}/events/`]: flagged.id,
      '/api/v1/skan/games/': sg,
      '/api/v1/skan/campaigns/': campaign.json<{ id: string }>().id,
      '/api/keys/': key.id,
      '/api/use/links/': link.json<{ id: string }>().id,
      '/api/use/smart-links/': smartLink.json<{ id: string }>().id,
      '/api/use/qr-codes/': qrCode.json<{ id: string }>().id,
      '/api/webhooks/': webhook.json<{ id: string }>().id,
      '/api/domains/': domain.json<{ id: string }>().id,
      '/api/exports/destinations/': destination.json<{ id: string }>().id,
      '/api/v1/admin/games/': g.id,
    }
    // Each {parameter} becomes the fixture named by the path before it.
    const withIds = (path: string) =>
      path
        .split(/(\{[^}]+\})/)
        .reduce((url, part) => url + (part.startsWith('{') ? (ids[url] ?? 'x') : part), '')

    for (const { path, method, op } of operations(doc)) {
      const example = bodyOf(op)?.example
      if (example === undefined) continue
      const url = withIds(path)
      expect(url, `${method} ${path}: a fixture for its path`).not.toMatch(/[{}]/)
      const headers: Record<string, string> = op.security?.some((s) => 'sdkKey' in s)
        ? {
            authorization: `Bearer ${g.sdkKey}`,
            'x-game-id': g.id,
            'x-organization-id': g.organizationId,
          }
        : { authorization: `Bearer ${t.ownerKey}` }
      // Where the rules want the current time (a replay window), the document's fixed example
      // time says so; a client sends its own time there, and so does this test.
      const sent = JSON.parse(
        JSON.stringify(example).replaceAll(`"${EXAMPLE_TIME_ISO}"`, JSON.stringify(new Date(t.clock.now()))),
      ) as object
      const res = await raw(t, { method: method.toUpperCase() as 'POST', url, headers, payload: sent })
      expect(
        res.statusCode,
        `${method} ${path} ${JSON.stringify(example)}: ${res.body}`,
      ).toBeGreaterThanOrEqual(200)
      expect(res.statusCode, `${method} ${path} ${JSON.stringify(example)}: ${res.body}`).toBeLessThan(300)
      if (path === '/api/webhooks/utilities/verify-signature')
        expect(res.json(), 'the fixed example time is past the 5-minute window').toEqual({
          valid: false,
          reason: 'stale',
        })
      if (path === '/api/v1/gaming/events') {
        const r = res.json<{ accepted: number; rejected: number }>()
        expect(r.rejected, res.body).toBe(0)
        expect(r.accepted).toBeGreaterThan(0)
      }
    }
  })

  it('expiry examples are fixed and far in the future, so they stay valid', () => {
    const expiries = (d: OpenApiDoc) =>
      [...nodes(d.paths)].flatMap(([node]) =>
        typeof node.expiresAt === 'string' && /^\d{4}-/.test(node.expiresAt)
          ? [Date.parse(node.expiresAt)]
          : [],
      )
    expect(expiries(doc).length).toBeGreaterThan(1)
    for (const e of expiries(doc)) expect(new Date(e).getUTCFullYear()).toBeGreaterThanOrEqual(2099)
  })
})

describe('the same document on every fetch', () => {
  const apps: TestApp[] = []
  afterAll(() => Promise.all(apps.map((a) => a.close())))
  const fetchRaw = async (t: TestApp, url: string) => {
    const res = await raw(t, { method: 'GET', url })
    expect(res.statusCode, url).toBe(200)
    return res.body
  }

  it('is byte-identical across fetches, a moved clock and two app builds', async () => {
    const build = async () => {
      const t = await createTestApp({ publicUrl: 'https://links.example.com' })
      apps.push(t)
      return t
    }
    const a = await build()
    const first = await fetchRaw(a, '/api/docs/openapi.json')
    const collection = await fetchRaw(a, '/docs/postman/collection.json')
    a.clock.advance(1000)
    expect(await fetchRaw(a, '/api/docs/openapi.json')).toBe(first)
    // More than a year later: nothing dated "now" moves. The collection (whose ids the converter
    // draws at random) is built once, and its requests come from this same document.
    a.clock.advance(400 * 86_400_000)
    expect(await fetchRaw(a, '/api/docs/openapi.json')).toBe(first)
    expect(await fetchRaw(a, '/docs/postman/collection.json')).toBe(collection)
    // The docs UI shows the same document.
    expect(await fetchRaw(a, '/api/docs/json')).toBe(first)
    // Another app (a restart) whose clock reads another time.
    const b = await build()
    b.clock.advance(3 * 86_400_000 + 12_345)
    expect(await fetchRaw(b, '/api/docs/openapi.json')).toBe(first)
  })
})

describe('docs page over plain HTTP on a host name', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'http://linkd.example:8080' })
  })
  afterAll(() => t.close())

  it('serves the page and its assets without upgrade-insecure-requests', async () => {
    const get = (url: string) => raw(t, { method: 'GET', url, headers: { host: 'linkd.example:8080' } })
    const page = await get('/api/docs')
    expect(page.statusCode).toBe(200)
    expect(page.body).toMatch(/<html/i)
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(assets.length).toBeGreaterThan(2)
    for (const res of [
      page,
      ...(await Promise.all(
        assets.map((a) => get(new URL(a, 'http://linkd.example:8080/api/docs/').pathname)),
      )),
    ]) {
      expect(res.statusCode).toBe(200)
      const csp = String(res.headers['content-security-policy'] ?? '')
      expect(csp).not.toMatch(/upgrade-insecure-requests/)
      expect(csp).not.toMatch(/https:\/\/|block-all-mixed-content/)
    }
    // The UI loads the same document as /api/docs/openapi.json.
    const ui = (await get('/api/docs/json')).json<OpenApiDoc>()
    const served = (await get('/api/docs/openapi.json')).json<OpenApiDoc>()
    expect(ui.paths).toEqual(served.paths)
  })
})

describe('Postman collection variables', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://links.example.com' })
  })
  afterAll(() => t.close())

  it('declares every variable it uses', async () => {
    const res = await raw(t, { method: 'GET', url: '/docs/postman/collection.json' })
    const collection = res.json<{ variable?: Array<{ key: string; value?: string }> }>()
    const used = new Set(
      [...res.body.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]!).filter((v) => !v.startsWith('$')),
    )
    expect([...used]).toEqual(expect.arrayContaining(['baseUrl', 'bearerToken']))
    const declared = new Set((collection.variable ?? []).map((v) => v.key))
    for (const v of used) expect(declared.has(v), `variable ${v} declared`).toBe(true)
    expect(collection.variable!.find((v) => v.key === 'baseUrl')?.value).toBe('https://links.example.com')
  })
})
