/**
 * `webhooks listen --forward-to` against the real daemon (in-memory SQLite, fake clock) and a
 * real receiver: the temporary webhook, the verified and forwarded delivery with its original
 * headers, the target's answer relayed to the daemon, a target that is down, the clean-up.
 * The real binaries and signals: test/e2e/webhooks-forward.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import type { Delivery, Webhook } from '../../../src/contract/webhooks.js'
import { verifySignature } from '../../../src/contract/webhook-signature.js'
import { runWebhooksListen } from '../../../src/cli/commands/webhooks/listen.js'
import { exitCodeFor } from '../../../src/session/exit-codes.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { freePort } from '../../support/processes.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'
import { cli, testCtx } from '../../support/cli.js'

let d: TestDaemon
let rx: Receiver
let env: NodeJS.ProcessEnv
beforeAll(async () => {
  d = await startTestDaemon()
  rx = await startReceiver()
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }
})
afterAll(async () => {
  await d.close()
  await rx.close()
})

const run = (args: string[]) => cli(['webhooks', ...args], { env })

async function webhooks(): Promise<Webhook[]> {
  const r = await run(['list', '--json'])
  expect(r.code, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as PageOf<Webhook>).data
}

/** Starts listen --forward-to in-process; `stop()` ends it as Ctrl-C would. */
async function forwarding(forwardTo: string, events: string[]) {
  let stop: () => void = () => undefined
  const until = new Promise<void>((resolve) => (stop = resolve))
  const t = testCtx({ flags: { url: d.url, apiKey: d.ownerKey }, json: true, env: { NO_COLOR: '1' } })
  // The test daemon's clock is fake (2026-11-21): accept its timestamps whatever the real date.
  const done = runWebhooksListen(
    { forwardTo, events: events as never, tolerance: 10 ** 9 },
    t.ctx,
    until,
  ).then(
    () => 0,
    (err: unknown) => exitCodeFor(err),
  )
  for (let i = 0; i < 200 && !t.err.text.includes('Ctrl-C'); i++) await new Promise((r) => setTimeout(r, 10))
  const secret = /Signing secret[^\n]*\n(\S+)\n/.exec(t.err.text)?.[1]
  expect(secret, t.err.text).toBeDefined()
  const [hook] = await webhooks()
  return { ...t, secret: secret ?? '', hook: hook!, stop: async () => (stop(), done) }
}

