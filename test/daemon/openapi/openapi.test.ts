import SwaggerParser from '@apidevtools/swagger-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { raw } from '../../support/responses.js'

type Json = Record<string, unknown>
interface Operation {
  security?: Array<Record<string, string[]>>
  responses: Record<string, { headers?: Json; content?: Json }>
  description?: string
  tags?: string[]
  requestBody?: Json
}
interface OpenApiDoc {
  openapi: string
  info: { title: string; version: string }
  servers: Array<{ url: string }>
  paths: Record<string, Record<string, Operation>>
  components: { securitySchemes: Json; schemas?: Json }
}

interface PostmanItem {
  name?: string
  item?: PostmanItem[]
  request?: { method: string; url: { raw?: string; path?: string[] } | string }
}

function flatten(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((i) => (i.item ? flatten(i.item) : [i]))
}

describe('OpenAPI document', () => {
  let t: TestApp
  let doc: OpenApiDoc
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://links.example.com' })
    const res = await t.call('GET', '/api/docs/openapi.json', { key: null })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    doc = res.json<OpenApiDoc>()
  })
  afterAll(() => t.close())

  it('is a valid OpenAPI 3.0 document', async () => {
    expect(doc.openapi).toMatch(/^3\.0\./)
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined()
    expect(doc.info.title).toBe('linkd API')
    expect(doc.servers).toEqual([{ url: 'https://links.example.com' }])
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKeyHeader',
      'bearerAuth',
      'sdkKey',
    ])
  })

  it('documents every /api/keys operation with both security schemes and its permission', () => {
    const expected: Array<[string, string, string]> = [
      ['/api/keys', 'get', 'keys:read'],
      ['/api/keys', 'post', 'keys:write'],
      ['/api/keys/{id}', 'get', 'keys:read'],
      ['/api/keys/{id}', 'patch', 'keys:write'],
      ['/api/keys/{id}', 'delete', 'keys:write'],
      ['/api/keys/{id}/regenerate', 'post', 'keys:write'],
      ['/api/keys/{id}/revoke', 'post', 'keys:write'],
      ['/api/keys/{id}/activate', 'post', 'keys:write'],
      ['/api/keys/{id}/deactivate', 'post', 'keys:write'],
      ['/api/keys/{id}/activity', 'get', 'keys:read'],
    ]
    for (const [path, method, scope] of expected) {
      const op = doc.paths[path]?.[method]
      expect(op, `${method} ${path}`).toBeDefined()
      expect(op!.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }])
      expect(op!.description).toContain(scope)
      expect(op!.tags).toEqual(['API keys'])
      for (const code of ['401', '403', '429'])
        expect(Object.keys(op!.responses), `${method} ${path} ${code}`).toContain(code)
      const success = Object.entries(op!.responses).find(([c]) => c.startsWith('2'))
      expect(success, `${method} ${path} 2xx`).toBeDefined()
      const headers = (success![1].headers ?? {}) as Record<string, { schema?: { type?: string } }>
      expect(Object.keys(headers).sort()).toEqual([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ])
      for (const h of Object.values(headers)) expect(h.schema?.type).toBe('integer')
    }
    expect(Object.keys(doc.paths['/api/keys']!.post!.responses)).toContain('201')
    expect(Object.keys(doc.paths['/api/keys/{id}']!.delete!.responses)).toContain('204')
    expect(doc.paths['/api/keys']!.post!.requestBody).toBeDefined()
  })

  it('the public routes declare an empty security requirement and no 401', () => {
    for (const [path, method] of [
      ['/api/keys/test', 'post'],
      ['/api/use', 'get'],
    ] as const) {
      const op = doc.paths[path]?.[method]
      expect(op, `${method} ${path}`).toBeDefined()
      expect(op!.security).toEqual([])
      expect(Object.keys(op!.responses)).not.toContain('401')
    }
  })

  it('documents the error body on error responses', () => {
    const err = doc.paths['/api/keys']!.get!.responses['401']!
    const schema = (err.content?.['application/json'] as { schema: Json }).schema
    const resolved = schema.$ref
      ? (doc.components.schemas?.[String(schema.$ref).split('/').pop()!] as Json)
      : schema
    expect(Object.keys((resolved.properties as Json) ?? {})).toEqual(
      expect.arrayContaining(['error', 'message', 'statusCode', 'timestamp', 'path', 'details']),
    )
  })

  it('lists every route of discovery', async () => {
    const routes = (await t.call('GET', '/api/use', { key: null })).json().routes as Array<{
      method: string
      path: string
    }>
    for (const r of routes) {
      const path = r.path.replace(/:(\w+)/g, '{$1}')
      expect(doc.paths[path]?.[r.method.toLowerCase()], `${r.method} ${path}`).toBeDefined()
    }
  })

  it('hides its own documentation routes', () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/docs') || p.startsWith('/docs/'))).toEqual(
      [],
    )
  })
})

describe('docs UI and Postman collection', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  it('GET /api/docs serves the interactive docs as HTML', async () => {
    let res = await raw(t, { method: 'GET', url: '/api/docs' })
    for (let hops = 0; hops < 3 && res.statusCode >= 300 && res.statusCode < 400; hops++) {
      const location = String(res.headers.location)
      res = await raw(t, { method: 'GET', url: new URL(location, 'http://localhost/api/docs').pathname })
    }
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toMatch(/<html/i)
    expect(res.headers['x-ratelimit-limit']).toBeDefined()
  })

  it('static/index.html with a query leads to the docs page, never a redirect to itself', async () => {
    for (const url of [
      '/api/docs/static/index.html?url=https://evil.example/spec.json',
      '/api/docs/static/index.html?x=1',
      '/api/docs/static/index.html',
    ]) {
      const seen = [url]
      let res = await raw(t, { method: 'GET', url })
      while (res.statusCode >= 300 && res.statusCode < 400) {
        const next = String(res.headers.location)
        expect(seen, `${url} redirects to ${next}`).not.toContain(next)
        expect(seen.length, url).toBeLessThan(3)
        seen.push(next)
        res = await raw(t, { method: 'GET', url: next })
      }
      expect(res.statusCode, url).toBe(200)
      expect(res.body).toMatch(/<html/i)
    }
  })

  it('GET /docs/postman/collection.json is a Postman v2.1 collection with the keys requests', async () => {
    const res = await raw(t, { method: 'GET', url: '/docs/postman/collection.json' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const collection = res.json<{ info: { name: string; schema: string }; item: PostmanItem[] }>()
    expect(collection.info.schema).toMatch(/collection\/v2\.1\.0\/collection\.json$/)
    expect(collection.info.name).toBe('linkd API')
    const requests = flatten(collection.item).filter((i) => i.request)
    const signatures = requests.map((i) => {
      const url = i.request!.url
      const path = typeof url === 'string' ? new URL(url).pathname : `/${(url.path ?? []).join('/')}`
      return `${i.request!.method} ${path.replace(/\/:(\w+)/g, '/{$1}')}`
    })
    for (const sig of [
      'GET /api/keys',
      'POST /api/keys',
      'GET /api/keys/{id}',
      'PATCH /api/keys/{id}',
      'DELETE /api/keys/{id}',
      'POST /api/keys/{id}/regenerate',
      'POST /api/keys/{id}/revoke',
      'POST /api/keys/test',
    ])
      expect(signatures, sig).toContain(sig)
    // served again from the cache, identical
    const again = await raw(t, { method: 'GET', url: '/docs/postman/collection.json' })
    expect(again.body).toBe(res.body)
  })
})
