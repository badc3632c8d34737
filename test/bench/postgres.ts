/**
 * `npm run bench postgres`: the PostgreSQL engine against SQLite in the same run.
 * Redirects with click recording and gaming ingestion on SQLite (one process), on PostgreSQL with
 * one process and with two processes on one database; ingestion also against PostgreSQL's own
 * COPY of the same rows (psql's \copy). Every figure is a ratio against a baseline measured here.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import { prng } from '../support/prng.js'
import { startLinkd, type RunningLinkd } from '../support/processes.js'
import { admin, startPostgres, type PostgresServer } from '../support/postgres.js'
import { BATCH, makeBatches } from './gaming-ingestion.js'
import { fmt, report } from './lib.js'
import { line, load, type Measured } from './redirect.js'

const MASTER_KEY = 'a'.repeat(64)
const ENV = {
  LINKD_LOG_LEVEL: 'warn',
  LINKD_TRUST_PROXY: 'true',
  LINKD_SECRET_KEY: MASTER_KEY,
  LINKD_RATE_LIMIT_PER_IP: '1000000000',
  LINKD_RATE_LIMIT_REDIRECTS_PER_IP: '1000000000',
  LINKD_INGEST_RATE_LIMIT_PER_CLIENT: '1000000000',
  LINKD_INGEST_RATE_LIMIT_PER_GAME: '1000000000',
}

interface Setup {
  label: string
  /** The processes serving one database. */
  processes: RunningLinkd[]
  owner: string
  close(): Promise<void>
}

let databases = 0

/** `count` linkd processes on one new database: SQLite (count 1) or PostgreSQL. */
async function start(server: PostgresServer | null, count: number): Promise<Setup> {
  const dirs = Array.from({ length: count }, () => mkdtempSync(join(tmpdir(), 'linkd-bench-pg-')))
  let url: string | undefined
  if (server) {
    const name = `bench_${++databases}`
    await admin(server.urlOf(''), `CREATE DATABASE ${name}`)
    url = server.urlOf(name)
  }
  const env = { ...ENV, ...(url ? { LINKD_DATABASE_URL: url } : {}) }
  const first = await startLinkd(dirs[0]!, env)
  const processes = [first]
  for (const dir of dirs.slice(1)) processes.push(await startLinkd(dir, env))
  const owner = first.ownerKey()
  if (!owner) throw new Error(`no owner key printed:\n${first.output()}`)
  return {
    label: server ? `PostgreSQL, ${count} process${count > 1 ? 'es' : ''}` : 'SQLite, 1 process',
    processes,
    owner,
    async close() {
      await Promise.all(processes.map((p) => p.stop('SIGTERM')))
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
    },
  }
}

async function api(s: Setup, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${s.processes[0]!.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${s.owner}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
  return (await r.json()) as Record<string, unknown>
}

/** Redirects with recording, spread over the setup's processes (one load generator each). */
async function redirects(s: Setup): Promise<{ rps: number; measured: Measured[] }> {
  await api(s, 'POST', '/api/use/links', { destinationUrl: 'https://example.com/', customSlug: 'bench' })
  for (const p of s.processes) await load(`${p.url}/bench`, p.child.pid!, 3) // warm-up
  const measured = await Promise.all(s.processes.map((p) => load(`${p.url}/bench`, p.child.pid!)))
  return { rps: measured.reduce((a, m) => a + m.result.requests.average, 0), measured }
}

/**
 * Events per second over HTTP: 4 senders per process, each batch from its own address. One game
 * (its batches take turns on the game's lock), or with `gamePerProcess` one game per process.
 */
async function ingestion(
  s: Setup,
  batches: ReturnType<typeof makeBatches>,
  gamePerProcess = false,
): Promise<number> {
  const games = await Promise.all(
    (gamePerProcess ? s.processes : s.processes.slice(0, 1)).map(
      async (_, i) =>
        (await api(s, 'POST', '/api/v1/admin/games', { name: `Bench ${i}`, platform: 'android' })) as {
          id: string
          sdkKey: string
          organizationId: string
        },
    ),
  )
  const headersOf = (at: number) => {
    const game = games[gamePerProcess ? at : 0]!
    return {
      'content-type': 'application/json',
      authorization: `Bearer ${game.sdkKey}`,
      'x-game-id': game.id,
      'x-organization-id': game.organizationId,
    }
  }
  const rand = prng(3)
  const send = async (at: number, body: string) => {
    const n = Math.floor(rand() * 50_000)
    const r = await fetch(`${s.processes[at]!.url}/api/v1/gaming/events`, {
      method: 'POST',
      headers: {
        ...headersOf(at),
        'x-forwarded-for': `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`,
      },
      body,
    })
    const j = (await r.json()) as { accepted?: number }
    if (r.status !== 202 || j.accepted !== BATCH) throw new Error(`ingest: ${r.status} ${JSON.stringify(j)}`)
  }
  for (const [i] of s.processes.entries())
    for (const b of makeBatches(Date.now() - 1 - i, 1).slice(0, 5)) await send(i, JSON.stringify(b))
  const bodies = batches.map((b) => JSON.stringify(b))
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    s.processes.flatMap((_, i) =>
      Array.from({ length: 4 }, async () => {
        while (next < bodies.length) await send(i, bodies[next++]!)
      }),
    ),
  )
  return (bodies.length * BATCH) / ((performance.now() - t0) / 1000)
}

