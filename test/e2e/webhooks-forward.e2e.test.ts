/**
 * End to end: `linkctl webhooks listen --forward-to` with the built `linkd` and `linkctl` and a
 * real receiver. The listener creates a temporary webhook, linkctl links create makes the daemon
 * deliver link.created, the receiver gets it forwarded with the original, valid signature, and
 * SIGINT / SIGTERM delete the webhook (also after the forward target was down). Needs
 * `npm run build` first (`npm test` does it).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../src/contract/common.js'
import type { Webhook } from '../../src/contract/webhooks.js'
import { verifySignature } from '../../src/contract/webhook-signature.js'
import { cleanEnv, freePort, LINKCTL, startLinkdForCli, type LinkdForCli } from '../support/processes.js'
import { startReceiver, type Receiver } from '../support/receiver.js'

let cli: LinkdForCli
let rx: Receiver
let env: Record<string, string> = {}
const linkctl = (args: string[]) => cli.linkctl(args)

beforeAll(async () => {
  cli = await startLinkdForCli('linkctl-forward-e2e-', { LINKD_WEBHOOK_ALLOW_LOOPBACK: 'true' })
  env = cli.env
  rx = await startReceiver()
}, 60_000)

afterAll(async () => {
  await rx?.close()
  await cli?.close()
})

interface Forwarding {
  child: ChildProcess
  secret: string
  stdout(): string
  stderr(): string
  /** Resolves once stdout holds `n` lines. */
  lines(n: number, timeoutMs: number): Promise<Record<string, unknown>[]>
  stop(signal: NodeJS.Signals): Promise<number | null>
}

/** Starts `linkctl webhooks listen --forward-to … --json` and waits for its signing secret. */
async function forward(target: string, extra: string[] = []): Promise<Forwarding> {
  const child = spawn(
    process.execPath,
    [LINKCTL, 'webhooks', 'listen', '--forward-to', target, '--json', ...extra],
    {
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  let err = ''
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()))
  const secret = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString()
      const m = /Signing secret[^\n]*\n(\S+)\n/.exec(err)
      if (m && err.includes('Ctrl-C')) resolve(m[1]!)
    })
    child.once('exit', (code) => reject(new Error(`listen exited ${code}: ${err}`)))
  })
  return {
    child,
    secret,
    stdout: () => out,
    stderr: () => err,
    async lines(n, timeoutMs) {
      const until = Date.now() + timeoutMs
      for (;;) {
        const lines = out.split('\n').filter(Boolean)
        if (lines.length >= n) return lines.map((l) => JSON.parse(l) as Record<string, unknown>)
        if (Date.now() > until)
          throw new Error(`${lines.length} of ${n} lines within ${timeoutMs} ms: ${err}`)
        await new Promise((r) => setTimeout(r, 25))
      }
    },
    stop: (signal) =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode)
        child.once('exit', (code) => resolve(code))
        child.kill(signal)
      }),
  }
}

async function webhooks(): Promise<Webhook[]> {
  const r = await linkctl(['webhooks', 'list', '--json'])
  expect(r.code, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as PageOf<Webhook>).data
}

describe('linkctl webhooks listen --forward-to with the real binaries', () => {
  it('forwards a signed link.created to the receiver; SIGINT deletes the temporary webhook', async () => {
    const l = await forward(rx.url, ['--events', 'link.created'])
    try {
      const [hook] = await webhooks()
      expect(hook).toMatchObject({ events: ['link.created'], status: 'active' })
      const created = await linkctl(['links', 'create', 'https://example.com/forwarded', '--json'])
      expect(created.code, created.stderr).toBe(0)
      const link = JSON.parse(created.stdout) as { id: string }
      const [got] = await rx.waitFor(1, 15_000)
      expect(got?.headers['x-webhook-event']).toBe('link.created')
      const check = verifySignature({
        secret: l.secret,
        payload: got!.raw,
        signature: got?.headers['x-webhook-signature'] as string,
        timestamp: got?.headers['x-webhook-timestamp'] as string,
      })
      expect(check).toEqual({ valid: true })
      expect(got?.raw.toString()).toContain(link.id)
      const [line] = await l.lines(1, 5_000)
      expect(line).toMatchObject({ event: 'link.created', signature: 'valid', forwarded: { status: 200 } })
    } finally {
      expect(await l.stop('SIGINT')).toBe(0)
    }
    expect(l.stderr()).toMatch(/Deleted webhook wh_/)
    expect(await webhooks()).toEqual([])
  }, 60_000)

  it('with the forward target down: one line per delivery, and SIGTERM still deletes the webhook', async () => {
    const l = await forward(`http://127.0.0.1:${await freePort()}/down`, ['--events', 'link.created'])
    try {
      expect(await webhooks()).toHaveLength(1)
      expect((await linkctl(['links', 'create', 'https://example.com/down', '--json'])).code).toBe(0)
      const [line] = await l.lines(1, 15_000)
      expect(line).toMatchObject({
        event: 'link.created',
        signature: 'valid',
        forwarded: { error: 'ECONNREFUSED' },
      })
    } finally {
      expect(await l.stop('SIGTERM')).toBe(0)
    }
    expect(await webhooks()).toEqual([])
  }, 60_000)
})
