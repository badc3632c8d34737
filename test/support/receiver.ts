import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What a webhook receiver on loopback got: headers and the raw body bytes. */
export interface Received {
  method: string
  url: string
  headers: IncomingHttpHeaders
  raw: Buffer
  at: number
}

export type Behaviour =
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  | { kind: 'slow'; ms: number }
  | { kind: 'close' }

export interface Receiver {
  url: string
  port: number
  received: Received[]
  /** What the next requests get (default 200). */
  behave(b: Behaviour): void
  /** Resolves when `n` requests have arrived in total. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

/** A real HTTP receiver on 127.0.0.1 that answers as told (on `listenPort`, or a free one). */
export async function startReceiver(
  initial: Behaviour = { kind: 'status', status: 200 },
  listenPort = 0,
): Promise<Receiver> {
  let behaviour = initial
  const received: Received[] = []
  const waiters: Array<() => void> = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw: Buffer.concat(chunks),
        at: performance.now(),
      })
      for (const w of waiters.splice(0)) w()
      const b = behaviour
      if (b.kind === 'close') {
        req.socket.destroy()
        return
      }
      if (b.kind === 'slow') {
        const t = setTimeout(() => res.writeHead(200).end('late'), b.ms)
        res.on('close', () => clearTimeout(t))
        return
      }
      res.writeHead(b.status, b.headers).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    behave(b) {
      behaviour = b
    },
    async waitFor(n, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`receiver got ${received.length} of ${n} requests`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 50)
        })
      }
      return received
    },
    close() {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
