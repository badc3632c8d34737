/**
 * The returning-players case of `npm run bench gaming` (BENCH_GAMING_CASES=history): what a batch
 * costs for players with months of history against new players, in the same run. A mature game's
 * traffic is mostly players who came back: if a batch's cost grew with the days a player has
 * played, the players shape (mostly new players) would overstate what one process serves.
 * In-process (`app.inject`, a clock the bench moves a day at a time, the database in /dev/shm when
 * it exists: no fsync to wait for), CPU of the process per batch. Each player sends 16 ten-event
 * batches a day (a session start first): the first of a day is a new player-day, the rest add to
 * it. BENCH_HISTORY_DAYS (default 90) and BENCH_HISTORY_PLAYERS (default 300) size the history.
 */
import { getRandomValues, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../daemon/app.js'
import { loadConfig } from '../../daemon/config.js'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import { uuid } from '../../sdk/web/src/core.js'
import { fmt, median } from './lib.js'

const DAY = 86_400_000
const BATCHES_A_DAY = 16
const IN_FLIGHT = 16
const TYPES = ['level_start', 'level_complete', 'currency_earned', 'battle_won', 'item_used']
const UNLIMITED = '1000000000'

export async function historyBench(): Promise<Array<[string, string]>> {
  const days = Number(process.env.BENCH_HISTORY_DAYS ?? 90)
  const players = Number(process.env.BENCH_HISTORY_PLAYERS ?? 300)
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'linkd-bench-history-'))
  const env = {
    LINKD_RATE_LIMIT_PER_IP: UNLIMITED,
    LINKD_RATE_LIMIT_PER_ORG: UNLIMITED,
    LINKD_INGEST_RATE_LIMIT_PER_CLIENT: UNLIMITED,
    LINKD_INGEST_RATE_LIMIT_PER_GAME: UNLIMITED,
  }
  const config = loadConfig({ env, flags: { dataDir: dir, logLevel: 'silent', jobs: false } })
  const db = openDatabase(config.databaseUrl)
  let now = Date.parse('2026-01-01T12:00:00.000Z')
  try {
    await migrate(db, now)
    const app = await buildApp({ config, db, masterKey: randomBytes(32), clock: { now: () => now } })
    try {
      const { orgs, keys } = app.linkd.services
      const org = await orgs.create('bench')
      const owner = (await keys.createOwnerKey(org.id)).key
      const made = await app.inject({
        method: 'POST',
        url: '/api/v1/admin/games',
        headers: { authorization: `Bearer ${owner}` },
        payload: { name: 'History Bench', platform: 'web' },
      })
      const game = made.json<Record<string, string>>()
      const headers = {
        'content-type': 'application/json',
        authorization: `Bearer ${game.sdkKey}`,
        'x-game-id': game.id!,
        'x-organization-id': game.organizationId!,
      }
      const id = () => uuid((b) => getRandomValues(b), now)
      const send = async (player: string, first: boolean) => {
        const events = Array.from({ length: 10 }, (_, i) => ({
          event_id: id(),
          event_type: first && i === 0 ? 'session_start' : TYPES[i % TYPES.length],
          timestamp: new Date(now - (10 - i) * 100).toISOString(),
          player_id: player,
          session_id: `${player}-${Math.floor(now / DAY)}`,
          platform: 'web',
          data: { level: i },
        }))
        const payload = JSON.stringify({
          batch_id: id(),
          batch_timestamp: new Date(now).toISOString(),
          events,
        })
        const res = await app.inject({ method: 'POST', url: '/api/v1/gaming/events', headers, payload })
        if (res.statusCode !== 202) throw new Error(`ingestion: ${res.statusCode} ${res.body.slice(0, 300)}`)
      }
      const round = async (list: string[], first: boolean) => {
        for (let i = 0; i < list.length; i += IN_FLIGHT)
          await Promise.all(list.slice(i, i + IN_FLIGHT).map((p) => send(p, first)))
      }
      /** A day of `list`'s batches: µs of CPU a batch. */
      const day = async (list: string[]) => {
        const c0 = process.cpuUsage()
        for (let r = 0; r < BATCHES_A_DAY; r++) {
          await round(list, r === 0)
          now += 1_000
        }
        const c = process.cpuUsage(c0)
        now += DAY - BATCHES_A_DAY * 1_000
        return (c.user + c.system) / (list.length * BATCHES_A_DAY)
      }
      const returning = Array.from({ length: players }, (_, i) => `old-${i}`)
      const t0 = performance.now()
      for (let d = 0; d < days; d++) {
        await round(returning, true)
        now += DAY
      }
      const seedS = (performance.now() - t0) / 1000
      const fresh: number[] = []
      const old: number[] = []
      for (let k = 0; k < 3; k++) {
        fresh.push(await day(Array.from({ length: players }, (_, i) => `new-${k}-${i}`)))
        old.push(await day(returning))
      }
      const [a, b] = [median(fresh), median(old)]
      return [
        ['history', `${players} players x ${days} days, ${fmt(seedS, 0)} s`],
        ['new players (baseline)', `${fmt(a, 0)} µs of CPU a batch (median of 3 days)`],
        [`players with ${days}+ days`, `${fmt(b, 0)} µs a batch: ${fmt(b / a, 2)}x (goal <= 1.2x)`],
      ]
    } finally {
      await app.close()
    }
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
