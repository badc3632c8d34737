/**
 * End to end with the built binaries: a game created with linkctl, a batch sent with
 * `linkctl events send` visible in `linkctl analytics overview`, and a kill -9 of linkd right
 * after 202s: every acknowledged event is in the database afterwards (202 means committed).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../daemon/db/open.js'
import type { GameWithSecrets } from '../../src/contract/games.js'
import type { Overview } from '../../src/contract/gaming.js'
import { ingestionHeaders } from '../support/gaming.js'
import { createTestDatabase, onPostgres } from '../support/postgres.js'
import { LINKCTL, runBin, startLinkd, type RunningLinkd } from '../support/processes.js'

let daemon: RunningLinkd
let work = ''
let env: Record<string, string> = {}
let game: GameWithSecrets
/** The daemon's database: a file in its data directory, or (test:pg) a database of the run. */
let database: { url: string; env: Record<string, string>; drop(): Promise<void> }
const linkctl = (args: string[], extra: Record<string, string> = {}) =>
  runBin(LINKCTL, args, { ...env, ...extra })

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'linkd-gaming-e2e-'))
  const pg = onPostgres ? await createTestDatabase() : undefined
  database = pg
    ? { url: pg.url, env: { LINKD_DATABASE_URL: pg.url }, drop: () => pg.drop() }
    : { url: `sqlite:${join(work, 'data', 'linkd.db')}`, env: {}, drop: async () => {} }
  daemon = await startLinkd(join(work, 'data'), database.env)
  const ownerKey = daemon.ownerKey() ?? ''
  env = { LINKCTL_URL: daemon.url, LINKCTL_API_KEY: ownerKey, LINKCTL_CONFIG_DIR: join(work, 'config') }
  const r = await linkctl(['games', 'create', '--name', 'E2E Arena', '--platform', 'steam', '--json'])
  expect(r.code, r.stderr).toBe(0)
  game = JSON.parse(r.stdout) as GameWithSecrets
}, 60_000)

afterAll(async () => {
  if (daemon) await daemon.stop('SIGKILL')
  await database?.drop()
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('gaming with the real binaries', () => {
  it('linkctl events send, then linkctl analytics overview shows the players and revenue', async () => {
    const file = join(work, 'events.jsonl')
    writeFileSync(
      file,
      [
        { event_type: 'app_install', player_id: 'e2e-1', session_id: 'a' },
        {
          event_type: 'purchase',
          player_id: 'e2e-1',
          session_id: 'a',
          data: { amount: 2.5, currency: 'USD' },
        },
        { event_type: 'session_start', player_id: 'e2e-2', session_id: 'b' },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    )
    const sent = await linkctl([
      'events',
      'send',
      file,
      '--game',
      game.id,
      '--sdk-key',
      game.sdkKey,
      '--gzip',
      '--json',
    ])
    expect(sent.code, sent.stderr).toBe(0)
    expect(JSON.parse(sent.stdout)).toMatchObject({ batches: 1, accepted: 3, rejected: 0 })
    const o = await linkctl(['analytics', 'overview', game.id, '--json'])
    expect(o.code, o.stderr).toBe(0)
    const overview = JSON.parse(o.stdout) as Overview
    expect(overview).toMatchObject({ dau: 2, mau: 2, revenue: { total: 2.5, iap: 2.5 }, arppu: 2.5 })
  })

  it('kill -9 right after 202s loses no acknowledged event', async () => {
    const acked: string[] = []
    let stop = false
    const sender = async () => {
      while (!stop) {
        const events = Array.from({ length: 200 }, () => ({
          event_id: randomUUID(),
          event_type: 'level_start',
          timestamp: new Date().toISOString(),
          player_id: `k-${randomUUID()}`,
        }))
        try {
          const res = await fetch(`${daemon.url}/api/v1/gaming/events`, {
            method: 'POST',
            headers: ingestionHeaders(game),
            body: JSON.stringify({
              batch_id: randomUUID(),
              batch_timestamp: new Date().toISOString(),
              events,
            }),
          })
          if (res.status === 202) {
            const body = (await res.json()) as { accepted: number }
            expect(body.accepted).toBe(200)
            acked.push(...events.map((e) => e.event_id))
          }
        } catch {
          return // the daemon is gone
        }
      }
    }
    const senders = [sender(), sender(), sender()]
    while (acked.length < 4000) await new Promise((r) => setTimeout(r, 5))
    // Kill while the senders still have requests in flight.
    const code = await daemon.stop('SIGKILL')
    stop = true
    await Promise.all(senders)
    expect(code).toBeNull()

    const db = openDatabase(database.url)
    try {
      const stored = new Set<string>()
      for (let i = 0; i < acked.length; i += 1000) {
        const ids = acked.slice(i, i + 1000)
        const rows = await db.kysely
          .selectFrom('game_events')
          .select('event_id')
          .where('event_id', 'in', ids)
          .execute()
        for (const r of rows) stored.add(r.event_id)
      }
      expect(acked.filter((id) => !stored.has(id))).toEqual([])
      // The aggregates committed with them: every acknowledged player is counted.
      const players = await db.kysely
        .selectFrom('game_players')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('player_id', 'like', 'k-%')
        .executeTakeFirstOrThrow()
      expect(Number(players.n)).toBeGreaterThanOrEqual(acked.length)
    } finally {
      await db.close()
    }

    // The daemon comes back on the same data and serves the overview.
    daemon = await startLinkd(join(work, 'data'), database.env)
    const o = await linkctl(['analytics', 'overview', game.id, '--json'], { LINKCTL_URL: daemon.url })
    expect(o.code, o.stderr).toBe(0)
    expect((JSON.parse(o.stdout) as Overview).dau).toBeGreaterThanOrEqual(acked.length + 2)
  }, 120_000)
})
