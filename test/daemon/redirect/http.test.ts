import { afterEach, describe, expect, it } from 'vitest'
import type { Link, LinkAnalytics } from '../../../src/contract/links.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { CHROME_WINDOWS } from '../../support/redirect.js'

describe('a redirect over real HTTP', () => {
  let d: TestDaemon
  afterEach(() => d.close())

  it('a browser follows the short URL: 302 with Location, then the click shows in analytics', async () => {
    // The daemon listens on a free port: a short domain without a port matches it.
    d = await startTestDaemon({ shortDomain: '127.0.0.1' })
    const auth = { authorization: `Bearer ${d.ownerKey}`, 'content-type': 'application/json' }
    const created = await fetch(`${d.url}/api/use/links`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ destinationUrl: 'https://example.com/from-http' }),
    })
    expect(created.status).toBe(201)
    const link = (await created.json()) as Link

    const res = await fetch(`${d.url}/${link.shortCode}`, {
      redirect: 'manual',
      headers: { 'user-agent': CHROME_WINDOWS, accept: 'text/html', referer: 'https://chat.example/room' },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('https://example.com/from-http')
    expect(res.headers.get('cache-control')).toBe('private, max-age=90')
    expect(await res.text()).toContain('https://example.com/from-http')

    const stats = await fetch(`${d.url}/api/use/analytics/links/${link.id}`, { headers: auth })
    expect(stats.status).toBe(200)
    const a = (await stats.json()) as LinkAnalytics
    expect(a.totalClicks).toBe(1)
    expect(a.referrers).toEqual([{ domain: 'chat.example', clicks: 1 }])

    const missing = await fetch(`${d.url}/nothing-here`, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8')
  })
})
