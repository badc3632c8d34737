import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { Link } from '../../../src/contract/links.js'
import type { LinkAnalytics } from '../../../src/contract/click-analytics.js'
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
    expect(await res.text()).toBe('')

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

  it('curl -i view: the 3xx has Location, Content-Length: 0 and no body, for GET and HEAD, pipelined on one connection', async () => {
    d = await startTestDaemon({ shortDomain: '127.0.0.1' })
    const created = await fetch(`${d.url}/api/use/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ destinationUrl: 'https://example.com/raw', redirectType: 307 }),
    })
    const { shortCode } = (await created.json()) as Link
    const { hostname, port } = new URL(d.url)
    const req = (method: string, last = false) =>
      `${method} /${shortCode} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUser-Agent: curl/8.5.0\r\n` +
      `${last ? 'Connection: close\r\n' : ''}\r\n`
    // The bytes on the wire: the first visit goes through Fastify, the next ones the fast path.
    const raw = await new Promise<string>((resolve, reject) => {
      let out = ''
      const socket = connect(Number(port), hostname, () =>
        socket.write(req('GET') + req('HEAD') + req('GET', true)),
      )
      socket.setEncoding('latin1').on('data', (c: string) => (out += c))
      socket.on('end', () => resolve(out)).on('error', reject)
    })
    const responses = raw.split('\r\n\r\n')
    // Three header blocks and nothing after any of them: no body.
    expect(responses).toHaveLength(4)
    expect(responses[3]).toBe('')
    for (const head of responses.slice(0, 3)) {
      const [statusLine, ...lines] = head.split('\r\n')
      const headers = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)]),
      )
      expect(statusLine).toBe('HTTP/1.1 307 Temporary Redirect')
      expect(headers.get('location')).toBe('https://example.com/raw')
      expect(headers.get('cache-control')).toBe('private, max-age=90')
      expect(headers.get('content-length')).toBe('0')
      expect(headers.has('content-type')).toBe(false)
      expect(headers.has('transfer-encoding')).toBe(false)
    }
  })
})
