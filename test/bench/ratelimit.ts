/**
 * `npm run bench ratelimit`: the cost per request of the quotas shared across linkd processes:
 * the PostgreSQL counter (http/rate-limit-store.ts, one upsert … RETURNING per hit)
 * against the in-process memory store, in the same run; the floor of any database round trip
 * (SELECT 1 on the same pool) as the baseline; a key + organization pair counted in one statement
 * (`hitTiers`, what an authenticated request costs); and whole authenticated API requests with
 * either store. Starts a throwaway PostgreSQL
 * (Debian's postgresql package, as `npm run test:pg`).
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { buildApp } from '../../daemon/app.js'
import { loadConfig } from '../../daemon/config.js'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase, type PostgresDb } from '../../daemon/db/open.js'
import {
  createMemoryRateLimitStore,
  inProcessQuotas,
  type RateLimitStore,
} from '../../daemon/http/rate-limit.js'
import { createDatabaseRateLimitStore } from '../../daemon/http/rate-limit-store.js'
import { startPostgres } from '../support/postgres.js'
import { percentile, report } from './lib.js'

const HITS = Number(process.env.BENCH_RATELIMIT_HITS ?? 5000)
const REQUESTS = Number(process.env.BENCH_RATELIMIT_REQUESTS ?? 2000)
const CONCURRENCY = 8

/** Microseconds per call, one at a time (latency), with p50 / p99. */
async function sequential(call: (i: number) => Promise<unknown>, n: number) {
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    await call(i)
    times.push((performance.now() - t0) * 1000)
  }
  const mean = times.reduce((a, b) => a + b, 0) / n
  return { mean, p50: percentile(times, 50), p99: percentile(times, 99) }
}

/** Calls per second with `CONCURRENCY` in flight (throughput of one process). */
async function concurrent(call: (i: number) => Promise<unknown>, n: number): Promise<number> {
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await call(next++)
    }),
  )
  return n / ((performance.now() - t0) / 1000)
}

const us = (x: number) => `${x.toFixed(1)} µs`
const line = (s: { mean: number; p50: number; p99: number }) =>
  `${us(s.mean)} mean, ${us(s.p50)} p50, ${us(s.p99)} p99`

async function apiRequestCost(db: PostgresDb, limiter: RateLimitStore | undefined) {
  const config = loadConfig({
    env: {},
    flags: {
      dataDir: '/nonexistent-bench',
      databaseUrl: 'postgres://unused',
      logLevel: 'silent',
      acmeDirectory: 'off',
    },
  })
  const app = await buildApp({ config, db, masterKey: randomBytes(32), ...(limiter ? { limiter } : {}) })
  const org = await app.linkd.services.orgs.create(`bench-${randomBytes(4).toString('hex')}`)
  const key = (await app.linkd.services.keys.createOwnerKey(org.id)).key
  const call = () =>
    app.inject({ method: 'GET', url: '/api/keys?limit=1', headers: { authorization: `Bearer ${key}` } })
  for (let i = 0; i < 200; i++) await call() // warm-up
  const latency = await sequential(call, REQUESTS)
  const throughput = await concurrent(call, REQUESTS)
  await app.close()
  return { latency, throughput }
}

export async function rateLimitBench(): Promise<void> {
  const server = await startPostgres()
  const admin = new pg.Client({ connectionString: server.urlOf('postgres') })
  await admin.connect()
  await admin.query('CREATE DATABASE bench')
  await admin.end()
  const db = openDatabase(server.urlOf('bench')) as PostgresDb
  try {
    await migrate(db, Date.now())
    const shared = createDatabaseRateLimitStore(db.pool)
    const memory = inProcessQuotas(createMemoryRateLimitStore())
    const now = Date.now()
    for (let i = 0; i < 500; i++) await shared.hit(`warm:${i % 10}`, 60_000, now)

    const memoryHit = await sequential((i) => memory.hit(`key:${i % 100}`, 60_000, now), HITS * 10)
    const roundTrip = await sequential(() => db.pool.query('SELECT 1'), HITS)
    const sharedHit = await sequential((i) => shared.hit(`key:${i % 100}`, 60_000, now), HITS)
    const hotHit = await sequential(() => shared.hit('key:hot', 60_000, now), HITS)
    const pair = (i: number) => [
      { bucket: `key:${i % 100}`, windowMs: 60_000, limit: Number.MAX_SAFE_INTEGER },
      { bucket: `org:${i % 10}`, windowMs: 60_000, limit: Number.MAX_SAFE_INTEGER },
    ]
    const pairHit = await sequential((i) => shared.hitTiers(pair(i), now), HITS)
    const sharedRate = await concurrent((i) => shared.hit(`key:${i % 100}`, 60_000, now), HITS)
    const hotRate = await concurrent(() => shared.hit('key:hot', 60_000, now), HITS)
    const memoryRate = await concurrent((i) => memory.hit(`key:${i % 100}`, 60_000, now), HITS * 10)
    report('ratelimit: one hit of a quota counter', [
      ['memory store (this process)', line(memoryHit)],
      ['PostgreSQL round trip (SELECT 1, baseline)', line(roundTrip)],
      ['PostgreSQL counter, 100 buckets', line(sharedHit)],
      ['PostgreSQL counter, one hot bucket', line(hotHit)],
      ['PostgreSQL key + org pair, one statement', line(pairHit)],
      ['counter cost over the round trip', `${(sharedHit.mean / roundTrip.mean).toFixed(2)}× SELECT 1`],
      [`hits/s, ${CONCURRENCY} in flight: memory`, `${Math.round(memoryRate)}`],
      [`hits/s, ${CONCURRENCY} in flight: PostgreSQL, 100 buckets`, `${Math.round(sharedRate)}`],
      [`hits/s, ${CONCURRENCY} in flight: PostgreSQL, one bucket`, `${Math.round(hotRate)}`],
    ])

    const withMemory = await apiRequestCost(db, inProcessQuotas(createMemoryRateLimitStore()))
    const withShared = await apiRequestCost(db, undefined)
    report(
      'ratelimit: an authenticated API request (GET /api/keys, key + organization windows, one statement)',
      [
        ['quotas in memory', `${line(withMemory.latency)}; ${Math.round(withMemory.throughput)} req/s`],
        ['quotas in PostgreSQL', `${line(withShared.latency)}; ${Math.round(withShared.throughput)} req/s`],
        ['added per request', us(withShared.latency.mean - withMemory.latency.mean)],
        [
          'throughput ratio',
          `${(withShared.throughput / withMemory.throughput).toFixed(2)}× the memory store`,
        ],
      ],
    )
  } finally {
    await db.close()
    await server.stop()
  }
}
