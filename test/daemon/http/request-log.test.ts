/**
 * Request logs: one line per request at info ("request completed": method, path, host, client
 * address, status, time, request id), never the query string; health probes and metric scrapes
 * only at debug.
 */
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'

interface Line {
  level: number
  msg: string
  reqId?: string
  req?: Record<string, unknown>
  res?: { statusCode: number }
  responseTime?: number
}

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

async function appLogging(level: 'info' | 'debug'): Promise<{ t: TestApp; lines: Line[] }> {
  const lines: Line[] = []
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Line)
      done()
    },
  })
  t = await createTestApp({ logLevel: level }, { logger: { level, stream } as never })
  return { t, lines }
}

describe('request logs', () => {
  it('one line per request, when it is answered; no query string', async () => {
    const { t, lines } = await appLogging('info')
    const requests = [
      await t.call('GET', '/api/use/links?search=secret-visitor-data&limit=10'),
      await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/x' } }),
      await t.app.inject({ method: 'GET', url: '/no/such/route?token=abc', remoteAddress: '203.0.113.9' }),
      await t.call('GET', '/api/use/links', { key: null }),
    ]
    const ids = requests.map((r) => String(r.headers['x-request-id']))
    const perRequest = ids.map((id) => lines.filter((l) => l.reqId === id))
    for (const [i, own] of perRequest.entries()) {
      expect(
        own.map((l) => l.msg),
        ids[i],
      ).toEqual(['request completed'])
      expect(own[0]!.level).toBe(30)
      expect(typeof own[0]!.responseTime).toBe('number')
    }
    expect(perRequest.map((own) => [own[0]!.req, own[0]!.res?.statusCode])).toEqual([
      [{ method: 'GET', url: '/api/use/links', host: 'localhost:80', remoteAddress: '127.0.0.1' }, 200],
      [{ method: 'POST', url: '/api/use/links', host: 'localhost:80', remoteAddress: '127.0.0.1' }, 201],
      [{ method: 'GET', url: '/no/such/route', host: 'localhost:80', remoteAddress: '203.0.113.9' }, 404],
      [{ method: 'GET', url: '/api/use/links', host: 'localhost:80', remoteAddress: '127.0.0.1' }, 401],
    ])
    expect(lines.filter((l) => l.msg === 'incoming request')).toEqual([])
    const text = JSON.stringify(lines)
    expect(text).not.toContain('secret-visitor-data')
    expect(text).not.toContain('token=abc')
  })

  it('health probes and metric scrapes: nothing at info, one debug line each at debug', async () => {
    const paths = ['/health', '/health/live', '/health/ready?x=1', '/metrics']
    const quiet = await appLogging('info')
    for (const url of paths) expect((await quiet.t.app.inject({ method: 'GET', url })).statusCode).toBe(200)
    expect(quiet.lines.filter((l) => l.req)).toEqual([])
    await quiet.t.close()

    const { t, lines } = await appLogging('debug')
    const ids: string[] = []
    for (const url of paths)
      ids.push(String((await t.app.inject({ method: 'GET', url })).headers['x-request-id']))
    expect(
      ids.map((id) => lines.filter((l) => l.reqId === id && l.req).map((l) => [l.level, l.msg])),
    ).toEqual(paths.map(() => [[20, 'request completed']]))
  })
})
