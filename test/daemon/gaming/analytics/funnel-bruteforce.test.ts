/**
 * Funnels against a brute force: hundreds of players over four days (steps repeated, sharing
 * milliseconds, numeric and text levels, some without source or country) sent through the real
 * ingestion, and every funnel figure computed again from the same events by a plain per-player
 * walk: for several step lists, windows, ranges and every groupBy. On SQLite the database is a
 * file, as the daemon's: funnels then run on read workers, split by player.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { Funnel, FunnelStep } from '../../../../src/contract/gaming-funnel.js'
import { createReadPool, type ReadPool } from '../../../../daemon/db/read-pool.js'
import { parseSteps } from '../../../../daemon/modules/gaming/analytics/funnel.js'
import { createFunnelStore } from '../../../../daemon/modules/gaming/storage/funnel-store.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { onPostgres } from '../../../support/postgres.js'
import { createGame, send } from '../../../support/gaming.js'
import { prng } from '../../../support/prng.js'

const DAY = 86_400_000
const HOUR = 3_600_000
const D0 = Date.parse('2026-10-10T00:00:00.000Z')
const DAYS = 4
const dayNo = (ms: number) => Math.floor(ms / DAY)
const iso = (day: number) => new Date(day * DAY).toISOString().slice(0, 10)

interface Ev {
  event_id: string
  event_type: string
  ts: number
  player_id: string
  platform: string
  data: Record<string, unknown>
}

const rand = prng(7)
const FLAGS = [true, false, 1, 0, 'true', '1', { v: 1 }, '{"v":1}', [1], null] as const
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!

/** Players who install, start and complete levels (level as a number, sometimes as text), and buy. */
function generate(): { events: Ev[]; profiles: Map<string, Record<string, string | null>> } {
  const events: Ev[] = []
  const profiles = new Map<string, Record<string, string | null>>()
  for (let p = 0; p < 400; p++) {
    const player = `p${String(p).padStart(3, '0')}`
    const platform = pick(['ios', 'android', 'web'])
    const country = rand() < 0.2 ? null : pick(['US', 'DE', 'JP'])
    const source = rand() < 0.3 ? null : pick(['google', 'tiktok'])
    const campaign = source ? pick(['spring', 'brand']) : null
    profiles.set(player, { platform, country, source, campaign, link: null })
    const attrs = { ...(country ? { country } : {}), ...(source ? { source, campaign } : {}) }
    let ts = D0 + Math.floor(rand() * (DAYS - 1) * DAY)
    const add = (type: string, data: Record<string, unknown> = {}) =>
      events.push({
        event_id: randomUUID(),
        event_type: type,
        ts,
        player_id: player,
        platform,
        data: { ...attrs, ...data },
      })
    add('app_install')
    const steps = Math.floor(rand() * 12)
    for (let i = 0; i < steps && ts < D0 + DAYS * DAY - 4 * HOUR; i++) {
      // Gaps from 0 ms (the same millisecond) to about 14 hours: windows of 1 h and 1 d cut them.
      const r = rand()
      ts += r < 0.15 ? 0 : r < 0.5 ? Math.floor(rand() * 20 * 60_000) : Math.floor(rand() * 14 * HOUR)
      const level = 1 + Math.floor(rand() * 4)
      const levelValue = rand() < 0.3 ? String(level) : level
      const type = pick(['level_start', 'level_start', 'level_complete', 'purchase', 'tutorial'])
      // A flag of each kind a condition tells apart, taken in turn (no draw: the rest stays the same).
      const flag = FLAGS[events.length % FLAGS.length]
      add(type, type === 'purchase' ? { amount: 0.99, currency: 'USD' } : { level: levelValue, flag })
    }
  }
  return { events: events.filter((e) => e.ts < D0 + DAYS * DAY), profiles }
}

