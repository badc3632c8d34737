/**
 * End to end: `linkctl webhooks listen --forward-to` with the built `linkd` and `linkctl` and a
 * real receiver. The listener creates a temporary webhook, linkctl links create makes the daemon
 * deliver link.created, the receiver gets it forwarded with the original, valid signature, and
 * SIGINT / SIGTERM / SIGHUP delete the webhook (also after the forward target was down) and exit
 * with 130 / 143 / 129. linkctl runs as a user has it: logged in to a saved profile (so the
 * profile store and its own exit hooks are loaded). A daemon that does not answer: the deletion
 * gives up after 5 s, and a second Ctrl-C exits at once; both name the webhook left behind.
 * Needs `npm run build` first (`npm test` does it).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../src/contract/common.js'
import type { Webhook } from '../../src/contract/webhooks.js'
import { verifySignature } from '../../src/contract/webhook-signature.js'
import {
  cleanEnv,
  freePort,
  LINKCTL,
  runBin,
  startLinkdForCli,
  type LinkdForCli,
} from '../support/processes.js'
import { startReceiver, type Receiver } from '../support/receiver.js'

let cli: LinkdForCli
let rx: Receiver
/** linkctl's environment: only its configuration directory, holding the logged-in profile. */
let env: Record<string, string> = {}
const linkctl = (args: string[]) => runBin(LINKCTL, args, env)

beforeAll(async () => {
  cli = await startLinkdForCli('linkctl-forward-e2e-', { LINKD_WEBHOOK_ALLOW_LOOPBACK: 'true' })
  const login = await cli.linkctl(['login'])
  expect(login.code, login.stderr).toBe(0)
  env = { LINKCTL_CONFIG_DIR: cli.env.LINKCTL_CONFIG_DIR! }
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
  /** Resolves once stderr matches `re`. */
  said(re: RegExp, timeoutMs: number): Promise<void>
  /** The webhook's id, from the Ready line. */
  id: string
  /** Sends a signal; resolves with the exit code (null: ended by a signal). */
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
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    child,
    secret,
    id: /Ready: webhook (wh_\w+)/.exec(err)?.[1] ?? '',
    stdout: () => out,
    stderr: () => err,
    async said(re, timeoutMs) {
      const until = Date.now() + timeoutMs
      while (!re.test(err)) {
        if (Date.now() > until) throw new Error(`stderr did not match ${re} within ${timeoutMs} ms: ${err}`)
        await new Promise((r) => setTimeout(r, 25))
      }
    },
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
    stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

async function webhooks(): Promise<Webhook[]> {
  const r = await linkctl(['webhooks', 'list', '--json'])
  expect(r.code, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as PageOf<Webhook>).data
}

describe('linkctl webhooks listen --forward-to with the real binaries', () => {
  it('forwards a signed link.created to the receiver; SIGINT deletes the temporary webhook', async () => {
    const l = await forward(rx.url, ['--event', 'link.created'])
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
      expect(await l.stop('SIGINT')).toBe(130)
    }
    expect(l.stderr()).toContain(`Deleted webhook ${l.id}`)
    expect(await webhooks()).toEqual([])
  }, 60_000)

  it('with the forward target down: one line per delivery, and SIGTERM still deletes the webhook', async () => {
    const l = await forward(`http://127.0.0.1:${await freePort()}/down`, ['--event', 'link.created'])
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
      expect(await l.stop('SIGTERM')).toBe(143)
    }
    expect(l.stderr()).toContain(`Deleted webhook ${l.id}`)
    expect(await webhooks()).toEqual([])
  }, 60_000)

  it('SIGHUP (the terminal closed) deletes the webhook too, and exits 129', async () => {
    const l = await forward(rx.url, ['--event', 'link.deleted'])
    expect((await webhooks()).map((h) => h.id)).toEqual([l.id])
    expect(await l.stop('SIGHUP')).toBe(129)
    expect(l.stderr()).toContain(`Deleted webhook ${l.id}`)
    expect(await webhooks()).toEqual([])
  }, 60_000)

  describe('a daemon that does not answer the deletion (stopped with SIGSTOP)', () => {
    it('a second Ctrl-C exits at once, naming the webhook left behind', async () => {
      const l = await forward(rx.url, ['--events', 'link.deleted'])
      cli.daemon.child.kill('SIGSTOP')
      try {
        l.child.kill('SIGINT')
        await l.said(/Stopping: deleting webhook/, 10_000)
        expect(await l.stop('SIGINT')).toBe(130)
      } finally {
        cli.daemon.child.kill('SIGCONT')
      }
      expect(l.stderr()).toContain(
        `stopped before webhook ${l.id} was deleted, so it may still be active; delete it with: linkctl webhooks delete ${l.id} --yes`,
      )
      await cleanUp(l.id)
    }, 60_000)

    it('the deletion gives up after 5 s: exit code of the signal, and the command to delete it', async () => {
      const l = await forward(rx.url, ['--events', 'link.deleted'])
      cli.daemon.child.kill('SIGSTOP')
      try {
        expect(await l.stop('SIGTERM')).toBe(143)
      } finally {
        cli.daemon.child.kill('SIGCONT')
      }
      expect(l.stderr()).toContain(
        `could not delete webhook ${l.id}: no answer within 5 s; delete it with: linkctl webhooks delete ${l.id} --yes`,
      )
      await cleanUp(l.id)
    }, 60_000)
  })
})

/** Deletes a webhook a test left behind (the daemon may have deleted it meanwhile: its request was queued). */
async function cleanUp(id: string): Promise<void> {
  const r = await linkctl(['webhooks', 'delete', id, '--yes'])
  expect([0, 5], r.stderr).toContain(r.code)
  expect(await webhooks()).toEqual([])
}
