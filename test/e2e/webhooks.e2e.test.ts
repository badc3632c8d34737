/**
 * End to end: the built `linkd`, a `linkctl webhooks listen` child process as the receiver, and
 * `linkctl webhooks create` + `linkctl links create`: the listener prints the signed link.created
 * (it verifies the signature with the webhook secret) and answers 200. Then a daemon restart with a
 * delivery still pending. Needs `npm run build` first (`npm test` does it).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebhookWithSecret } from '../../src/contract/webhooks.js'
import { cleanEnv, freePort, LINKCTL, runBin, startLinkd, type RunningLinkd } from '../support/processes.js'
import { startReceiver } from '../support/receiver.js'

let daemon: RunningLinkd
let work = ''
let env: Record<string, string> = {}
const linkctl = (args: string[]) => runBin(LINKCTL, args, env)

interface Listening {
  child: ChildProcess
  /** JSON lines printed so far. */
  lines: Array<Record<string, unknown>>
  next(timeoutMs: number): Promise<Record<string, unknown>>
  stop(): Promise<void>
}

/** Starts `linkctl webhooks listen --json` and resolves once it says it listens. */
async function listen(port: number, secret: string): Promise<Listening> {
  const child = spawn(
    process.execPath,
    [LINKCTL, 'webhooks', 'listen', '--port', String(port), '--secret', secret, '--json'],
    { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const lines: Array<Record<string, unknown>> = []
  let buffer = ''
  let stderr = ''
  const waiters: Array<() => void> = []
  child.stdout?.on('data', (c: Buffer) => {
    buffer += c.toString()
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, i)) as Record<string, unknown>)
      buffer = buffer.slice(i + 1)
    }
    for (const w of waiters.splice(0)) w()
  })
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString()
      if (stderr.includes('Listening on')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`listen exited ${code}: ${stderr}`)))
  })
  let read = 0
  return {
    child,
    lines,
    async next(timeoutMs) {
      const until = Date.now() + timeoutMs
      while (lines.length <= read) {
        if (Date.now() > until) throw new Error(`no delivery within ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 20)
        })
      }
      return lines[read++]!
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGINT')
      }),
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'linkctl-webhooks-e2e-'))
  daemon = await startLinkd(join(work, 'data'))
  env = {
    LINKCTL_URL: daemon.url,
    LINKCTL_API_KEY: daemon.ownerKey() ?? '',
    LINKCTL_CONFIG_DIR: join(work, 'config'),
  }
}, 60_000)

afterAll(async () => {
  if (daemon) await daemon.stop('SIGKILL')
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('webhooks with the real binaries', () => {
  let port = 0
  let hook: WebhookWithSecret

  it('linkctl webhooks listen receives a correctly signed link.created right after linkctl links create', async () => {
    port = await freePort()
    const created = await linkctl([
      'webhooks',
      'create',
      `http://127.0.0.1:${port}/hooks`,
      '--name',
      'e2e',
      '--event',
      'link.created',
      '--json',
    ])
    expect(created.code, created.stderr).toBe(0)
    hook = JSON.parse(created.stdout) as WebhookWithSecret
    const listener = await listen(port, hook.secret)
    try {
      const link = await linkctl(['links', 'create', 'https://example.com/e2e', '--json'])
      expect(link.code, link.stderr).toBe(0)
      const sentAt = performance.now()
      const { id } = JSON.parse(link.stdout) as { id: string }
      // The sender is woken by the outbox write; docs/performance.md measures this latency.
      const line = await listener.next(10_000)
      const latencyMs = performance.now() - sentAt
      process.stderr.write(
        `webhooks e2e: link.created printed ${latencyMs.toFixed(0)} ms after links create exited\n`,
      )
      expect(line).toMatchObject({ event: 'link.created', attempt: 1, signature: 'valid' })
      expect(line.payload).toMatchObject({ event: 'link.created', data: { id } })

      const log = await linkctl(['webhooks', 'deliveries', hook.id, '--json'])
      expect(JSON.parse(log.stdout).totals).toMatchObject({ total: 1, success: 1 })
    } finally {
      await listener.stop()
    }
  })

  it('a delivery pending when linkd stops is delivered after the restart', async () => {
    // Nobody listens: the first attempt fails and a retry is scheduled (exponential, 2 s).
    const link = await linkctl(['links', 'create', 'https://example.com/restart', '--json'])
    expect(link.code, link.stderr).toBe(0)
    for (let i = 0; i < 100; i++) {
      const log = JSON.parse((await linkctl(['webhooks', 'deliveries', hook.id, '--json'])).stdout)
      if (log.data[0]?.attempt >= 1) break
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(await daemon.stop('SIGTERM')).toBe(0)
    const listener = await listen(port, hook.secret)
    try {
      daemon = await startLinkd(join(work, 'data'))
      env.LINKCTL_URL = daemon.url
      const line = await listener.next(15_000)
      // A retry (2 s) may also fail before the stop when the machine is slow: attempt 2 or later.
      expect(line).toMatchObject({ event: 'link.created', signature: 'valid' })
      expect(line.attempt).toBeGreaterThanOrEqual(2)
      expect((line.payload as { data: { destinationUrl: string } }).data.destinationUrl).toBe(
        'https://example.com/restart',
      )
    } finally {
      await listener.stop()
    }
  })

  it('an immediate retry reaches the receiver 1 s after the failed attempt, not on the next poll', async () => {
    // Two failures, then a 200: three attempts, two 1 s gaps. A sender polling every second for due
    // retries would make the second gap nearly 2 s (the retry falls due just after a poll).
    const rx = await startReceiver({ kind: 'status', status: 503 })
    try {
      const created = await linkctl([
        'webhooks',
        'create',
        rx.url,
        '--name',
        'immediate',
        '--event',
        'link.created',
        '--retry-policy',
        'immediate',
        '--max-retries',
        '2',
        '--json',
      ])
      expect(created.code, created.stderr).toBe(0)
      const link = await linkctl(['links', 'create', 'https://example.com/immediate'])
      expect(link.code, link.stderr).toBe(0)
      await rx.waitFor(2)
      rx.behave({ kind: 'status', status: 200 })
      const [first, second, third] = await rx.waitFor(3)
      expect([first, second, third].map((r) => r!.headers['x-webhook-attempt'])).toEqual(['1', '2', '3'])
      const gaps = [second!.at - first!.at, third!.at - second!.at].map(Math.round)
      // A bound generous for a loaded machine; a poll-driven sender lands near 2,000 ms.
      for (const gap of gaps) expect(gap, `gaps ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(950)
      for (const gap of gaps) expect(gap, `gaps ${gaps.join(', ')} ms`).toBeLessThan(1600)
    } finally {
      await rx.close()
    }
  })
})
