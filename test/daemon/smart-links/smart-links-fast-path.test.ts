/**
 * Over real HTTP: a hot smart link never takes the redirect fast path (its target and click id
 * are chosen per visit by the Fastify route), while a hot plain link still does.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { makeLink, SAFARI_IPHONE } from '../../support/redirect.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'

let t: TestApp
let url: string
let reachedFastify = 0
afterEach(() => t.close())

async function get(path: string): Promise<{ location: string; viaFastify: boolean }> {
  const before = reachedFastify
  // node:http, not fetch: fetch does not let a client choose the Host header.
  const res = await new Promise<IncomingMessage>((resolve, reject) =>
    httpRequest(`${url}${path}`, { headers: { host: 'sho.rt', 'user-agent': SAFARI_IPHONE } }, resolve)
      .on('error', reject)
      .end(),
  )
  for await (const _ of res);
  return { location: String(res.headers.location), viaFastify: reachedFastify > before }
}

describe('smart links and the fast path', () => {
  it('answers every visit of a hot smart link through the route, each with its own click id', async () => {
    t = await createTestApp({ shortDomain: 'sho.rt' })
    t.app.addHook('onRequest', (_req, _reply, done) => {
      reachedFastify++
      done()
    })
    url = await t.app.listen({ host: '127.0.0.1', port: 0 })
    const res = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://example.com/game', ios: { url: 'https://apps.apple.com/app/id1' } },
    })
    const s = res.json<SmartLink>()
    const visits = [await get(`/${s.shortCode}`), await get(`/${s.shortCode}`), await get(`/${s.shortCode}`)]
    for (const v of visits) {
      expect(v.viaFastify).toBe(true)
      expect(v.location).toMatch(/^https:\/\/apps\.apple\.com\/app\/id1\?linkd_click=clk_/)
    }
    expect(new Set(visits.map((v) => v.location)).size).toBe(3)

    const link = await makeLink(t)
    await get(`/${link.shortCode}`)
    expect(await get(`/${link.shortCode}`)).toEqual({ location: link.destinationUrl, viaFastify: false })
  })
})
