/**
 * `linkctl webhooks ...` through the whole CLI (argument parsing included) against the real
 * daemon (in-memory SQLite, fake clock), a real receiver, and the local listener.
 */
import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../src/contract/common.js'
import type { Delivery, WebhookWithSecret } from '../../src/contract/webhooks.js'
import { startListener } from '../../src/cli/commands/webhooks/listen.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { cli, testCtx } from '../support/cli.js'

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

const run = (args: string[], extra: NodeJS.ProcessEnv = {}, stdin?: string) =>
  cli(['webhooks', ...args], { env: { ...env, ...extra }, ...(stdin !== undefined ? { stdin } : {}) })

async function createHook(args: string[] = []): Promise<WebhookWithSecret> {
  const r = await run(['create', rx.url, '--name', 'cli', '--event', 'link.created', ...args, '--json'])
  expect(r.code, r.stderr).toBe(0)
  expect(r.stderr).toMatch(/only time the signing secret is shown/)
  return JSON.parse(r.stdout) as WebhookWithSecret
}

describe('linkctl webhooks: management', () => {
  it('create with every flag, get, update, list', async () => {
    const w = await createHook([
      '--event',
      'link.deleted,link.clicked',
      '--retry-policy',
      'linear',
      '--max-retries',
      '10',
      '--timeout',
      '5',
      '--header',
      'Authorization: Bearer x',
      '--header',
      'X-Team=growth',
      '--description',
      'from the CLI',
    ])
    expect(w).toMatchObject({
      events: ['link.created', 'link.deleted', 'link.clicked'],
      retryPolicy: 'linear',
      maxRetries: 10,
      timeoutSeconds: 5,
      headers: { Authorization: 'Bearer x', 'X-Team': 'growth' },
      description: 'from the CLI',
    })
    expect(
      (await run(['create', rx.url, '--name', 'x', '--event', 'link.created', '--max-retries', '11'])).code,
    ).toBe(2)
    expect((await run(['create', rx.url, '--name', 'x'])).code).toBe(2)
    const bad = await run(['create', 'http://example.com/', '--name', 'x', '--event', 'link.created'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/HTTPS/)

    const got = await run(['get', w.id])
    expect(got.code).toBe(0)
    expect(got.stdout.split('\n')[0]).toMatch(/^ID\tNAME\tSTATUS\tURL\tEVENTS/)
    expect(got.stdout.split('\n')[1]!.split('\t').slice(0, 5)).toEqual([
      w.id,
      'cli',
      'active',
      rx.url,
      'link.created,link.deleted,link.clicked',
    ])
    const header = got.stdout.split('\n')[0]!.split('\t')
    expect(got.stdout.split('\n')[1]!.split('\t')[header.indexOf('FAILED ATTEMPTS IN A ROW')]).toBe('0')
    const upd = await run(['update', w.id, '--name', 'renamed', '--clear-headers', '--json'])
    expect(JSON.parse(upd.stdout)).toMatchObject({ name: 'renamed', headers: {} })
    const list = await run(['list', '--status', 'active', '--json'])
    expect(JSON.parse(list.stdout).data.map((x: { id: string }) => x.id)).toContain(w.id)
    expect((await run(['get', 'wh_missing'])).code).toBe(5)
  })

  it('enable/disable/suspend one id, bulk with several; delete needs --yes without a terminal', async () => {
    const a = await createHook()
    const b = await createHook()
    expect((await run(['suspend', a.id])).stderr).toMatch(/Suspended webhook cli .*status: suspended/)
    expect((await run(['disable', a.id, b.id])).stderr).toBe('Disabled 2 of 2 webhooks\n')
    expect(JSON.parse((await run(['enable', a.id, b.id, '--json'])).stdout)).toEqual({ updated: 2 })
    expect((await run(['suspend', a.id, b.id])).code).toBe(2)
    expect((await run(['delete', a.id, b.id])).code).toBe(2)
    expect((await run(['delete', a.id, b.id, '--yes'])).stderr).toBe('Deleted 2 of 2 webhooks\n')
    expect((await run(['get', a.id])).code).toBe(5)
  })

  it('get shows the retries the policy makes: none makes none, whatever maxRetries says', async () => {
    const none = await createHook(['--retry-policy', 'none'])
    expect(none).toMatchObject({ retryPolicy: 'none', maxRetries: 3 })
    expect((await run(['get', none.id])).stdout).toMatch(/\tnone \(no retries\)\t/)
    const linear = await createHook(['--retry-policy', 'linear', '--max-retries', '1'])
    expect((await run(['get', linear.id])).stdout).toMatch(/\tlinear, up to 1 retry\t/)
  })

  it('test, deliveries, retry, health, rotate-secret, templates', async () => {
    const w = await createHook(['--max-retries', '0'])
    rx.behave({ kind: 'status', status: 500 })
    const failed = await run(['test', w.id, '--event', 'link.clicked', '--json'])
    expect(failed.code).toBe(1)
    const delivery = JSON.parse(failed.stdout) as Delivery
    expect(delivery).toMatchObject({ status: 'failed', event: 'link.clicked', responseStatusCode: 500 })
    rx.behave({ kind: 'status', status: 200 })
    const retried = await run(['retry', w.id, delivery.id, '--json'])
    expect(retried.code, retried.stderr).toBe(0)
    expect(JSON.parse(retried.stdout)).toMatchObject({ status: 'success', attempt: 2 })

    const log = await run(['deliveries', w.id, '--json'])
    expect(JSON.parse(log.stdout).totals).toEqual({ total: 1, success: 1, failed: 0, pending: 0 })
    const table = await run(['deliveries', w.id])
    expect(table.stdout.split('\n')[0]).toBe('ID\tEVENT\tSTATUS\tATTEMPT\tCODE\tMS\tSENT\tNEXT\tERROR')
    const health = JSON.parse((await run(['health', w.id, '--json'])).stdout)
    expect(health).toMatchObject({ healthScore: 100, band: 'Excellent', totalDeliveries: 1 })

    const rotated = await run(['rotate-secret', w.id])
    expect(rotated.stdout).toMatch(/^whsec_[A-Za-z0-9]{32}\n$/)
    expect(rotated.stdout.trim()).not.toBe(w.secret)
    const templates = JSON.parse((await run(['templates', '--json'])).stdout) as PageOf<{ id: string }>
    expect(templates).toMatchObject({ total: 6, page: 1, perPage: 20, hasMore: false })
    expect(templates.data).toHaveLength(6)
    const paged = JSON.parse(
      (await run(['templates', '--json', '--limit', '4', '--page', '2'])).stdout,
    ) as PageOf<{
      id: string
    }>
    expect(paged.data.map((t) => t.id)).toEqual(templates.data.slice(4).map((t) => t.id))
  })
})

describe('linkctl webhooks: sign, verify, listen', () => {
  const secret = 'whsec_cli'
  const payload = '{"id":"evt_1","event":"link.deleted"}'

  it('sign gives the signature and delivery headers; verify accepts it and names failures (exit 4)', async () => {
    const signed = await run([
      'sign',
      '--secret',
      secret,
      '--payload',
      payload,
      '--timestamp',
      '1795000000000',
      '--json',
    ])
    expect(signed.code, signed.stderr).toBe(0)
    const s = JSON.parse(signed.stdout)
    const expected = createHmac('sha256', secret).update(`1795000000000.${payload}`).digest('hex')
    expect(s.signature).toBe(`sha256=${expected}`)
    expect(s.headers).toMatchObject({
      'X-Webhook-Event': 'link.deleted',
      'X-Webhook-Timestamp': '1795000000000',
    })

    const now = Date.now()
    const sig = (
      await run(['sign', '--payload', payload, '--timestamp', String(now), '--json'], {
        LINKCTL_WEBHOOK_SECRET: secret,
      })
    ).stdout
    const signature = JSON.parse(sig).signature as string
    const ok = await run(
      ['verify', '--secret', secret, '--signature', signature, '--timestamp', String(now)],
      {},
      payload,
    )
    expect(ok).toMatchObject({ code: 0, stdout: 'valid\n' })
    const wrong = await run([
      'verify',
      '--secret',
      'other',
      '--signature',
      signature,
      '--timestamp',
      String(now),
      '--payload',
      payload,
    ])
    expect(wrong).toMatchObject({ code: 4, stdout: 'invalid: mismatch\n' })
    const stale = await run([
      'verify',
      '--secret',
      secret,
      '--signature',
      s.signature,
      '--timestamp',
      '1795000000000',
      '--payload',
      payload,
    ])
    expect(stale).toMatchObject({ code: 4, stdout: 'invalid: stale\n' })
    expect((await run(['sign', '--payload', payload])).code).toBe(2)
  })

  it('a --payload-file that cannot be read is named, as other commands name their files', async () => {
    const missing = '/nonexistent/linkd-payload.json'
    for (const verb of [['sign'], ['verify', '--signature', 'sha256=00', '--timestamp', '1']]) {
      const r = await run([...verb, '--secret', secret, '--payload-file', missing])
      expect(r.code).toBe(2)
      expect(r.stderr).toBe(`error: cannot read --payload-file ${missing}: no such file\n`)
    }
  })

  it('listen prints verified deliveries from the daemon; 401 for a bad signature', async () => {
    const { ctx, out } = testCtx({ json: true, env: { LINKCTL_WEBHOOK_SECRET: 'placeholder' } })
    const listener = await startListener({ port: 0 }, ctx)
    try {
      // The webhook's secret is only known after create: a second listener with it.
      const w = JSON.parse(
        (await run(['create', listener.url, '--name', 'listen', '--event', 'link.created', '--json'])).stdout,
      ) as WebhookWithSecret
      await listener.close()
      const port = Number(new URL(listener.url).port)
      const real = testCtx({ json: true })
      // The test daemon's clock is fake (2026-11-21): accept its timestamps whatever the real date.
      const l2 = await startListener({ port, secret: w.secret, tolerance: 10 ** 9 }, real.ctx)
      try {
        const test = await run(['test', w.id, '--json'])
        expect(test.code, test.stderr).toBe(0)
        const line = JSON.parse(real.out.text.trim()) as Record<string, unknown>
        expect(line).toMatchObject({ event: 'link.created', attempt: 1, signature: 'valid' })
        expect((line.payload as { id: string }).id).toMatch(/^evt_/)

        const forged = await fetch(l2.url, {
          method: 'POST',
          headers: {
            'x-webhook-signature': `sha256=${'0'.repeat(64)}`,
            'x-webhook-timestamp': String(Date.now()),
          },
          body: '{}',
        })
        expect(forged.status).toBe(401)
        expect(real.out.text.trim().split('\n').at(-1)).toMatch(/"signature":"invalid: mismatch"/)
      } finally {
        await l2.close()
      }
    } finally {
      await listener.close()
    }
    expect(out.text).toBe('')
  })

  it('listen marks the deliveries of the test action as tests, and no others', async () => {
    const secret = 'whsec_listen_marks_tests'
    const human = testCtx({ json: false })
    const json = testCtx({ json: true })
    const [l1, l2] = await Promise.all([
      startListener({ port: 0, secret, tolerance: 10 ** 9 }, human.ctx),
      startListener({ port: 0, secret, tolerance: 10 ** 9 }, json.ctx),
    ])
    const signed = (url: string, body: string, event: string) => {
      const ts = String(Date.now())
      const signature = `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`
      return fetch(url, {
        method: 'POST',
        headers: { 'x-webhook-signature': signature, 'x-webhook-timestamp': ts, 'x-webhook-event': event },
        body,
      })
    }
    try {
      const test = JSON.stringify({
        id: 'evt_t',
        event: 'link.created',
        data: { id: 'lnk_sample', test: true },
      })
      const real = JSON.stringify({ id: 'evt_r', event: 'link.deleted', data: { id: 'lnk_1' } })
      for (const l of [l1, l2]) {
        expect((await signed(l.url, test, 'link.created')).status).toBe(200)
        expect((await signed(l.url, real, 'link.deleted')).status).toBe(200)
      }
      const [t1, r1] = human.out.text.trim().split('\n')
      expect(t1).toMatch(/ {2}link\.created \(test\) {2}evt_t {2}attempt - {2}signature valid$/)
      expect(r1).toMatch(/ {2}link\.deleted {2}evt_r {2}/)
      expect(r1).not.toContain('(test)')
      const lines = json.out.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(lines.map((l) => [l.event, l.test])).toEqual([
        ['link.created', true],
        ['link.deleted', false],
      ])
    } finally {
      await Promise.all([l1.close(), l2.close()])
    }
  })
})
