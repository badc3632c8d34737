/**
 * The example verifier of docs/reference/webhooks.md, read from the page itself (so the page and
 * this test cannot drift), run against a real delivery received on loopback: it accepts it as
 * sent, and refuses it altered, under another secret, or past the 5 minutes of the contract.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IncomingHttpHeaders } from 'node:http'
import { packageRoot } from '../../../src/version.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'

type Verify = (secret: string, headers: IncomingHttpHeaders, raw: Buffer, now?: number) => boolean

/** The page's `js` block that defines `verify`, loaded as a module. */
async function documentedVerifier(dir: string): Promise<Verify> {
  const page = readFileSync(join(packageRoot(), 'docs/reference/webhooks.md'), 'utf8')
  const blocks = [...page.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!)
  const code = blocks.filter((b) => b.includes('function verify('))
  expect(code).toHaveLength(1)
  const file = join(dir, 'verify.mjs')
  writeFileSync(file, `${code[0]!}\nexport { verify }\n`)
  return ((await import(pathToFileURL(file).href)) as { verify: Verify }).verify
}

let t: TestApp
let rx: Receiver
let dir = ''
beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'https://sho.rt' })
  rx = await startReceiver()
  dir = mkdtempSync(join(tmpdir(), 'linkd-doc-verifier-'))
})
afterAll(async () => {
  await t.close()
  await rx.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the documented signature verifier', () => {
  it('accepts a real delivery and refuses it altered, under another secret or stale', async () => {
    const verify = await documentedVerifier(dir)
    const hook = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: rx.url, events: ['link.created'] },
    })
    expect(hook.statusCode, hook.body).toBe(201)
    const { secret } = hook.json<{ secret: string }>()
    const link = await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/v' } })
    expect(link.statusCode).toBe(201)
    await t.app.linkd.services.webhooks.settle()
    await t.app.linkd.services.webhooks.worker.runDue()
    const [delivery] = await rx.waitFor(1)
    const { headers, raw } = delivery!
    const sentAt = Number(headers['x-webhook-timestamp'])
    expect(sentAt).toBe(t.clock.now())

    expect(verify(secret, headers, raw, sentAt)).toBe(true)
    const fiveMinutes = 5 * 60 * 1000
    expect(verify(secret, headers, raw, sentAt + fiveMinutes)).toBe(true)
    expect(verify(secret, headers, raw, sentAt - fiveMinutes)).toBe(true)
    expect(verify(secret, headers, raw, sentAt + fiveMinutes + 1)).toBe(false)
    expect(verify(secret, headers, raw, sentAt - fiveMinutes - 1)).toBe(false)
    const altered = Buffer.from(raw.toString().replace('https://example.com/v', 'https://example.com/w'))
    expect(altered.equals(raw)).toBe(false)
    expect(verify(secret, headers, altered, sentAt)).toBe(false)
    expect(verify(`${secret}x`, headers, raw, sentAt)).toBe(false)
    expect(verify(secret, { ...headers, 'x-webhook-timestamp': String(sentAt + 1) }, raw, sentAt)).toBe(false)
    expect(verify(secret, { ...headers, 'x-webhook-signature': undefined }, raw, sentAt)).toBe(false)
    expect(verify(secret, { ...headers, 'x-webhook-signature': 'sha256=00' }, raw, sentAt)).toBe(false)
  })
})
