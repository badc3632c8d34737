/**
 * The players shape of `npm run bench gaming`: what the web SDK sends by default (a batch of 10
 * events of one player every 5 s), from 1,000 client addresses (127.1.x.y on loopback, one undici
 * Agent each), 64 requests in flight. Measured in the same run against bare Fastify accepting the
 * same POST and raw better-sqlite3 inserting the same rows, so the ratios hold on a noisy machine:
 * - accepted batches/s (closed loop; goal >= 0.5x min(bare Fastify, raw SQLite));
 * - p99 of a 202 at half that rate (open loop; goal <= 250 ms);
 * - the redirect p99 during an ingestion flood against its idle p99 (goal <= 2x), and at half rate;
 * - what explains a slow run: linkd's young GCs in the flood (--trace-gc-nvp) and the p99 of its
 *   groups' write and sync at half the rate (/metrics).
 * BENCH_PLAYERS_SECONDS (default 10) sets each closed-loop phase; BENCH_PLAYERS_ENGINE=postgres
 * runs linkd on a PostgreSQL server of its own (durable: fsync and synchronous_commit on), with
 * BENCH_PLAYERS_PROCESSES linkd processes (default 1) sharing the load. BENCH_LINKD_FLAGS adds
 * node flags to linkd (e.g. `--max-semi-space-size=64`, to compare GC settings in one sitting).
 */
import { spawn } from 'node:child_process'
import { getRandomValues, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import { root, startLinkd, type RunningLinkd } from '../support/processes.js'
import { admin, startPostgres } from '../support/postgres.js'
import { uuid } from '../../sdk/web/src/core.js'
import { cpuMs, diskWrites, fmt, freePort, median, percentile, spawnUntilReady, stop } from './lib.js'

const ADDRESSES = 1_000
const IN_FLIGHT = 64
const EVENTS = 10
/** Players sending in turn: at 5,000 batches/s each one sends every 4 s, as the SDK's 5 s flush. */
const PLAYERS = 20_000
const SECONDS = Number(process.env.BENCH_PLAYERS_SECONDS ?? 10)
const TYPES = ['level_start', 'level_complete', 'currency_earned', 'battle_won', 'item_used']
const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'

/** One Agent per client address: 127.1.x.y, x and y in 1-250 (the whole 127/8 is loopback). */
function clientAgents(): Agent[] {
  return Array.from(
    { length: ADDRESSES },
    (_, i) =>
      new Agent({
        localAddress: `127.1.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`,
        connections: 4,
        keepAliveTimeout: 30_000,
      }),
  )
}

/**
 * Event and batch ids: as the web SDK makes them (default), random v4 UUIDs (`v4`), or a counter
 * (`seq`, the best case for the indexes): BENCH_GAMING_IDS.
 */
function idMaker(): () => string {
  const kind = process.env.BENCH_GAMING_IDS ?? 'sdk'
  let seq = 0
  if (kind === 'seq') return () => `00000000-0000-4000-8000-${(seq++).toString(16).padStart(12, '0')}`
  if (kind === 'v4') return () => randomUUID()
  return () => uuid((b) => getRandomValues(b), Date.now())
}

/** The batches of the SDK: player p's n-th batch, 10 events within its last 5 s. */
function batchMaker() {
  const id = idMaker()
  const sent = new Map<number, number>()
  return (player: number) => {
    const n = sent.get(player) ?? 0
    sent.set(player, n + 1)
    const now = Date.now()
    const events = Array.from({ length: EVENTS }, (_, i) => ({
      event_id: id(),
      event_type: n === 0 && i === 0 ? 'session_start' : TYPES[(n + i) % TYPES.length],
      timestamp: new Date(now - (EVENTS - i) * 500).toISOString(),
      player_id: `player-${player}`,
      session_id: `player-${player}-s`,
      platform: 'web',
      data: { level: (n + i) % 50 },
    }))
    return { batch_id: id(), batch_timestamp: new Date(now).toISOString(), events }
  }
}

interface Target {
  /** Where batches go: several processes share them, each address sticking to one. */
  urls: string[]
  headers: Record<string, string>
}

interface Drive {
  accepted: number
  refused: number
  other: number
  /** ms of each 202. */
  latencies: number[]
  seconds: number
  firstError?: string
}

/** Sends player batches in turn (player k % PLAYERS, from address player % 1,000). */
function sender(target: Target, agents: Agent[]) {
  const make = batchMaker()
  let next = 0
  return async (out: Drive, scheduled = performance.now()) => {
    const player = next++ % PLAYERS
    const body = JSON.stringify(make(player))
    try {
      const address = player % ADDRESSES
      const res = await request(target.urls[address % target.urls.length]!, {
        method: 'POST',
        headers: target.headers,
        body,
        dispatcher: agents[address]!,
      })
      const text = await res.body.text()
      if (res.statusCode === 202) {
        out.accepted++
        out.latencies.push(performance.now() - scheduled)
      } else if (res.statusCode === 503) out.refused++
      else {
        out.other++
        out.firstError ??= `${res.statusCode} ${text.slice(0, 300)}`
      }
    } catch (err) {
      out.other++
      out.firstError ??= String(err)
    }
  }
}

const empty = (): Drive => ({ accepted: 0, refused: 0, other: 0, latencies: [], seconds: 0 })

/** Closed loop: IN_FLIGHT requests at all times for `seconds`. */
async function closedLoop(send: ReturnType<typeof sender>, seconds: number): Promise<Drive> {
  const out = empty()
  const t0 = performance.now()
  const end = t0 + seconds * 1000
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) await send(out)
    }),
  )
  out.seconds = (performance.now() - t0) / 1000
  return out
}

