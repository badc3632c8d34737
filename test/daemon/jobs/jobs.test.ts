import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, JOB_NAMES, type TestApp } from '../../support/app.js'
import { createScheduler } from '../../../daemon/jobs/scheduler.js'
import { createJobStore } from '../../../daemon/jobs/store.js'
import { storedKey } from '../../support/responses.js'

const HOUR = 3_600_000
const DAY = 86_400_000

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('expire-keys job', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('marks active and inactive keys past their expiry as expired in storage', async () => {
    t = await createTestApp()
    const soon = new Date(t.clock.now() + HOUR).toISOString()
    const a = await t.createKey({ name: 'a', expiresAt: soon })
    const b = await t.createKey({ name: 'b', expiresAt: soon })
    const c = await t.createKey({ name: 'c', expiresAt: soon })
    const later = await t.createKey({ name: 'later', expiresAt: new Date(t.clock.now() + DAY).toISOString() })
    const never = await t.createKey({ name: 'never' })
    await t.call('POST', `/api/keys/${b.id}/deactivate`)
    await t.call('POST', `/api/keys/${c.id}/revoke`)

    expect(await t.app.linkd.scheduler.runNow('expire-keys')).toEqual({ ran: true, status: 'ok' })
    expect((await storedKey(t, a.id))?.status).toBe('active')

    t.clock.advance(HOUR)
    // users already see it as expired; storage catches up when the job runs
    expect((await t.call('GET', `/api/keys/${a.id}`)).json().status).toBe('expired')
    expect((await storedKey(t, a.id))?.status).toBe('active')

    const result = await t.app.linkd.scheduler.runNow('expire-keys')
    expect(result).toEqual({ ran: true, status: 'ok', summary: '2 keys expired' })
    expect((await storedKey(t, a.id))?.status).toBe('expired')
    expect((await storedKey(t, a.id))?.updated_at).toBe(t.clock.now())
    expect((await storedKey(t, b.id))?.status).toBe('expired')
    expect((await storedKey(t, c.id))?.status).toBe('revoked')
    expect((await storedKey(t, later.id))?.status).toBe('active')
    expect((await storedKey(t, never.id))?.status).toBe('active')

    // idempotent: a second run changes nothing
    expect(await t.app.linkd.scheduler.runNow('expire-keys')).toEqual({ ran: true, status: 'ok' })

    const expired = (await t.call('GET', '/api/keys?status=expired')).json()
    expect(expired.data.map((k: { id: string }) => k.id).sort()).toEqual([a.id, b.id].sort())
  })

  it('records its last run, visible in /health/ready', async () => {
    t = await createTestApp()
    const before = (await t.call('GET', '/health/ready', { key: null })).json()
    expect(before.jobs).toContainEqual({
      name: 'expire-keys',
      lastRunAt: null,
      lastStatus: null,
      lastError: null,
      lastDurationMs: null,
    })
    t.clock.advance(5000)
    await t.app.linkd.scheduler.runNow('expire-keys')
    const ready = await t.call('GET', '/health/ready', { key: null })
    expect(ready.statusCode).toBe(200)
    const job = ready.json().jobs.find((j: { name: string }) => j.name === 'expire-keys')
    expect(job).toMatchObject({
      name: 'expire-keys',
      lastRunAt: '2026-11-21T10:00:05.000Z',
      lastStatus: 'ok',
      lastError: null,
    })
    expect(Number.isInteger(job.lastDurationMs)).toBe(true)
    expect(ready.json().status).toBe('ok')
    const status = await t.app.linkd.scheduler.status()
    expect(status.find((j) => j.name === 'expire-keys')?.runCount).toBe(1)
  })

  it('a failing job is recorded as error and makes readiness degraded', async () => {
    t = await createTestApp()
    t.app.linkd.scheduler.register({
      name: 'always-fails',
      schedule: '0 * * * *',
      run: async () => {
        throw new Error('disk on fire')
      },
    })
    const result = await t.app.linkd.scheduler.runNow('always-fails')
    expect(result).toEqual({ ran: true, status: 'error', error: 'disk on fire' })
    const ready = await t.call('GET', '/health/ready', { key: null })
    expect(ready.statusCode).toBe(200)
    expect(ready.json().status).toBe('degraded')
    expect(ready.json().jobs).toContainEqual(
      expect.objectContaining({ name: 'always-fails', lastStatus: 'error', lastError: 'disk on fire' }),
    )
    // the lease was released: it can run again
    expect((await t.app.linkd.scheduler.runNow('always-fails')).ran).toBe(true)
  })
})

