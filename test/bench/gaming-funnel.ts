/**
 * `npm run bench gaming-funnel`: funnels over 1M players and 10M raw events of the last 30 days,
 * and retention with groupBy / returnEvent. The overview's data set (withAggregates in gaming.ts:
 * profiles, cohorts) gets raw events (each player: an install, sessions, level starts and
 * completions with a level, some purchases), game_cohort_dims, the player-days of the cohorts'
 * retention days and game_cohort_events from them. BENCH_GAMING_PLAYERS=100000 for a smaller run
 * (10 events a player either way).
 * The seeded database is kept in the temp directory and reused by the next run of the same size.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Kysely } from 'kysely'
import { CachingSqliteDialect } from '../../daemon/db/sqlite-dialect.js'
import { parseSteps } from '../../daemon/modules/gaming/analytics/funnel.js'
import { createFunnelStore } from '../../daemon/modules/gaming/storage/funnel-store.js'
import { TYPE_BIT } from '../../daemon/modules/gaming/storage/types.js'
import { fmt, median, percentile, report } from './lib.js'
import { prng } from '../support/prng.js'
import { COUNTRIES, PROFILE_VALUES, withAggregates, type AggregatesBench } from './gaming.js'

const DAY = 86_400_000
const MIN = 60_000
const OFFSETS = [0, 1, 3, 7, 14, 30]
type Type = 'app_install' | 'session_start' | 'level_start' | 'level_complete' | 'purchase'
/** The type's bit of game_player_days.event_types. */
const bitOf = (type: Type) => 2 ** TYPE_BIT.get(type)!

function fillRaw(b: AggregatesBench, players: number, days: number): number {
  const rand = prng(21)
  const today = Math.floor(b.now / DAY)
  const first = today - days + 1
  const gameId = b.game.internalId
  const insert = b.sqlite.prepare(
    `INSERT INTO game_events (game_id, event_id, event_type, player_id, session_id, platform, ts, received_at,
       batch_id, revenue_micros, verdict, data) VALUES (?, ?, ?, ?, ?, 'android', ?, ?, 'bench', 0, 'accept', ?)`,
  )
  const day = b.sqlite.prepare(
    `INSERT INTO game_player_days (game_id, player_id, day, install_day, events, revenue_micros, event_types)
     VALUES (?, ?, ?, ?, 1, 0, ?) ON CONFLICT (game_id, player_id, day) DO UPDATE SET event_types = event_types | excluded.event_types`,
  )
  let n = 0
  const batch = 50_000
  let pending: Array<() => void> = []
  const flush = b.sqlite.transaction((rows: Array<() => void>) => rows.forEach((run) => run()))
  for (let i = 0; i < players; i++) {
    const player = `player-${i}`
    const install = first + (i % days)
    let ts = install * DAY + Math.floor(rand() * (DAY - 60 * MIN))
    const add = (type: Type, data: string | null) => {
      const at = ts
      pending.push(() => {
        insert.run(gameId, randomUUID(), type, player, player, at, at, data)
        const d = Math.floor(at / DAY)
        if (OFFSETS.includes(d - install)) day.run(gameId, player, d, install, bitOf(type))
      })
      n++
    }
    add('app_install', null)
    for (let e = 0; e < 9 && ts < b.now - 10 * MIN; e++) {
      // Most next events within minutes, some days later (retention days and windows both cut).
      ts += rand() < 0.8 ? Math.floor(rand() * 20 * MIN) : Math.floor(rand() * 5 * DAY)
      if (ts > b.now) break
      const r = rand()
      if (r < 0.3) add('session_start', null)
      else if (r < 0.6) add('level_start', `{"level":${1 + Math.floor(rand() * 5)}}`)
      else if (r < 0.95) add('level_complete', `{"level":${1 + Math.floor(rand() * 5)}}`)
      else add('purchase', '{"amount":0.99,"currency":"USD"}')
    }
    if (pending.length >= batch) {
      flush(pending)
      pending = []
    }
  }
  flush(pending)
  // The cohorts per acquisition value the fold keeps (shares of the cohort cells).
  const cells = b.sqlite
    .prepare('SELECT install_day, day_offset, players FROM game_cohorts WHERE game_id = ?')
    .all(gameId) as Array<{ install_day: number; day_offset: number; players: number }>
  const dim = b.sqlite.prepare(
    'INSERT INTO game_cohort_dims (game_id, dim, install_day, day_offset, value, players) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const values = {
    platform: PROFILE_VALUES.platform,
    country: COUNTRIES,
    source: PROFILE_VALUES.source,
    campaign: PROFILE_VALUES.campaign,
    link: [''] as const,
  }
  b.sqlite.transaction(() => {
    for (const c of cells)
      for (const [name, list] of Object.entries(values)) {
        for (const v of list)
          dim.run(gameId, name, c.install_day, c.day_offset, v, Math.floor(c.players / list.length))
      }
  })()
  return n
}