describe('webhooks listen --forward-to', () => {
  it('creates a temporary webhook, verifies, forwards with the original headers, relays the answer, deletes it', async () => {
    const l = await forwarding(rx.url, ['link.created', 'link.deleted'])
    expect(l.hook).toMatchObject({ events: ['link.created', 'link.deleted'], status: 'active' })
    expect(l.hook.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(l.err.text).toContain(
      `Ready: webhook ${l.hook.id} sends link.created, link.deleted to ${l.hook.url}`,
    )

    rx.behave({ kind: 'status', status: 202 })
    const test = await run(['test', l.hook.id, '--json'])
    expect(test.code, test.stderr).toBe(0)
    // The daemon saw the forward target's answer.
    expect(JSON.parse(test.stdout) as Delivery).toMatchObject({ status: 'success', responseStatusCode: 202 })
    const [got] = await rx.waitFor(1)
    expect(got?.headers['x-webhook-event']).toBe('link.created')
    expect(got?.headers['user-agent']).toMatch(/linkd/i)
    expect(
      verifySignature({
        secret: l.secret,
        payload: got!.raw,
        signature: got?.headers['x-webhook-signature'] as string,
        timestamp: got?.headers['x-webhook-timestamp'] as string,
        toleranceMs: 10 ** 12,
      }),
    ).toEqual({ valid: true })
    const line = JSON.parse(l.out.text.trim()) as Record<string, unknown>
    expect(line).toMatchObject({ event: 'link.created', signature: 'valid', forwarded: { status: 202 } })

    // A forged delivery is refused and not forwarded.
    const forged = await fetch(l.hook.url, {
      method: 'POST',
      headers: {
        'x-webhook-signature': `sha256=${'0'.repeat(64)}`,
        'x-webhook-timestamp': String(Date.now()),
      },
      body: '{}',
    })
    expect(forged.status).toBe(401)
    expect(rx.received).toHaveLength(1)

    expect(await l.stop()).toBe(0)
    expect(l.err.text).toContain(`Deleted webhook ${l.hook.id}`)
    expect(await webhooks()).toEqual([])
  })

  it('a forward target that is down: 502 to the daemon, one line, and the webhook is still deleted', async () => {
    const down = `http://127.0.0.1:${await freePort()}/hook`
    const l = await forwarding(down, [])
    expect(l.hook.events.length).toBeGreaterThan(3)
    const test = await run(['test', l.hook.id, '--json'])
    expect(test.code).toBe(1)
    expect(JSON.parse(test.stdout) as Delivery).toMatchObject({ status: 'failed', responseStatusCode: 502 })
    expect(JSON.parse(l.out.text.trim())).toMatchObject({
      signature: 'valid',
      forwarded: { error: 'ECONNREFUSED' },
    })
    expect(await l.stop()).toBe(0)
    expect(await webhooks()).toEqual([])
  })

  it('usage: --forward-to needs an http(s) URL; --event (or --events) only with --forward-to', async () => {
    expect((await run(['listen', '--forward-to', 'ftp://x'])).code).toBe(2)
    const alone = await run(['listen', '--event', 'link.created'])
    expect([alone.code, alone.stderr]).toEqual([
      2,
      'error: --event and --receiver-url go with --forward-to\n',
    ])
    expect((await run(['listen', '--events', 'link.created'])).code).toBe(2)
    expect((await run(['listen', '--forward-to', 'http://x', '--event', 'link.nope'])).code).toBe(2)
  })
})

describe('the webhook utility routes from the CLI', () => {
  it('validate-url: valid, and refused with the reason (exit 1)', async () => {
    const ok = await run(['validate-url', 'https://hooks.example.com/linkd', '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ valid: true, errors: [] })
    const bad = await run(['validate-url', 'ftp://hooks.example.com'])
    expect(bad.code).toBe(1)
    expect(bad.stdout.split('\n')[1]?.split('\t').slice(0, 2)).toEqual(['ftp://hooks.example.com', 'no'])
    expect(bad.stderr).toMatch(/^error: linkd would not deliver to ftp:\/\/hooks\.example\.com: /)
  })

  it('sign --remote and verify --remote give the answers of the offline verbs', async () => {
    const args = [
      '--secret',
      'whsec_test',
      '--payload',
      '{"event":"link.created"}',
      '--timestamp',
      '1795000000000',
    ]
    const local = await run(['sign', ...args, '--json'])
    const remote = await run(['sign', ...args, '--json', '--remote'])
    expect(remote.code, remote.stderr).toBe(0)
    const signed = JSON.parse(local.stdout) as { signature: string }
    expect(JSON.parse(remote.stdout)).toMatchObject({ signature: signed.signature, timestamp: 1795000000000 })
    const check = ['verify', '--secret', 'whsec_test', '--payload', '{"event":"link.created"}', '--remote']
    const good = await run([...check, '--signature', signed.signature, '--timestamp', String(d.clock.now())])
    // The signature was made for another timestamp: a mismatch, said by linkd.
    expect(good).toMatchObject({ code: 4, stdout: 'invalid: mismatch\n' })
    const fresh = await run([
      'sign',
      '--secret',
      'whsec_test',
      '--payload',
      '{"event":"link.created"}',
      '--timestamp',
      String(d.clock.now()),
      '--json',
    ])
    const sig = (JSON.parse(fresh.stdout) as { signature: string }).signature
    expect(await run([...check, '--signature', sig, '--timestamp', String(d.clock.now())])).toMatchObject({
      code: 0,
      stdout: 'valid\n',
    })
  })
})
