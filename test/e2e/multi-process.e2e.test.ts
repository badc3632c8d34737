/**
 * End to end, PostgreSQL only (`npm run test:pg`): three real `linkd` processes on one database,
 * as behind a load balancer. A webhook delivery claimed by a process killed with SIGKILL is sent
 * by another once the claim expires; a key's limit is one count across the processes; a link
 * deleted through one stops redirecting on the others within seconds (the hot-link cache keeps a
 * link 30 s: only the change feed explains it); the every-minute jobs run once per minute.
 * Needs `npm run build` first.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Link } from '../../src/contract/links.js'
import { createTestDatabase, onPostgres } from '../support/postgres.js'
import { startLinkd, type RunningLinkd } from '../support/processes.js'
import { startReceiver, type Receiver } from '../support/receiver.js'

const MINUTE = 60_000
const EVERY_MINUTE = ['expire-keys', 'expire-links']

describe.runIf(onPostgres)('three linkd processes on one PostgreSQL database', () => {
  let database: { url: string; drop(): Promise<void> }
  let work = ''
  let env: Record<string, string> = {}
  let ownerKey = ''
  /** The three running processes (the first one started was killed in beforeAll). */
  let processes: RunningLinkd[] = []
  const all: RunningLinkd[] = []
  let receiver: Receiver
  let firstAttempt = ''
  let admin: pg.Client
  let jobsBefore: { at: number; runs: Map<string, number> }

  const start = async (name: string) => {
    const p = await startLinkd(join(work, name), env)
    all.push(p)
    return p
  }
  const api = (p: RunningLinkd, method: string, path: string, body?: unknown, key = ownerKey) =>
    fetch(`${p.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
  const jobRuns = async () => {
    const { rows } = await admin.query<{ name: string; run_count: string }>(
      'SELECT name, run_count FROM job_runs WHERE name = ANY($1) ORDER BY name',
      [EVERY_MINUTE],
    )
    return new Map(rows.map((r) => [r.name, Number(r.run_count)]))
  }
  /** Now, but never within 3 s after a minute starts (a tick may be running then). */
  const awayFromTicks = async () => {
    while (Date.now() % MINUTE < 3000) await new Promise((r) => setTimeout(r, 250))
    return Date.now()
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    admin = new pg.Client({ connectionString: database.url })
    await admin.connect()
    work = mkdtempSync(join(tmpdir(), 'linkd-multi-'))
    env = {
      LINKD_DATABASE_URL: database.url,
      LINKD_SECRET_KEY: randomBytes(32).toString('hex'), // one installation: one master key
      LINKD_WEBHOOK_ALLOW_LOOPBACK: 'true',
    }
    // The receiver holds the first request without answering: the sender is killed meanwhile.
    receiver = await startReceiver({ kind: 'slow', ms: 120_000 })
    const doomed = await start('p0')
    ownerKey = doomed.ownerKey() ?? ''
    expect(ownerKey).not.toBe('')
    const hook = await api(doomed, 'POST', '/api/webhooks', {
      name: 'failover',
      url: receiver.url,
      events: ['link.created'],
      timeoutSeconds: 5,
    })
    expect(hook.status).toBe(201)
    expect(
      (await api(doomed, 'POST', '/api/use/links', { destinationUrl: 'https://example.com/a' })).status,
    ).toBe(201)
    // Alone, the first process claims the delivery; its attempt is in flight when it dies.
    firstAttempt = String((await receiver.waitFor(1, 10_000))[0]!.headers['x-webhook-delivery'])
    processes = [await start('p1'), await start('p2')]
    expect(await doomed.stop('SIGKILL')).toBe(null)
    all.splice(all.indexOf(doomed), 1)
    receiver.behave({ kind: 'status', status: 200 })
    processes.push(await start('p3'))
    jobsBefore = { at: await awayFromTicks(), runs: await jobRuns() }
  }, 60_000)

  afterAll(async () => {
    await Promise.all(all.map((p) => p.stop('SIGKILL')))
    await receiver?.close()
    await admin?.end()
    await database?.drop()
    rmSync(work, { recursive: true, force: true })
  })

  it('a key limited to 30 requests an hour gets 30 in total across the three', async () => {
    await awayFromTicks()
    const res = await api(processes[0]!, 'POST', '/api/keys', {
      name: 'quota',
      preset: 'full',
      requestLimit: 30,
      timePeriod: 'hour',
    })
    expect(res.status).toBe(201)
    const key = ((await res.json()) as { key: string }).key
    const answers = await Promise.all(
      Array.from({ length: 45 }, (_, i) => api(processes[i % 3]!, 'GET', '/api/use/links', undefined, key)),
    )
    const codes = answers.map((r) => r.status)
    expect(codes.filter((c) => c === 200)).toHaveLength(30)
    expect(codes.filter((c) => c === 429)).toHaveLength(15)
  })

  it('a link deleted through one process stops redirecting on the others within seconds', async () => {
    const [a, b, c] = processes as [RunningLinkd, RunningLinkd, RunningLinkd]
    const created = await api(a, 'POST', '/api/use/links', { destinationUrl: 'https://example.com/gone' })
    const link = (await created.json()) as Link
    const follow = (p: RunningLinkd) => fetch(`${p.url}/${link.shortCode}`, { redirect: 'manual' })
    for (const p of [b, c]) {
      expect((await follow(p)).status).toBe(302)
      expect((await follow(p)).status).toBe(302) // now served from the hot-link cache (30 s)
    }
    expect((await api(a, 'DELETE', `/api/use/links/${link.id}`)).status).toBe(204)
    for (const p of [b, c]) {
      const until = Date.now() + 5000
      while ((await follow(p)).status === 302) {
        if (Date.now() > until) throw new Error(`${p.url} still redirects a deleted link after 5 s`)
        await new Promise((r) => setTimeout(r, 20))
      }
      expect((await follow(p)).status).toBe(404)
    }
  })

  it('the delivery of the killed process is sent by another once its claim expires', async () => {
    // The claim lasts the webhook's timeout (5 s) + 30 s; the other senders poll every second.
    const until = Date.now() + 60_000
    const again = () =>
      receiver.received.slice(1).filter((r) => String(r.headers['x-webhook-delivery']) === firstAttempt)
    while (again().length === 0) {
      if (Date.now() > until) throw new Error('the delivery of the killed process was not sent again')
      await receiver.waitFor(receiver.received.length + 1, 60_000).catch(() => {})
    }
    expect(again()).toHaveLength(1) // the same delivery, attempt 1 again (the first was never recorded)
    const hooks = (await (await api(processes[1]!, 'GET', '/api/webhooks')).json()) as {
      data: Array<{ id: string }>
    }
    const log = await api(processes[2]!, 'GET', `/api/webhooks/${hooks.data[0]!.id}/deliveries?limit=100`)
    const rows = ((await log.json()) as { data: Array<{ id: string; status: string; attempt: number }> }).data
    const failedOver = rows.find((d) => firstAttempt.startsWith(`${d.id}-`))
    expect(failedOver).toMatchObject({ status: 'success', attempt: 1 })
  }, 70_000)

  it('the every-minute jobs ran once per minute, not once per process', async () => {
    // At least one minute start with all three running.
    while (Math.floor(Date.now() / MINUTE) === Math.floor(jobsBefore.at / MINUTE))
      await new Promise((r) => setTimeout(r, 500))
    const at = await awayFromTicks()
    const minutes = Math.floor(at / MINUTE) - Math.floor(jobsBefore.at / MINUTE)
    const runs = await jobRuns()
    for (const name of EVERY_MINUTE)
      expect({ name, runs: (runs.get(name) ?? 0) - (jobsBefore.runs.get(name) ?? 0) }).toEqual({
        name,
        runs: minutes,
      })
  }, 90_000)
})