/** PostgreSQL's own rate for the same rows: psql's \copy into game_events of a fresh database. */
async function copyRate(server: PostgresServer, batches: ReturnType<typeof makeBatches>): Promise<number> {
  const name = `bench_copy_${++databases}`
  await admin(server.urlOf(''), `CREATE DATABASE ${name}`)
  const db = openDatabase(server.urlOf(name))
  await migrate(db, Date.now())
  await db.close()
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-copy-'))
  try {
    const csv = join(dir, 'events.csv')
    const now = Date.now()
    const quote = (v: string) => `"${v.replaceAll('"', '""')}"`
    const rows = batches.flatMap((b) =>
      b.events.map((e) =>
        [
          'g1',
          e.event_id,
          e.event_type,
          e.player_id,
          e.session_id,
          'android',
          Date.parse(String(e.timestamp)),
          now,
          b.batch_id,
          '',
          0,
          '',
          'DE',
          '127.0.0.1',
          '',
          'accept',
          quote(JSON.stringify(e.data)),
        ].join(','),
      ),
    )
    writeFileSync(csv, rows.join('\n') + '\n')
    const t0 = performance.now()
    execFileSync('psql', [
      server.urlOf(name),
      '-q',
      '-c',
      `\\copy game_events (game_id, event_id, event_type, player_id, session_id, platform, ts, received_at, batch_id, revenue_type, revenue_micros, currency, country, ip, device_fingerprint, verdict, data) FROM '${csv}' WITH (FORMAT csv, NULL '')`,
    ])
    return rows.length / ((performance.now() - t0) / 1000)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * `npm run bench postgres` runs everything; `npm run bench postgres ingestion` only the ingestion
 * figures (no redirects: minutes shorter, for a change to the ingestion's locks).
 */
export async function postgresBench(part?: string): Promise<void> {
  const withRedirects = part !== 'ingestion'
  const server = await startPostgres({ durable: true })
  try {
    const redirectRows: Array<[string, string]> = []
    const ingestRows: Array<[string, string]> = []
    const batches = makeBatches(Date.now(), 1)
    const figures: Record<string, { rps: number; eps: number }> = {}
    for (const [engine, count] of [
      [null, 1],
      [server, 1],
      [server, 2],
    ] as const) {
      const s = await start(engine, count)
      try {
        const r = withRedirects ? await redirects(s) : { rps: 0, measured: [] }
        const eps = await ingestion(s, batches)
        figures[s.label] = { rps: r.rps, eps }
        redirectRows.push([s.label, r.measured.map(line).join(' + ')])
        ingestRows.push([`${s.label}${count > 1 ? ', one game' : ''}`, `${fmt(eps / 1000, 1)}k events/s`])
        if (count > 1) {
          const apart = await ingestion(s, makeBatches(Date.now(), 1), true)
          ingestRows.push([
            `${s.label}, a game each`,
            `${fmt(apart / 1000, 1)}k events/s (${fmt(apart / figures['PostgreSQL, 1 process']!.eps, 2)}x one process)`,
          ])
        }
      } finally {
        await s.close()
      }
    }
    const copy = await copyRate(server, batches)
    const [lite, one, two] = Object.values(figures) as [
      { rps: number; eps: number },
      { rps: number; eps: number },
      { rps: number; eps: number },
    ]
    redirectRows.push([
      'ratios',
      `PostgreSQL/SQLite ${fmt(one.rps / lite.rps, 2)}x (target >= 0.5x); 2 processes/1 ${fmt(two.rps / one.rps, 2)}x (target >= 1.5x where the cores allow)`,
    ])
    ingestRows.push(['PostgreSQL COPY of the same rows (baseline)', `${fmt(copy / 1000, 1)}k events/s`])
    ingestRows.push([
      'ratios',
      `PostgreSQL/SQLite ${fmt(one.eps / lite.eps, 2)}x (target >= 0.5x); 2 processes/1 ${fmt(two.eps / one.eps, 2)}x; 1 process vs COPY ${fmt(one.eps / copy, 2)}x`,
    ])
    if (withRedirects)
      report('redirects with click recording: SQLite and PostgreSQL (same run, 2 cores)', redirectRows)
    report(`gaming ingestion (${batches.length} batches of ${BATCH}): SQLite and PostgreSQL`, ingestRows)
  } finally {
    await server.stop()
  }
}
