/**
 * A 400 names every field that fails, not the first few: the schema's checks all at once (up to
 * MAX_DETAILS), and the checks only the service can make (a past expiresAt, a reserved code, a
 * loopback destination, a SKAN value outside the 6 bits…) all at once when the shape is right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BulkCreateResult } from '../../../src/contract/links.js'
import { MAX_DETAILS } from '../../../daemon/http/errors.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createLink } from '../../support/links.js'
import { expectError } from '../../support/responses.js'
import { createGame } from '../../support/gaming.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const PAST = '2020-01-01T00:00:00.000Z'

/** A create body the schema accepts, with seven problems only the service sees. */
const SEVEN_PROBLEMS = {
  destinationUrl: 'http://localhost:8080/admin',
  customSlug: 'metrics',
  expiresAt: PAST,
  tags: ['ok', '   '],
  expiredUrl: 'https://user@example.com/expired',
  rules: [{ conditions: [{ type: 'device', value: 'phone' }], destinationUrl: 'http://[::1]/m' }],
  og: { title: 'Preview', imageUrl: 'http://127.0.0.1/og.png' },
}
const SEVEN_FIELDS = [
  'customSlug',
  'destinationUrl',
  'tags.1',
  'expiresAt',
  'expiredUrl',
  'rules.0.conditions.0.value',
  'rules.0.destinationUrl',
  'og.imageUrl',
]

const fieldsOf = (body: { details?: Array<{ field: string }> }) => (body.details ?? []).map((d) => d.field)

describe('every field problem in one 400', () => {
  it('link create: each service-level problem has its detail; the message counts them', async () => {
    const res = await t.call('POST', '/api/use/links', { body: SEVEN_PROBLEMS })
    const body = expectError(res, 400, 'ValidationError', '/api/use/links')
    expect(fieldsOf(body)).toEqual(SEVEN_FIELDS)
    expect(body.details).toContainEqual({ field: 'expiresAt', message: 'must be in the future' })
    expect(body.message).toMatch(/^customSlug: "metrics" is reserved.* \(and 7 more\)$/)
  })

  it('link PATCH and bulk items: the same problems, each named', async () => {
    const link = await createLink(t)
    const { customSlug, ...patch } = SEVEN_PROBLEMS
    const patched = await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { ...patch, shortCode: customSlug },
    })
    const fields = fieldsOf(expectError(patched, 400, 'ValidationError'))
    expect(fields.sort()).toEqual([...SEVEN_FIELDS.filter((f) => f !== 'customSlug'), 'shortCode'].sort())
    // Nothing of it was stored.
    expect((await t.call('GET', `/api/use/links/${link.id}`)).json()).toMatchObject({
      destinationUrl: link.destinationUrl,
      shortCode: link.shortCode,
      expiresAt: null,
    })

    const bulk = await t.call('POST', '/api/use/links/bulk', {
      body: { links: [SEVEN_PROBLEMS, { destinationUrl: 'https://example.com/fine' }] },
    })
    const result = bulk.json<BulkCreateResult>()
    expect(result).toMatchObject({ created: 1, failed: 1 })
    expect(fieldsOf(result.results[0]!.error!)).toEqual(SEVEN_FIELDS)
  })

  it('schema problems: all of them, well past 20', async () => {
    const extra = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`unknown${i}`, i]))
    const res = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'ftp://x', title: 't'.repeat(300), redirectType: 303, maxClicks: 0, ...extra },
    })
    const body = expectError(res, 400, 'ValidationError')
    const fields = fieldsOf(body)
    expect(fields).toHaveLength(34)
    for (const f of ['destinationUrl', 'title', 'redirectType', 'maxClicks', 'unknown0', 'unknown29'])
      expect(fields, f).toContain(f)
    expect(body.message).toMatch(/\(and 33 more\)$/)
    // A hostile body with thousands of problems still gets a bounded answer.
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`u${i}`, i]))
    const huge = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://e.com', ...many },
    })
    const hugeBody = expectError(huge, 400, 'ValidationError')
    expect(hugeBody.details).toHaveLength(MAX_DETAILS)
    expect(hugeBody.message).toMatch(/\(and 4999 more\)$/)
  })

  it('smart links: the fallback, each target and the short code', async () => {
    const res = await t.call('POST', '/api/use/smart-links', {
      body: {
        fallbackUrl: 'http://0.0.0.0/',
        ios: { url: 'https://a@b.example/' },
        android: { url: 'http://localhost/' },
        desktop: { url: 'http://[::ffff:127.0.0.1]/' },
        shortCode: 'health',
        tags: ['  '],
      },
    })
    expect(fieldsOf(expectError(res, 400, 'ValidationError'))).toEqual([
      'fallbackUrl',
      'ios.url',
      'android.url',
      'desktop.url',
      'shortCode',
      'tags.0',
    ])
  })

  it('a SKAN conversion schema: a value outside the 6 bits, a shared bit, a band gap, the lock window', async () => {
    const game = await createGame(t, { modules: { analytics: true, fraud: false, skan: true } })
    const res = await t.call('POST', `/api/v1/skan/games/${game.id}/campaigns`, {
      body: {
        name: 'Launch',
        adNetworkId: 'example.skadnetwork',
        lockWindowHours: 24,
        conversionSchema: {
          events: { a: 64, b: 2, c: 2, d: 3, e: 4 },
          coarseValues: {
            low: { min: 0, max: 10 },
            medium: { min: 12, max: 40 },
            high: { min: 41, max: 63 },
          },
          lockWindow: 12,
        },
      },
    })
    const body = expectError(res, 400, 'ValidationError')
    expect(fieldsOf(body)).toEqual([
      'conversionSchema.events.a',
      'conversionSchema.events.c',
      'conversionSchema.events.d',
      'conversionSchema.coarseValues.medium.min',
      'conversionSchema.lockWindow',
    ])
    expect(body.details![0]!.message).toMatch(/power of two/)
  })

  it('a webhook: no events, a bad URL and a reserved header together', async () => {
    const res = await t.call('POST', '/api/webhooks', {
      body: { name: 'hook', url: 'ftp://example.com/hook', headers: { 'X-Webhook-Id': 'x' } },
    })
    const fields = fieldsOf(expectError(res, 400, 'ValidationError'))
    expect(fields).toEqual(['events', 'url', 'headers.X-Webhook-Id'])
  })
})
