import { expect } from 'vitest'
import type { TestApp } from './app.js'
import { accepted, batch, event, ingestionApp, send } from './gaming.js'
import { startReceiver } from './receiver.js'
import { makeLink, visit } from './redirect.js'

/** A scrape of GET /metrics from loopback (no token), checked to be 200. */
export async function scrape(t: TestApp): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' })
  expect(res.statusCode, res.body).toBe(200)
  return res.body
}

/** The value of one sample: `name` with exactly these labels (any order); undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',')
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line)
    if (!m || m[1] !== name) continue
    const got = (m[2] ?? '').match(/[a-zA-Z_]\w*="(?:[^"\\]|\\.)*"/g) ?? []
    if (got.sort().join(',') === want) return Number(m[3])
  }
  return undefined
}

/** Every metric family named in `# TYPE` lines, with its type. */
export function families(text: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) out.set(m[1]!, m[2]!)
  return out
}

/**
 * An app after the traffic that creates the labelled series (a redirect, an ingestion batch with
 * a refused event, a successful webhook delivery, a job run), and a scrape of it.
 */
export async function scrapeAfterTraffic(): Promise<{ text: string; close(): Promise<void> }> {
  const { t, o } = await ingestionApp()
  const rx = await startReceiver()
  try {
    const hook = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: rx.url, events: ['link.created'] },
    })
    expect(hook.statusCode, hook.body).toBe(201)
    const link = await makeLink(t)
    expect((await visit(t, link.shortCode)).statusCode).toBe(302)
    accepted(await send(t, batch(t, [event(t), { event_type: 'level_start' }]), o))
    await t.app.linkd.services.webhooks.settle()
    await t.app.linkd.services.webhooks.worker.runDue()
    await t.app.linkd.scheduler.runNow('expire-links')
    const text = await scrape(t)
    return { text, close: () => Promise.all([t.close(), rx.close()]).then(() => undefined) }
  } catch (err) {
    await Promise.all([t.close(), rx.close()])
    throw err
  }
}