/** The players back with each event type, per install day and offset: migration 0038's backfill. */
function fillCohortEvents(b: AggregatesBench): void {
  const file = join(import.meta.dirname, '../../daemon/db/migrations/0038_cohort_return_events.sql')
  const backfill = readFileSync(file, 'utf8')
    .split(/;\s*\n/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .find((s) => s.startsWith('INSERT INTO game_cohort_events'))!
  b.sqlite.exec(backfill)
}

/**
 * Median and p99 of `calls` calls (after 2 warm-ups) of GET url against the targets given, and the
 * median CPU time of the process per call (survives a loaded machine better than wall time).
 */
async function timed(b: AggregatesBench, url: string, calls: number, target: string): Promise<string> {
  const call = async () => {
    const s = performance.now()
    const cpu = process.cpuUsage()
    const res = await b.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${b.key}` } })
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`)
    const used = process.cpuUsage(cpu)
    return { wall: performance.now() - s, cpu: (used.user + used.system) / 1000 }
  }
  for (let i = 0; i < 2; i++) await call()
  const runs: Array<{ wall: number; cpu: number }> = []
  for (let i = 0; i < calls; i++) runs.push(await call())
  const times = runs.map((r) => r.wall)
  const cpu = median(runs.map((r) => r.cpu))
  return `median ${fmt(median(times))} ms, p99 ${fmt(percentile(times, 99))} ms, CPU ${fmt(cpu)} ms (target ${target})`
}

/** The event loop's longest delay (ms) while `run` runs, sampled every 10 ms. */
async function longestStall(run: () => Promise<unknown>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  // Its timer starts on the loop's next turn: without one, a funnel that holds the loop from
  // the start would go unseen.
  await new Promise((resolve) => setTimeout(resolve, 30))
  await run()
  // The sample that was due while the loop was held is taken on its next turn.
  await new Promise((resolve) => setTimeout(resolve, 30))
  delay.disable()
  return delay.max / 1e6
}

/**
 * The event loop while a funnel runs: through the API (read workers), against the same query run
 * on the daemon's connection, as funnels ran before the read workers (the baseline, same run).
 */
async function stalls(b: AggregatesBench, url: string, stepsText: string): Promise<string> {
  const viaApi = await longestStall(() =>
    b.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${b.key}` } }),
  )
  const store = createFunnelStore(new Kysely({ dialect: new CachingSqliteDialect(b.sqlite) }), 'sqlite')
  const end = (Math.floor(b.now / DAY) + 1) * DAY - 1
  const onLoop = await longestStall(() =>
    store.cells(b.game.internalId, parseSteps(stepsText), end + 1 - 30 * DAY, end, 7 * DAY, null),
  )
  return `${fmt(viaApi)} ms; the query on the event loop: ${fmt(onLoop)} ms (${fmt(viaApi / onLoop, 3)}×)`
}

/** Bump when fillRaw or the aggregates it builds on change: the cached seed is made again. */
const SEED_VERSION = 3

export async function gamingFunnelBench(): Promise<void> {
  const players = Number(process.env.BENCH_GAMING_PLAYERS ?? 1_000_000)
  const days = 30
  const file = join(tmpdir(), `linkd-bench-funnel-${players}-v${SEED_VERSION}.db`)
  const fill = (b: AggregatesBench) => {
    const t0 = performance.now()
    const events = fillRaw(b, players, days)
    const t1 = performance.now()
    fillCohortEvents(b)
    return { events, loadS: (t1 - t0) / 1000, backfillS: (performance.now() - t1) / 1000 }
  }
  const rows = await withAggregates(
    players,
    days,
    async (b, seeded, cached) => {
      const { events, loadS, backfillS } = seeded!
      const out: Array<[string, string]> = [
        [
          `load ${fmt(events / 1e6, 1)}M raw events of ${fmt(players / 1e6, 1)}M players, 30 days`,
          cached ? `cached (${file}; ${fmt(loadS, 1)} s to make)` : `${fmt(loadS, 1)} s`,
        ],
        ['backfill game_cohort_events (migration 0038)', `${fmt(backfillS, 1)} s`],
      ]
      const steps = 'app_install,session_start,level_complete:level=3,purchase'
      const funnel = `/api/v1/gaming/analytics/funnel?gameId=${b.game.id}&steps=${steps}&window=7d`
      out.push(['funnel, 4 steps (one condition), 30 days', await timed(b, funnel, 10, '<= 2000 / 4000 ms')])
      out.push(['event loop: longest stall during that funnel', await stalls(b, funnel, steps)])
      out.push([
        'funnel, 4 steps, groupBy country',
        await timed(b, `${funnel}&groupBy=country`, 10, '<= 3000 ms'),
      ])
      const retention = `/api/v1/analytics/games/${b.game.id}/retention`
      for (const q of [
        'groupBy=country',
        'groupBy=source',
        'returnEvent=level_complete',
        'groupBy=platform&returnEvent=purchase',
      ])
        out.push([`retention ${q}`, await timed(b, `${retention}?${q}`, 20, '<= 50 ms')])
      return out
    },
    { file, fill },
  )
  report('gaming funnels and retention breakdowns, 1M players, 10M raw events', rows)
}
