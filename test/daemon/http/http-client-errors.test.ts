/**
 * Requests the HTTP parser refuses before Fastify sees them: header fields over
 * Node's 16 KB limit (431) and malformed HTTP (400) carry the same error body as every other
 * error. Tested on real listeners (plain and TLS), since app.inject bypasses the HTTP parser.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tlsConnect, createSecureContext } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listenHttps } from '../../../daemon/modules/domains/tls.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { missingBinaries } from '../../support/binaries.js'
import { selfSignedCertificate } from '../../support/certificates.js'

interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends raw bytes and reads the answer until the server closes the connection. */
function exchange(open: () => Socket, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = open()
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    // The server closes right after answering; a reset while we still send is expected.
    socket.on('error', () => undefined)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`))
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const l of lines) {
        const i = l.indexOf(':')
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim()
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) })
    })
    socket.write(request)
  })
}

/** The error body (ErrorBody), exactly. */
function expectErrorBody(a: RawAnswer, status: number, type: string, path?: string) {
  expect(a.status, a.body).toBe(status)
  expect(a.headers['content-type']).toMatch(/^application\/json/)
  expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body))
  const body = JSON.parse(a.body) as Record<string, unknown>
  expect(body).toMatchObject({ error: type, statusCode: status })
  // The path when the request line could still be read from the refused bytes.
  if (path === undefined) expect(typeof body.path).toBe('string')
  else expect(body.path).toBe(path)
  expect(typeof body.message).toBe('string')
  expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  const allowed = ['error', 'message', 'statusCode', 'timestamp', 'path', 'details']
  for (const k of Object.keys(body)) expect(allowed).toContain(k)
  if (status === 400) expect(body.details).toEqual([{ field: 'request', message: expect.any(String) }])
  return body
}

const bigHeader = (bytes: number) => `X-Big: ${'a'.repeat(bytes)}\r\n`

describe('plain HTTP listener', () => {
  let t: TestApp
  let port: number
  beforeAll(async () => {
    t = await createTestApp()
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    port = (t.app.server.address() as AddressInfo).port
  })
  afterAll(() => t.close())
  const open = () => netConnect(port, '127.0.0.1')

  it('header fields over 16 KB: 431 RequestHeaderFieldsTooLarge with the full error body', async () => {
    for (const headers of [
      bigHeader(20_000),
      Array.from({ length: 40 }, (_, i) => `X-H${i}: ${'b'.repeat(1000)}\r\n`).join(''),
    ]) {
      const a = await exchange(open, `GET /api/use/links?page=2 HTTP/1.1\r\nHost: x\r\n${headers}\r\n`)
      const body = expectErrorBody(a, 431, 'RequestHeaderFieldsTooLarge', '/api/use/links')
      expect(body.message).toMatch(/header/i)
      expect(a.headers['x-content-type-options']).toBe('nosniff')
      expect(a.headers.connection).toBe('close')
    }
  })

  it('just under the limit the request goes through', async () => {
    const a = await exchange(
      open,
      `GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${bigHeader(15_000)}\r\n`,
    )
    expect(a.status).toBe(200)
  })

  it('malformed HTTP: 400 ValidationError with the error body', async () => {
    const bad = await exchange(open, 'GET /api/keys HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n')
    expectErrorBody(bad, 400, 'ValidationError', '/api/keys')
    const garbage = await exchange(open, '\x16\x03\x01 not http at all\r\n\r\n')
    expectErrorBody(garbage, 400, 'ValidationError', '')
  })
})

describe.skipIf(missingBinaries('openssl'))('TLS listener of custom domains', () => {
  let t: TestApp
  let https: Awaited<ReturnType<typeof listenHttps>>
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkd-431-'))
    const { cert, key } = selfSignedCertificate(dir, { name: 'tls', cn: 'tls.example.test' })
    const context = createSecureContext({
      cert: readFileSync(cert),
      key: readFileSync(key),
    })
    t = await createTestApp()
    https = await listenHttps(t.app, { context: () => context }, { host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await https.close()
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('header fields over 16 KB: 431 with the full error body over TLS too', async () => {
    const open = () =>
      tlsConnect({
        host: '127.0.0.1',
        port: https.port,
        servername: 'tls.example.test',
        rejectUnauthorized: false,
      })
    const a = await exchange(open, `GET /abc HTTP/1.1\r\nHost: tls.example.test\r\n${bigHeader(20_000)}\r\n`)
    // TLS records are at most 16 KB: the refused chunk no longer holds the request line.
    expectErrorBody(a, 431, 'RequestHeaderFieldsTooLarge')
  })
})
