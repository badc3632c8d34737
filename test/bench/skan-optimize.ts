/**
 * `npm run bench skan-optimize`: the SKAN schema optimizer on 1M installed
 * players (60 install days; player-days generated directly: the install day, half the players
 * back on day 1, a third on day 2, some later outside the window; 5 % payers with heavy-tailed
 * amounts). Timed: the history read (storage's firstWindowHistory), the pure optimizer, and the
 * whole route over inject. Baseline in the same run: one raw query reading the same rows.
 * BENCH_SKAN_PLAYERS=100000 for a smaller run.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../daemon/app.js'
import { loadConfig } from '../../daemon/config.js'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import { EVENT_TYPE_BY_BIT } from '../../daemon/modules/gaming/storage/types.js'
import { optimize } from '../../daemon/modules/gaming/skan/optimize.js'
import { prng } from '../support/prng.js'
import { fmt, median, report } from './lib.js'

const DAY = 86_400_000
const INSTALL_DAYS = 60
const bit = (type: string) => 2 ** EVENT_TYPE_BY_BIT.indexOf(type)

function fill(
  sqlite: ReturnType<typeof openDatabase>['sqlite'],
  gameId: string,
  players: number,
  today: number,
) {
  const rand = prng(14)
  const insert = sqlite.prepare(
    `INSERT INTO game_player_days (game_id, player_id, day, install_day, events, revenue_micros, event_types)
     VALUES (?, ?, ?, ?, 5, ?, ?)`,
  )
  const first = today - INSTALL_DAYS - 3
  let rows = 0
  sqlite.transaction(() => {
    for (let p = 0; p < players; p++) {
      const install = first + (p % INSTALL_DAYS)
      const payer = rand() < 0.05
      const tutorial = rand() < (payer ? 0.8 : 0.4) ? bit('tutorial_complete') : 0
      const won = rand() < (payer ? 0.6 : 0.2) ? bit('battle_won') : 0
      const base = bit('session_start') | bit('app_install')
      const amount = () => (payer ? Math.floor(990_000 / (rand() + 0.02)) : 0)
      insert.run(gameId, `player-${p}`, install, install, amount(), base | tutorial)
      rows++
      for (const [offset, chance] of [
        [1, 0.5],
        [2, 0.33],
        [5, 0.4],
      ] as const)
        if (rand() < chance) {
          insert.run(gameId, `player-${p}`, install + offset, install, amount(), bit('session_start') | won)
          rows++
        }
    }
  })()
  return rows
}

export async function skanOptimizeBench(): Promise<void> {
  const players = Number(process.env.BENCH_SKAN_PLAYERS ?? 1_000_000)
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-skan-'))
  const config = loadConfig({ env: {}, flags: { dataDir: dir, logLevel: 'silent', jobs: false } })
  const db = openDatabase(config.databaseUrl)
  const out: Array<[string, string]> = []
  try {
    await migrate(db, Date.now())
    const app = await buildApp({ config, db, masterKey: randomBytes(32) })
    try {
      const { orgs, keys } = app.linkd.services
      const { games, storage, skan } = app.linkd.services.gaming
      const org = await orgs.create('bench')
      const key = (await keys.createOwnerKey(org.id)).key
      const game = await games.create(org.id, {
        name: 'SKAN Bench',
        platform: 'ios',
        modules: { skan: true },
      })
      const internalId = (await games.record(org.id, game.id)).id
      const campaign = await skan.create(org.id, game.id, {
        name: 'bench',
        adNetworkId: 'bench.skadnetwork',
        lockWindowHours: 24,
        conversionSchema: { events: { tutorial_complete: 1 } },
      })
      const today = Math.floor(Date.now() / DAY)
      let t0 = performance.now()
      const rows = fill(db.sqlite, internalId, players, today)
      out.push([
        `load ${fmt(players / 1e6, 1)}M players (${fmt(rows / 1e6, 2)}M player-days)`,
        `${fmt((performance.now() - t0) / 1000, 1)} s`,
      ])

      const raw = db.sqlite.prepare(
        'SELECT revenue_micros, event_types FROM game_player_days WHERE game_id = ? AND day <= install_day + 2',
      )
      const times = { raw: [] as number[], read: [] as number[], pure: [] as number[], route: [] as number[] }
      let revenueMicros: number[] = []
      let eventTypes: number[] = []
      for (let run = 0; run < 3; run++) {
        t0 = performance.now()
        let sum = 0
        for (const r of raw.iterate(internalId) as Iterable<{ revenue_micros: number; event_types: number }>)
          sum += r.revenue_micros + r.event_types
        times.raw.push(performance.now() - t0)
        if (sum < 0) throw new Error('unreachable')

        t0 = performance.now()
        revenueMicros = []
        eventTypes = []
        for await (const page of storage.firstWindowHistory(internalId))
          for (const w of page) {
            revenueMicros.push(w.revenueMicros)
            eventTypes.push(w.eventTypes)
          }
        times.read.push(performance.now() - t0)

        t0 = performance.now()
        optimize(
          { revenueMicros, eventTypes, typeByBit: EVENT_TYPE_BY_BIT },
          { current: campaign.conversionSchema, lockWindowHours: 24 },
        )
        times.pure.push(performance.now() - t0)

        t0 = performance.now()
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/skan/campaigns/${campaign.id}/optimize`,
          headers: { authorization: `Bearer ${key}` },
        })
        times.route.push(performance.now() - t0)
        if (res.statusCode !== 200) throw new Error(`optimize: ${res.statusCode} ${res.body}`)
      }
      const rawMs = median(times.raw)
      const readMs = median(times.read)
      out.push(
        [`raw query of the window's rows (baseline)`, `${fmt(rawMs)} ms`],
        [
          `history read, ${fmt(revenueMicros.length / 1e6, 2)}M windows`,
          `${fmt(readMs)} ms (${fmt(readMs / rawMs, 2)}x the raw query)`,
        ],
        ['optimizer (pure)', `${fmt(median(times.pure))} ms`],
        ['POST …/optimize over inject (read + optimize)', `${fmt(median(times.route))} ms`],
      )
    } finally {
      await app.close()
    }
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
  report(`SKAN schema optimizer, ${fmt(players / 1e6, 1)}M players (median of 3)`, out)
}
