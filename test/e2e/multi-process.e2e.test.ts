/**
 * End to end, PostgreSQL only (`npm run test:pg`): three real `linkd` processes on one database,
 * as behind a load balancer. A webhook delivery claimed by a process killed with SIGKILL is sent
 * by another once the claim expires; a key's limit is one count across the processes; a link
 * deleted through one stops redirecting on the others within seconds (the hot-link cache keeps a
 * link 30 s: only the change feed explains it); the every-minute jobs run once per minute; clicks
 * and gaming events written through all three at once add up exactly.
 * Needs `npm run build` first.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Link } from '../../src/contract/links.js'
import { ingestionHeaders } from '../support/gaming.js'
import { createTestDatabase, postgresOnly } from '../support/postgres.js'
import { CHROME_WINDOWS } from '../support/redirect.js'
import { startLinkd, type RunningLinkd } from '../support/processes.js'
import { startReceiver, type Receiver } from '../support/receiver.js'

const MINUTE = 60_000
const EVERY_MINUTE = ['expire-keys', 'expire-links']

describe.runIf(postgresOnly())('three linkd processes on one PostgreSQL database', () => {
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
    // Alone, the first process claims the delivery; its attempt is in flight when it dies. It dies
    // at once: an attempt that reached its 5 s timeout would be recorded as failed and retried later
    // under another delivery header (starting the others first took longer than that under load).
    firstAttempt = String((await receiver.waitFor(1, 10_000))[0]!.headers['x-webhook-delivery'])
    expect(await doomed.stop('SIGKILL')).toBe(null)
    all.splice(all.indexOf(doomed), 1)
    processes = [await start('p1'), await start('p2')]
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
    // The claim lasts the webhook's timeout (5 s) + 30 s; the others wake when it expires.
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

  it('clicks and gaming events written through all three at once add up exactly', async () => {
    const [a, b, c] = processes as [RunningLinkd, RunningLinkd, RunningLinkd]
    const link = (await (
      await api(a, 'POST', '/api/use/links', { destinationUrl: 'https://example.com/counted' })
    ).json()) as Link
    const CLICKS = 90
    const redirects = await Promise.all(
      Array.from({ length: CLICKS }, (_, i) =>
        fetch(`${processes[i % 3]!.url}/${link.shortCode}`, {
          redirect: 'manual',
          headers: { 'user-agent': CHROME_WINDOWS },
        }),
      ),
    )
    expect(redirects.every((r) => r.status === 302)).toBe(true)
    // Each process flushes its own clicks within a second; one process's analytics then see all.
    const until = Date.now() + 10_000
    let total = 0
    while (total !== CLICKS && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250))
      const stats = await api(b, 'GET', `/api/use/analytics/links/${link.id}`)
      total = ((await stats.json()) as { totalClicks: number }).totalClicks
    }
    expect(total).toBe(CLICKS)
    const stored = await admin.query<{ clicks: number }>('SELECT clicks FROM links WHERE id = $1', [link.id])
    expect(Number(stored.rows[0]!.clicks)).toBe(CLICKS)

    // 30 batches of one game through the three processes at once, over 12 shared players (the
    // API's game id is its slug; the tables key games by an internal id).
    const game = (await (
      await api(a, 'POST', '/api/v1/admin/games', { name: 'Shared', platform: 'android' })
    ).json()) as { id: string; sdkKey: string; organizationId: string }
    const BATCHES = 30
    const PER_BATCH = 10
    const now = Date.now()
    const bodies = Array.from({ length: BATCHES }, (_, b) => ({
      batch_id: randomUUID(),
      batch_timestamp: new Date(now).toISOString(),
      events: Array.from({ length: PER_BATCH }, (_, i) => {
        const player = `player-${(b + i) % 12}`
        const purchase = i === 0
        return {
          event_id: randomUUID(),
          event_type: purchase ? 'purchase' : 'level_start',
          timestamp: new Date(now - 60_000 + b * 1000 + i).toISOString(),
          player_id: player,
          session_id: `${player}-session`,
          platform: 'android',
          data: purchase ? { amount: 2.5, currency: 'USD' } : { level: i },
        }
      }),
    }))
    const answers = await Promise.all(
      bodies.map((body, i) =>
        fetch(`${processes[i % 3]!.url}/api/v1/gaming/events`, {
          method: 'POST',
          headers: ingestionHeaders(game),
          body: JSON.stringify(body),
        }),
      ),
    )
    for (const r of answers) expect(r.status, await r.clone().text()).toBe(202)
    expect(
      (await Promise.all(answers.map((r) => r.json() as Promise<{ accepted: number }>))).map(
        (j) => j.accepted,
      ),
    ).toEqual(Array(BATCHES).fill(PER_BATCH))
    const overview = (await (await api(c, 'GET', `/api/v1/analytics/games/${game.id}/overview`)).json()) as {
      mau: number
      revenue: { total: number }
    }
    expect(overview.mau).toBe(12)
    expect(overview.revenue.total).toBeCloseTo(BATCHES * 2.5, 6)
    const daily = await admin.query<{ events: string; transactions: string }>(
      `SELECT SUM(events) AS events, SUM(transactions) AS transactions FROM game_daily
       WHERE game_id = (SELECT id FROM games WHERE slug = $1 AND organization_id = $2)`,
      [game.id, game.organizationId],
    )
    expect(Number(daily.rows[0]!.events)).toBe(BATCHES * PER_BATCH)
    expect(Number(daily.rows[0]!.transactions)).toBe(BATCHES)
    const players = await admin.query<{ events: string }>(
      `SELECT SUM(event_count) AS events FROM game_players
       WHERE game_id = (SELECT id FROM games WHERE slug = $1 AND organization_id = $2)`,
      [game.id, game.organizationId],
    )
    expect(Number(players.rows[0]!.events)).toBe(BATCHES * PER_BATCH)
  }, 60_000)

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