/** Delivers the events by half days, each batch when its half day ends (events at most 24 h old). */
async function deliver(t: TestApp, game: GameWithSecrets, events: Ev[]): Promise<void> {
  for (let half = 0; half < DAYS * 2; half++) {
    const from = D0 + (half * DAY) / 2
    const to = from + DAY / 2
    const slice = events.filter((e) => e.ts >= from && e.ts < to).reverse()
    t.clock.set(to)
    for (let i = 0; i < slice.length; i += 1000) {
      const chunk = slice
        .slice(i, i + 1000)
        .map(({ ts, ...e }) => ({ ...e, timestamp: new Date(ts).toISOString() }))
      const res = await send(
        t,
        { batch_id: randomUUID(), batch_timestamp: new Date(to).toISOString(), events: chunk },
        { game, orgId: t.orgId },
      )
      if (res.statusCode !== 202 || res.json<{ rejected: number }>().rejected !== 0)
        throw new Error(`delivery failed: ${res.statusCode} ${res.body.slice(0, 500)}`)
    }
  }
}

const WINDOWS: Record<string, number> = { '1h': HOUR, '1d': DAY, '7d': 7 * DAY, '30d': 30 * DAY }

/** The brute force: each player's events sorted by time then id, walked step by step. */
function reference(
  events: Ev[],
  profiles: Map<string, Record<string, string | null>>,
  stepsText: string,
  window: string,
  start: number,
  end: number,
  groupBy?: string,
): Funnel {
  const steps = stepsText.split(',').map((s) => {
    const [head, value] = s.split('=') as [string, string | undefined]
    if (value === undefined) return { type: head, field: null, value: null }
    const i = head.lastIndexOf(':')
    return { type: head.slice(0, i), field: head.slice(i + 1), value }
  })
  const matches = (e: Ev, k: number) => {
    const s = steps[k]!
    if (e.event_type !== s.type) return false
    if (s.field === null) return true
    const v = e.data[s.field]
    return (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && String(v) === s.value
  }
  const byPlayer = new Map<string, Ev[]>()
  for (const e of events) byPlayer.set(e.player_id, [...(byPlayer.get(e.player_id) ?? []), e])
  const walks: Array<{ player: string; times: number[] }> = []
  for (const [player, list] of byPlayer) {
    const sorted = [...list].sort((a, b) => a.ts - b.ts || (a.event_id < b.event_id ? -1 : 1))
    const first = sorted.find((e) => dayNo(e.ts) >= start && dayNo(e.ts) <= end && matches(e, 0))
    if (!first) continue
    const used = new Set([first.event_id])
    const times = [first.ts]
    for (let k = 1; k < steps.length; k++) {
      const next = sorted.find(
        (e) =>
          !used.has(e.event_id) &&
          e.ts >= times[k - 1]! &&
          e.ts <= first.ts + WINDOWS[window]! &&
          matches(e, k),
      )
      if (!next) break
      used.add(next.event_id)
      times.push(next.ts)
    }
    walks.push({ player, times })
  }
  const rows = (list: typeof walks): FunnelStep[] =>
    steps.map((s, k) => {
      const reached = list.filter((w) => w.times.length > k)
      const before = k === 0 ? reached.length : list.filter((w) => w.times.length > k - 1).length
      const all = list.length
      const gaps = reached.map((w) => w.times[k]! - w.times[k - 1]!).sort((a, b) => a - b)
      const mid = Math.floor(gaps.length / 2)
      const median =
        k === 0 || gaps.length === 0 ? null : gaps.length % 2 ? gaps[mid]! : (gaps[mid - 1]! + gaps[mid]!) / 2
      const r4 = (x: number) => Math.round(x * 1e4) / 1e4
      return {
        step: k + 1,
        eventType: s.type,
        condition: s.field === null ? null : `${s.field}=${s.value}`,
        players: reached.length,
        conversion: all ? r4(reached.length / all) : null,
        stepConversion: before ? r4(reached.length / before) : null,
        medianSecondsFromPrevious: median === null ? null : Math.round(median) / 1000,
      }
    })
  const out: Funnel = { data: rows(walks), range: { startDate: iso(start), endDate: iso(end) } }
  if (groupBy) {
    const groups = new Map<string, typeof walks>()
    for (const w of walks) {
      const g = profiles.get(w.player)![groupBy] ?? '(none)'
      groups.set(g, [...(groups.get(g) ?? []), w])
    }
    out.groups = [...groups]
      .map(([group, list]) => ({ group, steps: rows(list) }))
      .sort(
        (a, b) =>
          b.steps[0]!.players - a.steps[0]!.players ||
          Number(a.group === '(none)') - Number(b.group === '(none)') ||
          a.group.localeCompare(b.group),
      )
  }
  return out
}

let t: TestApp
let game: GameWithSecrets
let data: ReturnType<typeof generate>
const first = dayNo(D0)

const dir = onPostgres ? undefined : mkdtempSync(join(tmpdir(), 'linkd-funnel-'))
const file = dir && join(dir, 'linkd.db')

beforeAll(async () => {
  t = await createTestApp({
    ingestRateLimitPerGame: 1_000_000,
    ingestRateLimitPerClient: 1_000_000,
    ...(file ? { databaseUrl: `sqlite:${file}` } : {}),
  })
  game = await createGame(t, { platform: 'ios' })
  data = generate()
  await deliver(t, game, data.events)
}, 120_000)
afterAll(async () => {
  await t.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function funnel(steps: string, window: string, start: number, end: number, groupBy?: string) {
  const res = await t.call(
    'GET',
    `/api/v1/gaming/analytics/funnel?gameId=${game.id}&steps=${encodeURIComponent(steps)}&window=${window}` +
      `&startDate=${iso(start)}&endDate=${iso(end)}${groupBy ? `&groupBy=${groupBy}` : ''}`,
  )
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Funnel>()
}

const CASES: Array<[string, string, number, number]> = [
  ['app_install,level_start,level_complete,purchase', '1d', first, first + DAYS - 1],
  ['app_install,level_start,level_complete,purchase', '1h', first, first + DAYS - 1],
  ['level_start,level_complete:level=3,purchase', '7d', first, first + DAYS - 1],
  ['level_start,level_start,level_start', '1d', first + 1, first + 2],
  ['tutorial,level_start:level=2,level_complete:level=2,tutorial,purchase', '30d', first, first],
  ['level_complete,level_start', '1h', first + 2, first + 3],
  // One type with and without a condition: which event each step takes at a shared millisecond.
  ['level_start,level_start:level=2,level_start', '1d', first, first + DAYS - 1],
  // Flags: 1 / 0 against booleans, true against text, an object against its text.
  ['tutorial:flag=1,level_start:flag=true,tutorial:flag=0', '30d', first, first + DAYS - 1],
  ['level_start:flag={"v":1},tutorial:flag=false,level_complete:flag=true', '30d', first, first + DAYS - 1],
]

describe('funnels against the brute force', () => {
  it.each(CASES)('%s, window %s, days %i to %i', async (steps, window, start, end) => {
    const expected = reference(data.events, data.profiles, steps, window, start, end)
    // The data set reaches each case's later steps (else the case would prove little).
    expect(expected.data[1]!.players).toBeGreaterThan(0)
    expect(await funnel(steps, window, start, end)).toEqual(expected)
  })

  it.each(['platform', 'source', 'campaign', 'link', 'country'])('groupBy %s', async (groupBy) => {
    const [steps, window, start, end] = CASES[0]!
    const expected = reference(data.events, data.profiles, steps, window, start, end, groupBy)
    expect(expected.groups!.length).toBeGreaterThan(0)
    expect(await funnel(steps, window, start, end, groupBy)).toEqual(expected)
  })

  it.skipIf(onPostgres)(
    'split into 6 parts by player on 3 read workers: the cells of one query',
    async () => {
      const pool = createReadPool(file!, { workers: 3 })
      try {
        // The queries the workers read: per funnel, the bounds, then one query per part.
        let queries = 0
        let first = true
        const counted: ReadPool = { ...pool, all: (q) => (queries++, pool.all(q)) }
        const split = createFunnelStore(t.db.kysely, 'sqlite', counted)
        const whole = createFunnelStore(t.db.kysely, 'sqlite')
        const gameId = (await t.app.linkd.services.gaming.games.record(t.orgId, game.id)).id
        for (const [stepsText, window, start, end] of CASES) {
          const steps = parseSteps(stepsText)
          const args = [gameId, steps, start * DAY, (end + 1) * DAY - 1, WINDOWS[window]!] as const
          for (const column of [null, 'country'] as const) {
            queries = 0
            const parts = await split.cells(...args, column)
            // The bounds are read once, then kept.
            expect(queries).toBe(first ? 1 + 6 : 6)
            first = false
            expect(parts.length).toBeGreaterThan(0)
            expect(parts).toEqual(await whole.cells(...args, column))
          }
        }
      } finally {
        await pool.close()
      }
    },
  )
})
