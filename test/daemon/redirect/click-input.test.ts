import { describe, expect, it } from 'vitest'
import { clickInput, REFERER_MAX, USER_AGENT_MAX } from '../../../daemon/modules/redirect/click.js'
import type { ResolvedLink } from '../../../daemon/modules/links/index.js'

const link: ResolvedLink = {
  id: 'lnk_1',
  organizationId: 'org_1',
  shortCode: 'abc',
  shortUrl: 'https://s.test/abc',
  destinationUrl: 'https://example.com/',
  redirectType: 302,
  status: 'active',
  expiresAt: null,
  expiredUrl: null,
  maxClicks: null,
  startsAt: null,
  forwardQuery: true,
  rules: [],
  title: null,
  passwordHash: null,
  og: null,
  smart: null,
  variants: [],
  flagged: null,
}

/** The one builder of the click input, used by the fast path and by the Fastify route alike. */
describe('clickInput', () => {
  it('carries the request facts over as they are', () => {
    const receivedAt = performance.now()
    const c = clickInput(link, 1_700_000_000_000, {
      method: 'HEAD',
      ip: '203.0.113.9',
      headers: { 'user-agent': 'curl/8.0', referer: 'https://www.news.test/a' },
      query: { qr: '1', utm_source: 'mail' },
      receivedAt,
    })
    expect(c).toEqual({
      link,
      ts: 1_700_000_000_000,
      method: 'HEAD',
      ip: '203.0.113.9',
      userAgent: 'curl/8.0',
      referer: 'https://www.news.test/a',
      query: { qr: '1', utm_source: 'mail' },
      responseMs: c.responseMs,
    })
    expect(c.link).toBe(link)
    expect(c.responseMs).toBeGreaterThanOrEqual(0)
  })

  it('cuts the user agent and the Referer to size', () => {
    const c = clickInput(link, 0, {
      method: 'GET',
      ip: '::1',
      headers: {
        'user-agent': 'u'.repeat(USER_AGENT_MAX + 500),
        referer: 'https://r.test/' + 'p'.repeat(5000),
      },
      query: {},
      receivedAt: performance.now(),
    })
    expect(USER_AGENT_MAX).toBe(1024)
    expect(REFERER_MAX).toBe(2048)
    expect(c.userAgent).toBe('u'.repeat(1024))
    expect(c.referer).toBe(('https://r.test/' + 'p'.repeat(5000)).slice(0, 2048))
  })

  it('takes a missing user agent as empty and a missing Referer as none', () => {
    const c = clickInput(link, 0, {
      method: 'GET',
      ip: '::1',
      headers: {},
      query: undefined,
      receivedAt: performance.now(),
    })
    expect(c.userAgent).toBe('')
    expect(c.referer).toBeUndefined()
    expect(c.query).toBeUndefined()
  })

  it('measures the response time from when the request arrived', () => {
    const c = clickInput(link, 0, {
      method: 'GET',
      ip: '::1',
      headers: {},
      query: {},
      receivedAt: performance.now() - 250,
    })
    expect(c.responseMs).toBeGreaterThanOrEqual(250)
  })
})