/** Open loop: `rate` batches a second whatever the answers, latency from the scheduled start. */
async function openLoop(send: ReturnType<typeof sender>, rate: number, seconds: number): Promise<Drive> {
  const out = empty()
  const t0 = performance.now()
  const pending: Promise<void>[] = []
  let issued = 0
  while (performance.now() - t0 < seconds * 1000) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate)
    for (; issued < due; issued++) pending.push(send(out, t0 + (issued * 1000) / rate))
    await new Promise((r) => setTimeout(r, 2))
  }
  await Promise.all(pending)
  out.seconds = (performance.now() - t0) / 1000
  return out
}

/**
 * Redirect latencies (ms) of one human visitor clicking `url` every 5 ms for `seconds`, measured
 * by a process of its own (the bench's event loop, busy sending batches, would add its delays);
 * its first second warms the connection and the code up and is not counted.
 */
async function redirectProbe(url: string, seconds: number): Promise<number[]> {
  const script = `
    import { Agent, request } from 'undici'
    const agent = new Agent({ localAddress: '127.0.0.2', connections: 1 })
    const times = []
    const start = performance.now() + 1000
    const end = start + ${seconds * 1000}
    while (performance.now() < end) {
      const t = performance.now()
      const res = await request(${JSON.stringify(url)}, {
        headers: { 'user-agent': ${JSON.stringify(UA)}, accept: 'text/html' },
        dispatcher: agent,
      })
      await res.body.dump()
      if (res.statusCode !== 302) throw new Error('redirect probe: ' + res.statusCode)
      if (t >= start) times.push(performance.now() - t)
      await new Promise((r) => setTimeout(r, 5))
    }
    await agent.close()
    process.stdout.write(JSON.stringify(times))`
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  const code = await new Promise<number | null>((r) => child.once('exit', r))
  if (code !== 0) throw new Error(`redirect probe exited ${code}`)
  return JSON.parse(out) as number[]
}

/** The group commit's figures so far, from /metrics: groups, batches a group, write and sync ms. */
async function groupFigures(url: string): Promise<string | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
  const groups = value('linkd_ingest_group_batches_count')
  if (!groups) return undefined
  const per = (name: string) => fmt((value(`${name}_sum`) / value(`${name}_count`)) * 1000, 1)
  return `${groups} groups, ${fmt(value('linkd_ingest_group_batches_sum') / groups, 1)} batches each; write ${per('linkd_ingest_group_write_seconds')} ms, sync ${per('linkd_ingest_group_sync_seconds')} ms (means)`
}