describe('other jobs', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('prune-idempotency drops records older than 24 h', async () => {
    t = await createTestApp()
    const idem = randomUUID()
    await t.call('POST', '/api/keys', { body: { name: 'once' }, headers: { 'x-idempotency-key': idem } })
    const count = async () =>
      (await t.db.kysely.selectFrom('idempotency_records').selectAll().execute()).length
    expect(await count()).toBe(1)
    expect(await t.app.linkd.scheduler.runNow('prune-idempotency')).toEqual({ ran: true, status: 'ok' })
    expect(await count()).toBe(1)
    t.clock.advance(DAY)
    expect(await t.app.linkd.scheduler.runNow('prune-idempotency')).toEqual({
      ran: true,
      status: 'ok',
      summary: '1 idempotency record pruned',
    })
    expect(await count()).toBe(0)
  })

  it('prune-key-activity drops activity older than 90 days', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'old activity', preset: 'full' })
    await t.call('GET', '/api/keys', { key: k.key })
    t.clock.advance(60 * DAY)
    await t.call('GET', '/api/keys', { key: k.key })
    await t.app.linkd.services.keys.usage.flush()
    t.clock.advance(30 * DAY + 1)
    const result = await t.app.linkd.scheduler.runNow('prune-key-activity')
    expect(result.status).toBe('ok')
    expect(result.summary).toMatch(/^[\d,]+ activity rows? pruned$/)
    const log = (await t.call('GET', `/api/keys/${k.id}/activity`)).json()
    expect(log.total).toBe(1)
    // the usage counters are not touched
    expect((await t.call('GET', `/api/keys/${k.id}`)).json().usage.totalRequests).toBe(2)
  })

  it('lists its jobs; unknown names and invalid schedules are refused', async () => {
    t = await createTestApp()
    expect(t.app.linkd.scheduler.names().sort()).toEqual(JOB_NAMES)
    await expect(t.app.linkd.scheduler.runNow('nope')).rejects.toThrow(/unknown job/)
    expect(() =>
      t.app.linkd.scheduler.register({ name: 'bad', schedule: 'every minute', run: async () => undefined }),
    ).toThrow(/invalid schedule/)
  })
})

describe('job leases', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('two schedulers on one database: only one runs a job while the lease is held', async () => {
    t = await createTestApp()
    const deps = { store: createJobStore(t.db.kysely), clock: t.clock, log: t.app.log }
    const a = createScheduler(deps)
    const b = createScheduler(deps)
    const gate = deferred()
    const started = deferred()
    let runs = 0
    const job = {
      name: 'shared',
      schedule: '* * * * *',
      run: async () => {
        runs++
        started.resolve()
        await gate.promise
        return 'done'
      },
    }
    a.register(job)
    b.register(job)

    const first = a.runNow('shared')
    await started.promise
    expect(await b.runNow('shared')).toEqual({ ran: false })
    expect(runs).toBe(1)
    gate.resolve()
    expect(await first).toEqual({ ran: true, status: 'ok', summary: 'done' })
    // released on finish: the other instance can take it now
    expect(await b.runNow('shared')).toEqual({ ran: true, status: 'ok', summary: 'done' })
    expect(runs).toBe(2)
    const status = await a.status()
    expect(status).toEqual([expect.objectContaining({ name: 'shared', lastStatus: 'ok', runCount: 2 })])
  })

  it('a lease left by a crashed instance expires after leaseMs', async () => {
    t = await createTestApp()
    const store = createJobStore(t.db.kysely)
    const now = t.clock.now()
    // instance "crashed" holds the lease for one minute
    expect(await store.acquire('cleanup', 'inst_crashed', now, now + 60_000)).toBe(true)
    const b = createScheduler({ store, clock: t.clock, log: t.app.log })
    let runs = 0
    b.register({ name: 'cleanup', schedule: '* * * * *', leaseMs: 60_000, run: async () => void runs++ })
    expect(await b.runNow('cleanup')).toEqual({ ran: false })
    t.clock.advance(59_999)
    expect(await b.runNow('cleanup')).toEqual({ ran: false })
    t.clock.advance(1)
    expect(await b.runNow('cleanup')).toEqual({ ran: true, status: 'ok' })
    expect(runs).toBe(1)
    // the crashed owner finishing late does not overwrite the record
    const before = await store.all()
    await store.finish('cleanup', 'inst_crashed', t.clock.now(), 'error', 'late', 1)
    expect(await store.all()).toEqual(before)
  })

  it('the lease store: the holder may renew, others wait', async () => {
    t = await createTestApp()
    const store = createJobStore(t.db.kysely)
    expect(await store.acquire('j', 'one', 1000, 5000)).toBe(true)
    expect(await store.acquire('j', 'two', 2000, 6000)).toBe(false)
    expect(await store.acquire('j', 'one', 2000, 7000)).toBe(true)
    expect(await store.acquire('j', 'two', 6999, 9000)).toBe(false)
    expect(await store.acquire('j', 'two', 7000, 9000)).toBe(true)
  })
})
