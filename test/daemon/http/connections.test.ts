/**
 * Slow clients (slowloris): one client address holds at most LINKD_CONNECTIONS_PER_IP open
 * connections, HTTP and HTTPS together; beyond it a new connection is closed at once, while other
 * clients are served. A connection whose headers never complete is closed after
 * LINKD_HEADERS_TIMEOUT_MS with 408. On loopback, a socket bound to 127.0.0.2 is another client.
 */
import { EventEmitter } from 'node:events'
import { connect, type Socket } from 'node:net'
import { createServer, request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { listenHttps } from '../../../daemon/modules/domains/tls.js'
import { clientKey } from '../../../daemon/addresses.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { createTestApp } from '../../support/app.js'

let daemon: TestDaemon | undefined
const sockets: Socket[] = []
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  await daemon?.close()
  daemon = undefined
})

interface Outcome {
  /** What the server sent before the connection ended. */
  received: string
}

/**
 * A connection from `localAddress` that sends the start of a request and never finishes its
 * headers. `ended` resolves when the server closes it.
 */
async function slowClient(port: number, localAddress = '127.0.0.1') {
  const socket = connect({ host: '127.0.0.1', port, localAddress })
  sockets.push(socket)
  let received = ''
  socket.on('data', (c: Buffer) => (received += c.toString()))
  const ended = new Promise<Outcome>((resolve) => {
    socket.on('error', () => {})
    socket.on('close', () => resolve({ received }))
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
  return { socket, ended }
}

/** GET `path` from `localAddress` with a new connection: the status code. */
function get(port: number, path: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end()
  })
}

const portOf = (url: string) => Number(new URL(url).port)
/** Waits until the server counts `n` open connections from `address`. */
async function opened(address: string, n: number): Promise<void> {
  while (daemon!.app.linkd.connections.open(address) < n) await new Promise((r) => setTimeout(r, 5))
}

describe('connections per client address', () => {
  it('beyond the cap a new connection from that address is closed at once; other clients are served', async () => {
    daemon = await startTestDaemon({ connectionsPerIp: 5, headersTimeoutMs: 60_000 })
    const port = portOf(daemon.url)
    const slow = []
    for (let i = 0; i < 5; i++) slow.push(await slowClient(port))
    await opened('127.0.0.1', 5)

    // The sixth from 127.0.0.1 is closed without an answer (not the 408 of a timeout).
    const refused = await slowClient(port)
    expect(await refused.ended).toEqual({ received: '' })
    await expect(get(port, '/health/live', '127.0.0.1')).rejects.toThrow(/ECONNRESET|socket hang up/)

    // Another client address is served meanwhile: the API and a redirect path.
    expect(await get(port, '/health/live', '127.0.0.2')).toBe(200)
    expect(await get(port, '/no-such-code', '127.0.0.2')).toBe(404)

    // One slow connection gone: its address may open one again.
    slow[0]!.socket.destroy()
    await slow[0]!.ended
    await new Promise<void>((resolve) => {
      const check = () =>
        daemon!.app.linkd.connections.open('127.0.0.1') < 5 ? resolve() : setTimeout(check, 5)
      check()
    })
    expect(await get(port, '/health/live', '127.0.0.1')).toBe(200)
  })

  it("a trusted proxy's connections are not capped (it carries many clients); others still are", async () => {
    daemon = await startTestDaemon({ connectionsPerIp: 3, headersTimeoutMs: 60_000, trustProxy: '127.0.0.2' })
    const port = portOf(daemon.url)
    for (let i = 0; i < 4; i++) await slowClient(port, '127.0.0.2')
    expect(await get(port, '/health/live', '127.0.0.2')).toBe(200)
    for (let i = 0; i < 3; i++) await slowClient(port)
    await opened('127.0.0.1', 3)
    expect(await (await slowClient(port)).ended).toEqual({ received: '' })
  })

  it('LINKD_TRUST_PROXY=true or a hop count: a public address is still capped; this host and private networks are not', async () => {
    for (const trustProxy of [true, 1]) {
      const t = await createTestApp({ connectionsPerIp: 2, trustProxy })
      try {
        // The app's own guard on a listener that is handed sockets from these addresses.
        const server = createServer()
        t.app.linkd.connections.attach(server)
        const connectFrom = (remoteAddress: string) => {
          const socket = Object.assign(new EventEmitter(), { remoteAddress, destroyed: false, destroy() {} })
          socket.destroy = () => void (socket.destroyed = true)
          server.emit('connection', socket)
          return socket
        }
        const publicOnes = [1, 2, 3].map(() => connectFrom('203.0.113.7'))
        expect(publicOnes.map((s) => s.destroyed)).toEqual([false, false, true])
        expect(t.app.linkd.connections.open('203.0.113.7')).toBe(2)
        for (const proxy of ['127.0.0.1', '10.0.0.5', 'fd00::5'])
          expect(
            [1, 2, 3].map(() => connectFrom(proxy).destroyed),
            `${proxy}`,
          ).toEqual([false, false, false])
      } finally {
        await t.close()
      }
    }
  })

  it('the HTTPS listener counts with the plain one: a TCP connection over the cap is closed', async () => {
    daemon = await startTestDaemon({ connectionsPerIp: 3, headersTimeoutMs: 60_000 })
    const https = await listenHttps(daemon.app, { context: () => undefined }, { host: '127.0.0.1', port: 0 })
    try {
      for (let i = 0; i < 2; i++) await slowClient(portOf(daemon.url))
      await slowClient(https.port) // a TCP connection that never starts its handshake
      await opened('127.0.0.1', 3)
      const refused = await slowClient(https.port)
      expect(await refused.ended).toEqual({ received: '' })
      expect(await get(portOf(daemon.url), '/health/live', '127.0.0.2')).toBe(200)
    } finally {
      for (const s of sockets.splice(0)) s.destroy()
      await https.close()
    }
  })

  it('a connection whose headers never complete is closed after the headers timeout, with 408', async () => {
    daemon = await startTestDaemon({ headersTimeoutMs: 300 })
    const port = portOf(daemon.url)
    const slow = await slowClient(port)
    const { received } = await slow.ended
    expect(received).toMatch(/^HTTP\/1\.1 408 /)
    const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as { error: string }
    expect(body.error).toBe('RequestTimeout')
    // A complete request on a fresh connection is served as usual.
    expect(await get(port, '/health/live', '127.0.0.1')).toBe(200)
  })

  it('counts IPv4 (mapped too) per address and IPv6 per /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7')
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:ffff:1:2:3'))
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'))
  })
})