/**
 * The bound under which 99 % of what a /metrics histogram observed between two readings falls
 * (ms; its bucket bounds): where a slow run's 202s waited, the group's write or its sync.
 */
function histogramP99(before: string, after: string, name: string): string {
  const buckets = (text: string) =>
    [...text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\S+)$`, 'gm'))].map(
      (m) => [m[1]!, Number(m[2])] as const,
    )
  const was = new Map(buckets(before))
  const now = buckets(after).map(([le, n]) => [le, n - (was.get(le) ?? 0)] as const)
  const total = now.at(-1)?.[1] ?? 0
  const le = now.find(([, n]) => n >= total * 0.99)?.[0]
  return !total || le === undefined ? '-' : le === '+Inf' ? '> 10 s' : `<= ${fmt(Number(le) * 1000, 0)} ms`
}

/**
 * The young-generation GCs (scavenges) in linkd's --trace-gc-nvp output: how often per batch
 * (what a batch allocates), how much each kept (survived or promoted: what is alive, mostly the
 * batches in flight) and their pauses (what a redirect waits behind).
 */
function scavenges(nvp: string, batches: number): string {
  const rows = [...nvp.matchAll(/ms: pause=([\d.]+) .*?gc=s .*?promoted=(\d+) new_space_survived=(\d+)/g)]
  if (!rows.length) return 'none seen'
  const pauses = rows.map((m) => Number(m[1]))
  const kept = rows.reduce((n, m) => n + Number(m[2]) + Number(m[3]), 0) / rows.length
  return `${fmt((rows.length / batches) * 1000, 1)} per 1,000 batches, ${fmt(kept / 1024, 0)} KB kept each; pause p50 ${fmt(median(pauses))} ms, p99 ${fmt(percentile(pauses, 99))} ms`
}

/** Raw better-sqlite3 inserts of the same rows: 1,000 batches per transaction, WAL, NORMAL. */
async function rawBatches(batches: number): Promise<{ rate: number; cpuUs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-players-raw-'))
  const db = openDatabase(`sqlite:${join(dir, 'raw.db')}`)
  try {
    await migrate(db, Date.now())
    db.sqlite.pragma('synchronous = NORMAL')
    const ins = db.sqlite.prepare(
      `INSERT INTO game_events (game_id, event_id, event_type, player_id, session_id, platform, ts, received_at,
         batch_id, revenue_type, revenue_micros, currency, country, ip, device_fingerprint, verdict, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)
       ON CONFLICT (game_id, event_id) DO NOTHING`,
    )
    const make = batchMaker()
    const all = Array.from({ length: batches }, (_, i) => make(i % PLAYERS))
    const tx = db.sqlite.transaction((group: typeof all) => {
      for (const b of group)
        for (const e of b.events)
          // prettier-ignore
          ins.run('gam_bench', e.event_id, e.event_type, e.player_id, e.session_id, e.platform,
            Date.parse(e.timestamp), Date.now(), b.batch_id, null, 0, null, 'DE', '127.1.1.1', 'accept',
            JSON.stringify(e.data))
    })
    const t0 = performance.now()
    const c0 = process.cpuUsage()
    for (let i = 0; i < all.length; i += 1000) tx(all.slice(i, i + 1000))
    const c = process.cpuUsage(c0)
    return { rate: batches / ((performance.now() - t0) / 1000), cpuUs: (c.user + c.system) / batches }
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const ENV = {
  LINKD_LOG_LEVEL: 'warn',
  // A game of ~20,000 players at 12 batches a minute each (docs/performance.md, sizing).
  LINKD_INGEST_RATE_LIMIT_PER_GAME: '1000000',
}

/** The players shape against bare Fastify and raw SQLite, with the redirect probe. */
export async function playersBench(): Promise<Array<[string, string]>> {
  const agents = clientAgents()
  try {
    // Bare Fastify: the same POST, JSON parsed, 202.
    const port = await freePort()
    const bare = await spawnUntilReady(
      process.execPath,
      [join(root, 'test/bench/bare-fastify.js')],
      `http://127.0.0.1:${port}/health`,
      { ...process.env, PORT: String(port) },
    )
    let bareRun: Drive
    let bareCpu = 0
    try {
      const target = {
        urls: [`http://127.0.0.1:${port}/events`],
        headers: { 'content-type': 'application/json' },
      }
      await closedLoop(sender(target, agents), 2)
      const c0 = cpuMs(bare.child.pid!)
      bareRun = await closedLoop(sender(target, agents), SECONDS)
      bareCpu = ((cpuMs(bare.child.pid!) - c0) * 1000) / bareRun.accepted
    } finally {
      await stop(bare.child)
    }
    const bareRate = bareRun.accepted / bareRun.seconds
    const { rate: rawRate, cpuUs: rawCpu } = await rawBatches(50_000)

    const onPostgres = process.env.BENCH_PLAYERS_ENGINE === 'postgres'
    const server = onPostgres ? await startPostgres({ durable: true }) : undefined
    const count = onPostgres ? Number(process.env.BENCH_PLAYERS_PROCESSES ?? 1) : 1
    const dirs = Array.from({ length: count }, () => mkdtempSync(join(tmpdir(), 'linkd-bench-players-')))
    const engine = onPostgres ? `PostgreSQL, ${count} process${count > 1 ? 'es' : ''}` : 'SQLite'
    const prof = process.env.BENCH_GAMING_PROF
    let database: Record<string, string> = {}
    if (server) {
      await admin(server.urlOf(''), 'CREATE DATABASE players')
      database = { LINKD_DATABASE_URL: server.urlOf('players'), LINKD_SECRET_KEY: 'a'.repeat(64) }
    }
    const daemons: RunningLinkd[] = []
    for (const dir of dirs)
      daemons.push(
        await startLinkd(dir, { ...ENV, ...database }, [
          '--trace-gc-nvp',
          ...(process.env.BENCH_LINKD_FLAGS ?? '').split(' ').filter(Boolean),
          ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []),
        ]),
      )
    const linkd = daemons[0]!
    try {
      const owner = linkd.ownerKey()!
      const post = async (path: string, body: unknown) => {
        const r = await fetch(`${linkd.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
        if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`)
        return r.json() as Promise<Record<string, string>>
      }
      const game = await post('/api/v1/admin/games', { name: 'Players Bench', platform: 'web' })
      const link = await post('/api/use/links', { destinationUrl: 'https://example.com/landing' })
      const target = {
        urls: daemons.map((d) => `${d.url}/api/v1/gaming/events`),
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${game.sdkKey!}`,
          'x-game-id': game.id!,
          'x-organization-id': game.organizationId!,
        },
      }
      const send = sender(target, agents)
      const redirectUrl = `${linkd.url}/${link.shortCode!}`
      const idle = await redirectProbe(redirectUrl, 4)
      await closedLoop(send, 2) // warm-up
      const cpu0 = daemons.reduce((n, d) => n + cpuMs(d.child.pid!), 0)
      const main0 = daemons.reduce((n, d) => n + cpuMs(d.child.pid!, d.child.pid), 0)
      const disk0 = daemons.reduce((n, d) => n + diskWrites(d.child.pid!), 0)
      const gc0 = linkd.output().length
      const [flood, during] = await Promise.all([
        closedLoop(send, SECONDS),
        redirectProbe(redirectUrl, SECONDS - 2),
      ])
      const cpu = daemons.reduce((n, d) => n + cpuMs(d.child.pid!), 0) - cpu0
      const mainCpu = daemons.reduce((n, d) => n + cpuMs(d.child.pid!, d.child.pid), 0) - main0
      const disk = daemons.reduce((n, d) => n + diskWrites(d.child.pid!), 0) - disk0
      if (flood.other) throw new Error(`ingestion: ${flood.other} failed, first: ${flood.firstError}`)
      const rate = flood.accepted / flood.seconds
      const gc = scavenges(linkd.output().slice(gc0), flood.accepted)
      const groups = await groupFigures(linkd.url)
      const metrics0 = await (await fetch(`${linkd.url}/metrics`)).text()
      const [half, duringHalf] = await Promise.all([
        openLoop(send, rate / 2, SECONDS),
        redirectProbe(redirectUrl, SECONDS - 2),
      ])
      const metrics1 = await (await fetch(`${linkd.url}/metrics`)).text()
      const base = Math.min(bareRate, rawRate)
      const p99 = (xs: number[]) => fmt(percentile(xs, 99))
      return [
        [
          'bare Fastify, same POST',
          `${fmt(bareRate, 0)} batches/s, p99 ${p99(bareRun.latencies)} ms, ${fmt(bareCpu, 0)} µs of CPU each`,
        ],
        [
          'raw better-sqlite3, same rows',
          `${fmt(rawRate, 0)} batches/s (1,000 batches a transaction), ${fmt(rawCpu, 0)} µs of CPU each`,
        ],
        [
          `linkd (${engine}), ${IN_FLIGHT} in flight`,
          `${fmt(rate, 0)} batches/s accepted, ${flood.refused} refused (503); p50 ${fmt(median(flood.latencies))} ms, p99 ${p99(flood.latencies)} ms`,
        ],
        ['  ratio to min(bare, raw)', `${fmt(rate / base, 2)}x (goal >= 0.5x)`],
        [
          // What one process would reach doing only the HTTP request and the inserts, on the
          // share of the machine linkd got in this run.
          '  ceiling: HTTP + inserts alone',
          `${fmt(bareCpu + rawCpu, 0)} µs a batch: ${fmt(((cpu / flood.accepted) * rate) / ((bareCpu + rawCpu) / 1000) / base, 2)}x at linkd's share of the CPU`,
        ],
        [
          '  linkd CPU per batch',
          `${fmt((cpu * 1000) / flood.accepted, 0)} µs (${fmt(cpu / 10 / flood.seconds, 0)} % of a core); main thread ${fmt((mainCpu * 1000) / flood.accepted, 0)} µs`,
        ],
        // The log and the checkpoints (the database file): what a group's pages cost the disk.
        ['  disk writes per batch', `${fmt(disk / 1024 / flood.accepted, 1)} KB`],
        ...(groups ? [['  groups (SQLite group commit)', groups] as [string, string]] : []),
        ['  young GCs', gc],
        ['  players at a 5 s flush', `~${fmt((rate * 5) / 1000, 1)}k`],
        [
          `linkd at half that rate (${fmt(rate / 2, 0)}/s, open loop)`,
          `p50 ${fmt(median(half.latencies))} ms, p99 ${p99(half.latencies)} ms (goal <= 250 ms); ${half.refused} refused, ${half.other} failed`,
        ],
        ...(groups
          ? [
              [
                // A slow run's 202s: long group writes (CPU the process did not get) or slow syncs.
                '  groups at half the rate, p99',
                `write ${histogramP99(metrics0, metrics1, 'linkd_ingest_group_write_seconds')}, sync ${histogramP99(metrics0, metrics1, 'linkd_ingest_group_sync_seconds')}`,
              ] as [string, string],
            ]
          : []),
        [
          'redirect p99 idle / during the flood',
          `${p99(idle)} ms / ${p99(during)} ms = ${fmt(percentile(during, 99) / percentile(idle, 99), 2)}x (goal <= 2x)`,
        ],
        [
          '  at half the rate',
          `${p99(duringHalf)} ms = ${fmt(percentile(duringHalf, 99) / percentile(idle, 99), 2)}x`,
        ],
      ]
    } finally {
      for (const d of daemons) await d.stop('SIGTERM')
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
      await server?.stop()
    }
  } finally {
    await Promise.all(agents.map((a) => a.close()))
  }
}
