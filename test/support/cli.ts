/** Test helpers for linkctl: captured streams, contexts, a stub daemon and a temp config dir. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll } from 'vitest'
import type { ApiKey } from '../../src/contract/keys.js'
import { createContext, type ContextOptions, type Ctx, type Io } from '../../src/session/context.js'
import { runCli } from '../../src/cli/run.js'

export interface Captured {
  write(chunk: string): boolean
  isTTY: boolean
  text: string
}

export function capture(isTTY = false): Captured {
  return {
    isTTY,
    text: '',
    write(chunk: string) {
      this.text += chunk
      return true
    },
  }
}

const UNUSED_CONFIG_DIR = join(tmpdir(), `linkctl-test-config-${process.pid}`)
// conf writes its (empty) store there when a command reads the profiles: removed after each file.
afterAll(() => rmSync(UNUSED_CONFIG_DIR, { recursive: true, force: true }))

export interface TestIo {
  io: Io
  out: Captured
  err: Captured
}

export function testIo(opts: { isTTY?: boolean; env?: NodeJS.ProcessEnv; stdin?: string } = {}): TestIo {
  const out = capture(opts.isTTY ?? false)
  const err = capture(opts.isTTY ?? false)
  const stdin = Readable.from(opts.stdin === undefined ? [] : [opts.stdin]) as Io['stdin']
  stdin.isTTY = opts.isTTY ?? false
  // Never inherit the developer's LINKCTL_* settings or NO_COLOR, nor touch their config file.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LINKCTL_CONFIG_DIR: UNUSED_CONFIG_DIR,
    ...opts.env,
  }
  return { io: { stdout: out, stderr: err, stdin, env }, out, err }
}

/** A context for calling run functions directly. */
export function testCtx(
  opts: Omit<ContextOptions, 'io'> & { env?: NodeJS.ProcessEnv; isTTY?: boolean; stdin?: string } = {},
): TestIo & { ctx: Ctx } {
  const t = testIo(opts)
  return { ...t, ctx: createContext({ ...opts, io: t.io }) }
}

/** A terminal context whose confirmation prompts are declined; `questions` records what was asked. */
export function decliningCtx(url: string, apiKey: string): TestIo & { ctx: Ctx; questions: string[] } {
  const questions: string[] = []
  const t = testCtx({
    flags: { url, apiKey },
    canPrompt: true,
    prompt: {
      secret: () => Promise.resolve(''),
      confirm: (q) => (questions.push(q), Promise.resolve(false)),
    },
  })
  return { ...t, questions }
}

/** Runs the whole CLI (parsing included) and returns the exit code and output. */
export async function cli(
  argv: string[],
  opts: { isTTY?: boolean; env?: NodeJS.ProcessEnv; stdin?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const t = testIo(opts)
  const code = await runCli(argv, t.io)
  return { code, stdout: t.out.text, stderr: t.err.text }
}

export function tempDir(prefix = 'linkctl-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface Recorded {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: unknown
}
export interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
}
export type Route = (req: Recorded) => Reply

/** A stand-in HTTP server: routes are keyed "METHOD /path" (path without the query string). */
export async function stubServer(routes: Record<string, Route>) {
  const requests: Recorded[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString()))
    req.on('end', () => {
      const rec: Recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: raw ? (JSON.parse(raw) as unknown) : undefined,
      }
      requests.push(rec)
      const route = routes[`${rec.method} ${rec.url.split('?')[0]}`]
      const r: Reply = route ? route(rec) : errorReply(404, 'NotFound', 'Route not found', rec.url)
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers })
      res.end(r.body === undefined ? '' : JSON.stringify(r.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export function errorReply(
  status: number,
  error: string,
  message: string,
  path = '/',
  details?: { field: string; message: string }[],
) {
  return {
    status,
    body: {
      error,
      message,
      statusCode: status,
      timestamp: '2026-11-21T10:00:00.000Z',
      path,
      ...(details ? { details } : {}),
    },
  }
}

export const OWNER_KEY = `lk_live_${'a'.repeat(28)}AbCd`

export function sampleKey(over: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'key_abc123',
    name: 'ci deploy',
    description: 'used by CI',
    memberId: 'mem_owner',
    environment: 'live',
    permissions: ['links:read', 'links:write'],
    requestLimit: 1000,
    timePeriod: 'hour',
    allowedIps: [],
    allowedOrigins: [],
    expiresAt: null,
    status: 'active',
    preview: 'lk_•••WxYz',
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    lastUsedAt: '2026-11-21T11:30:00.000Z',
    lastUsedIp: '127.0.0.1',
    revokedAt: null,
    usage: { totalRequests: 12, requestsToday: 3, requestsThisMonth: 12 },
    ...over,
  }
}

export function page<T>(data: T[], over: { page?: number; perPage?: number; total?: number } = {}) {
  const perPage = over.perPage ?? 20
  const total = over.total ?? data.length
  const p = over.page ?? 1
  return { data, total, page: p, perPage, hasMore: p * perPage < total }
}

export const validKeyTest = (name = 'owner') => ({
  valid: true,
  key: {
    id: 'key_owner',
    name,
    status: 'active',
    permissions: ['keys:read', 'keys:write'],
    preview: 'lk_•••AbCd',
    expiresAt: null,
    organization: { id: 'org_1', name: 'default', plan: 'enterprise' },
  },
  rateLimit: { limit: 1000, period: 'hour', remaining: 998, reset: 1_795_000_000 },
})
