/**
 * Numbers out of any range: ajv coerces the text "1e400" (a querystring's; a body's too, before its
 * types stopped being coerced) to Infinity and then skips minimum and maximum, so such a value
 * reached the services (a stored key with an infinite request limit answered 500 on every list
 * afterwards). Every route refuses it, 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createLink } from '../../support/links.js'
import { expectError } from '../../support/responses.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const finite = (field: string) => [{ field, message: 'must be a finite number' }]

describe('numbers that are not finite', () => {
  it('in bodies: 400 naming the field, and nothing is stored', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/keys', { name: 'k', requestLimit: '1e400' }, 'requestLimit'],
      [
        '/api/webhooks',
        { name: 'w', url: 'https://example.com/h', events: ['link.created'], maxRetries: '1e400' },
        'maxRetries',
      ],
      [
        '/api/webhooks',
        { name: 'w', url: 'https://example.com/h', events: ['link.created'], timeoutSeconds: '-1e400' },
        'timeoutSeconds',
      ],
      [
        '/api/v1/admin/games',
        { name: 'Game', platform: 'ios', rawRetentionDays: '1e400' },
        'rawRetentionDays',
      ],
      [
        '/api/webhooks/utilities/generate-signature',
        { secret: 's', payload: 'p', timestamp: '1e400' },
        'timestamp',
      ],
    ]
    for (const [url, body, field] of cases) {
      // As a JSON number literal: Infinity, no whole number (the string "1e400" is not coerced in a
      // body: a type error, also named so).
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${t.ownerKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body).replace(/"(-?1e400)"/, '$1'),
      })
      expect(expectError(res, 400, 'ValidationError', url).details, url).toEqual([
        { field, message: 'must be a whole number' },
      ])
    }
    for (const url of ['/api/keys', '/api/webhooks', '/api/v1/admin/games']) {
      const list = await t.call('GET', url)
      expect(list.statusCode, `${url}: ${list.body}`).toBe(200)
    }
    expect((await t.call('GET', '/api/keys')).json().total).toBe(1)
  })

  it('in free-form objects: 1e400 in metadata is refused rather than stored as null', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/use/links',
      headers: { authorization: `Bearer ${t.ownerKey}`, 'content-type': 'application/json' },
      payload: '{"destinationUrl":"https://example.com/","metadata":{"n":[1,-1e400]}}',
    })
    expect(expectError(res, 400, 'ValidationError', '/api/use/links').details).toEqual(finite('metadata.n.1'))
  })

  it('in query strings: page and QR size', async () => {
    const res = await t.call('GET', '/api/keys?page=1e400')
    expect(expectError(res, 400, 'ValidationError', '/api/keys').details).toEqual(finite('page'))
    const link = await createLink(t)
    const qr = await t.call('GET', `/api/use/links/${link.id}/qr?format=png&size=1e400`)
    expect(expectError(qr, 400, 'ValidationError').details).toEqual(finite('size'))
  })
})
