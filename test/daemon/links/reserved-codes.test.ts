/**
 * Every first path segment the daemon serves (read from Fastify's own route table, not from a
 * list) is refused as a short code of links and smart links, at create and at PATCH, in any
 * case: a code spelled like one would be shadowed by the route (`/metrics` answered the metrics
 * instead of the link).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createLink } from '../../support/links.js'
import { detailFields, expectError } from '../../support/responses.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'

/** The first segment of every route in the route table (the catch-all `/:shortCode` aside). */
function routeSegments(app: FastifyInstance): string[] {
  const out = new Set<string>()
  // Top-level lines of the tree: `├── /api/domains (POST, GET, HEAD)`, `└── /:shortCode (…)`.
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^(?:├──|└──) \/([^/\s]*)/.exec(line)
    if (m && m[1] && !m[1].startsWith(':')) out.add(m[1])
  }
  return [...out].sort()
}

let t: TestApp
let segments: string[]
beforeAll(async () => {
  t = await createTestApp()
  segments = routeSegments(t.app)
})
afterAll(() => t.close())

/** A segment as a client could spell it: as registered, upper case, capitalised. */
const spellings = (s: string) => [...new Set([s, s.toUpperCase(), s[0]!.toUpperCase() + s.slice(1)])]

const expectRefused = (res: Awaited<ReturnType<TestApp['call']>>, field: string, code: string) => {
  const body = expectError(res, 400, 'ValidationError')
  expect(detailFields(res), code).toEqual([field])
  // `.well-known` fails the code alphabet before the reservation; every other one is named reserved.
  if (/^[A-Za-z0-9_-]+$/.test(code)) expect(body.message, code).toMatch(/is reserved/)
}

describe('reserved short codes come from the route table', () => {
  it('the route table has the segments the contract names, and metrics; each is reserved', () => {
    expect(segments).toEqual(expect.arrayContaining(['api', 'health', 'docs', '.well-known', 'metrics']))
    expect(t.app.linkd.services.reserved.list()).toEqual(segments.map((s) => s.toLowerCase()))
  })

  it('a link cannot take one as its customSlug, in any case', async () => {
    for (const segment of segments)
      for (const code of spellings(segment)) {
        const res = await t.call('POST', '/api/use/links', {
          body: { destinationUrl: 'https://example.com/', customSlug: code },
        })
        expectRefused(res, 'customSlug', code)
      }
  })

  it('nor a smart link as its shortCode (they share the namespace)', async () => {
    for (const segment of segments)
      for (const code of spellings(segment)) {
        const res = await t.call('POST', '/api/use/smart-links', {
          body: { fallbackUrl: 'https://example.com/', shortCode: code },
        })
        expectRefused(res, 'shortCode', code)
      }
  })

  it('nor by PATCH of shortCode, on a link or a smart link', async () => {
    const link = await createLink(t)
    const res = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://example.com/' },
    })
    expect(res.statusCode, res.body).toBe(201)
    const smart = res.json<SmartLink>()
    for (const segment of segments)
      for (const code of spellings(segment)) {
        expectRefused(
          await t.call('PATCH', `/api/use/links/${link.id}`, { body: { shortCode: code } }),
          'shortCode',
          code,
        )
        expectRefused(
          await t.call('PATCH', `/api/use/smart-links/${smart.id}`, { body: { shortCode: code } }),
          'shortCode',
          code,
        )
      }
    expect((await t.call('GET', `/api/use/links/${link.id}`)).json()).toMatchObject({
      shortCode: link.shortCode,
    })
  })

  it('the message names the reserved segments; a code that only starts with one is free', async () => {
    const res = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/', customSlug: 'Metrics' },
    })
    expect(res.json().message).toBe(
      `customSlug: "Metrics" is reserved: linkd serves /metrics itself (reserved, in any case: ${segments.join(', ')}); choose another`,
    )
    expect((await createLink(t, { customSlug: 'metrics2' })).shortCode).toBe('metrics2')
    // The route itself still answers: loopback clients get the metrics, not a redirect.
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' })
    expect(metrics.statusCode).toBe(200)
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/)
  })
})
