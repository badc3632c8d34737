/**
 * Every figure of retention, leaderboard, geography and events over the generated data set
 * (thousands of players, 45 days, sent through the real ingestion, shuffled) equals the
 * brute-force figure of truth() over the raw events, for several ranges: the whole data set, its
 * first and last day, a middle range whose cohorts' D30 lies past its end, and after GDPR
 * deletions of the biggest payers (named lists forget them; anonymous totals keep them).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { Events, Geography, Leaderboard, Retention } from '../../../../src/contract/gaming.js'
import { topPayersOfRange } from '../../../../daemon/modules/gaming/analytics/breakdowns.js'
import { sqlRows, type TestApp } from '../../../support/app.js'
import { gameIdOf } from '../../../support/fraud.js'
import { D0, DAY, DAYS, dayNo, deliveredDataset, type truth } from '../../../support/gaming-dataset.js'

let t: TestApp
let game: GameWithSecrets
let T: ReturnType<typeof truth>
const first = dayNo(D0)
const last = first + DAYS - 1
const today = first + DAYS
const iso = (day: number) => new Date(day * DAY).toISOString().slice(0, 10)
const money = (micros: number) => micros / 1e6
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits

beforeAll(async () => {
  ;({ t, game, T } = await deliveredDataset())
}, 180_000)
afterAll(() => t.close())

async function get<R>(path: string, s: number, e: number, extra = ''): Promise<R> {
  const res = await t.call(
    'GET',
    `/api/v1/analytics/games/${game.id}/${path}?startDate=${iso(s)}&endDate=${iso(e)}${extra}`,
  )
  expect(res.statusCode, res.body).toBe(200)
  return res.json<R>()
}

/** The ranges every figure is checked on: whole, first day, last day, middle (D30 past its end). */
const RANGES: Array<[string, number, number]> = [
  ['the whole data set', first, last],
  ['its first day', first, first],
  ['its last day', last, last],
  ['a middle range', first + 10, first + 24],
]

const band = (p: number) =>
  p >= 50 ? 'green' : p >= 30 ? 'yellow' : p >= 15 ? 'amber' : p > 0 ? 'red' : 'none'

describe('retention against the brute force', () => {
  it.each(RANGES)(
    'day cohorts, %s: sizes, retained, percentages, bands; unreached days null',
    async (_, s, e) => {
      const r = await get<Retention>('retention', s, e)
      const expected = []
      for (let day = s; day <= e; day++) {
        const size = T.cohort(day, day, 0).size
        if (!size) continue
        const days: Record<string, unknown> = {}
        for (const n of [0, 1, 3, 7, 14, 30]) {
          if (day + n > today) days[`d${n}`] = null
          else {
            const retained = T.cohort(day, day, n).retained
            const percentage = round((100 * retained) / size, 2)
            days[`d${n}`] = { retained, percentage, band: band(percentage) }
          }
        }
        expected.push({ cohort: iso(day), size, days })
      }
      expect(expected.length).toBeGreaterThan(0)
      expect(r.data).toEqual(expected)
    },
  )

  it('a cohort whose D30 lies past the range end is followed up to today; one past today is null', async () => {
    const r = await get<Retention>('retention', first + 10, first + 24)
    const late = r.data.find((row) => row.cohort === iso(first + 20))!
    // D30 of day 20 is day 50: after today (day 45), not reached.
    expect(late.days.d30).toBeNull()
    const early = r.data.find((row) => row.cohort === iso(first + 10))!
    // D30 of day 10 is day 40: past the range's end (day 24) but reached, and counted.
    expect(early.days.d30?.retained).toBe(T.cohort(first + 10, first + 10, 30).retained)
    expect(early.days.d30?.retained).toBeGreaterThan(0)
  })

  it('week cohorts: ISO weeks clipped to the range; a day is null until the week’s last install day reaches it', async () => {
    // 2026-10-01 is a Thursday of ISO week 40; the range starts mid-week on purpose.
    const r = await get<Retention>('retention', first, last, '&granularity=week')
    expect(r.data[0]!.cohort).toBe('2026-W40')
    // Mondays from the one before the range's first day: each week clipped to the range.
    const firstMonday = first - ((new Date(D0).getUTCDay() + 6) % 7)
    expect(r.data).toHaveLength(7)
    r.data.forEach((row, week) => {
      const from = Math.max(firstMonday + 7 * week, first)
      const to = Math.min(firstMonday + 7 * week + 6, last)
      expect(row.size, row.cohort).toBe(T.cohort(from, to, 0).size)
      for (const n of [0, 1, 3, 7, 14, 30] as const) {
        const cell = row.days[`d${n}`]
        if (to + n > today) expect(cell, `${row.cohort} d${n}`).toBeNull()
        else {
          let retained = 0
          for (let day = from; day <= to; day++) retained += T.cohort(day, day, n).retained
          expect(cell?.retained, `${row.cohort} d${n}`).toBe(retained)
          expect(cell?.percentage).toBe(round((100 * retained) / row.size, 2))
        }
      }
    })
    expect(r.data.map((row) => row.cohort)).toEqual([
      '2026-W40',
      '2026-W41',
      '2026-W42',
      '2026-W43',
      '2026-W44',
      '2026-W45',
      '2026-W46',
    ])
  })
})

describe('retention breakdowns against the brute force', () => {
  /** Rows per group (the players' profile values, (none) last) and install day, from the raw events. */
  function expected(s: number, e: number, groupOf: (player: string) => string | null, returnEvent?: string) {
    const back = (player: string, day: number) =>
      returnEvent
        ? T.byPlayer.get(player)!.some((ev) => ev.event_type === returnEvent && dayNo(ev.ts) === day)
        : T.activeDays.get(player)!.has(day)
    const groups = new Map<string, string[]>()
    for (const [player, day] of T.install)
      if (day >= s && day <= e) {
        const g = groupOf(player) ?? '(none)'
        groups.set(g, [...(groups.get(g) ?? []), player])
      }
    const names = [...groups.keys()].sort(
      (a, b) => Number(a === '(none)') - Number(b === '(none)') || a.localeCompare(b),
    )
    return names.flatMap((group) => {
      const rows = []
      for (let day = s; day <= e; day++) {
        const players = groups.get(group)!.filter((p) => T.install.get(p) === day)
        if (!players.length) continue
        const days: Record<string, unknown> = {}
        for (const n of [0, 1, 3, 7, 14, 30]) {
          if (day + n > today) days[`d${n}`] = null
          else {
            const retained = players.filter((p) => back(p, day + n)).length
            const percentage = round((100 * retained) / players.length, 2)
            days[`d${n}`] = { retained, percentage, band: band(percentage) }
          }
        }
        rows.push({ group, cohort: iso(day), size: players.length, days })
      }
      return rows
    })
  }
  const profile = (player: string) => T.profiles.get(player)!
  const GROUPS: Array<[string, (player: string) => string | null]> = [
    ['platform', (p) => profile(p).platform],
    ['country', (p) => profile(p).country],
    ['source', (p) => profile(p).attribution.source],
    ['campaign', (p) => profile(p).attribution.campaign],
    ['link', () => null],
  ]

  it.each(GROUPS)('groupBy %s: one cohort list per value, (none) last', async (groupBy, groupOf) => {
    const [, s, e] = RANGES[3]!
    const r = await get<Retention>('retention', s, e, `&groupBy=${groupBy}`)
    expect(r.data).toEqual(expected(s, e, groupOf))
  })

  it.each(['level_complete', 'custom', 'purchase'])(
    'returnEvent %s: retained on day N by that event type, whole data set',
    async (returnEvent) => {
      const r = await get<Retention>('retention', first, last, `&returnEvent=${returnEvent}`)
      const want = expected(first, last, () => null, returnEvent).map(({ group: _, ...row }) => row)
      expect(want.some((row) => (row.days.d1 as { retained: number } | null)?.retained)).toBe(true)
      expect(r.data).toEqual(want)
    },
  )

  // Every type the data set sends (named and custom), overall and per grouping: game_cohort_events
  // kept by the fold over shuffled deliveries (install days moved back by late older events).
  const TYPES = [
    'app_install',
    'session_start',
    'session_end',
    'level_start',
    'level_complete',
    'currency_earned',
    'battle_won',
    'purchase',
    'ad_watched',
    'subscription_start',
    'boss_fight',
    'custom',
  ]
  it.each(TYPES)('returnEvent %s, overall and by every grouping, whole data set', async (returnEvent) => {
    const all = await get<Retention>('retention', first, last, `&returnEvent=${returnEvent}`)
    expect(all.data).toEqual(
      expected(first, first + DAYS - 1, () => null, returnEvent).map(({ group: _, ...row }) => row),
    )
    for (const [groupBy, groupOf] of GROUPS) {
      const r = await get<Retention>(
        'retention',
        first,
        last,
        `&groupBy=${groupBy}&returnEvent=${returnEvent}`,
      )
      expect(r.data, groupBy).toEqual(expected(first, last, groupOf, returnEvent))
    }
  })

  it('migration 0038 fills game_cohort_events from the player-days and profiles as the fold does', async () => {
    const id = await gameIdOf(t, game.id)
    const rows = () =>
      sqlRows(
        t,
        `SELECT event_type, dim, install_day, day_offset, value, players FROM game_cohort_events
           WHERE game_id = ? AND players <> 0 ORDER BY event_type, dim, install_day, day_offset, value`,
        id,
      )
    const folded = await rows()
    expect(new Set(folded.map((r) => r.event_type))).toEqual(new Set(TYPES))
    await sqlRows(t, 'DELETE FROM game_cohort_events WHERE game_id = ?', id)
    const file = join(
      import.meta.dirname,
      '../../../../daemon/db/migrations',
      t.db.dialect === 'postgres' ? 'postgres' : '',
      '0038_cohort_return_events.sql',
    )
    const backfill = readFileSync(file, 'utf8')
      .split(/;\s*\n/)
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .find((s) => s.startsWith('INSERT INTO game_cohort_events'))!
    await sqlRows(t, backfill)
    expect(await rows()).toEqual(folded)
  })

  it('groupBy and returnEvent together, weeks', async () => {
    const r = await get<Retention>(
      'retention',
      first,
      first + 20,
      '&groupBy=source&returnEvent=level_start&granularity=week',
    )
    // Week rows add up the day rows of each group.
    const days = expected(first, first + 20, GROUPS[2]![1], 'level_start')
    const weeks = new Map<string, { group: string; size: number }>()
    for (const row of days) {
      const week = r.data.find((w) => w.group === row.group && w.cohort === isoWeek(row.cohort))!
      const k = `${row.group} ${week.cohort}`
      weeks.set(k, { group: row.group, size: (weeks.get(k)?.size ?? 0) + row.size })
    }
    expect(r.data.map((w) => w.size)).toEqual([...weeks.values()].map((w) => w.size))
    const d1 = (group: string) =>
      r.data.filter((w) => w.group === group).reduce((n, w) => n + (w.days.d1?.retained ?? 0), 0)
    const want = (group: string) =>
      days
        .filter((row) => row.group === group)
        .reduce((n, row) => n + ((row.days.d1 as { retained: number } | null)?.retained ?? 0), 0)
    for (const group of ['google', 'facebook', 'tiktok', '(none)']) expect(d1(group), group).toBe(want(group))
  })
})

/** The ISO week label (YYYY-Www) of a YYYY-MM-DD day. */
function isoWeek(date: string): string {
  const d = new Date(`${date}T00:00:00Z`)
  const weekday = (d.getUTCDay() + 6) % 7
  d.setUTCDate(d.getUTCDate() - weekday + 3)
  const year = d.getUTCFullYear()
  const week = Math.floor((d.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY)) + 1
  return `${year}-W${String(week).padStart(2, '0')}`
}

describe('geography and events against the brute force', () => {
  it.each(RANGES)('geography, %s: distinct players, sessions, revenue per country', async (_, s, e) => {
    const g = await get<Geography>('geography', s, e)
    const want = [...T.geography(s, e)]
      .map(([country, r]) => ({
        country,
        players: r.players.size,
        sessions: r.sessions,
        revenue: money(r.revenue),
        revenuePerPlayer: round(money(r.revenue) / r.players.size, 6),
      }))
      .sort((a, b) => b.players - a.players || a.country.localeCompare(b.country))
    expect(want.length).toBe(5)
    expect(g.data.map((row) => ({ ...row, revenue: round(row.revenue, 6) }))).toEqual(
      want.map((row) => ({ ...row, revenue: round(row.revenue, 6) })),
    )
  })

  it.each(RANGES)(
    'events, %s: count, distinct players, percentage; custom names by name',
    async (_, s, e) => {
      const ev = await get<Events>('events', s, e)
      const rows = [...T.eventTypes(s, e)]
      const total = rows.reduce((sum, [, r]) => sum + r.count, 0)
      const want = rows
        .map(([eventType, r]) => ({
          eventType,
          custom: r.custom,
          count: r.count,
          uniquePlayers: r.players.size,
          percentage: round((100 * r.count) / total, 2),
        }))
        .sort((a, b) => b.count - a.count || a.eventType.localeCompare(b.eventType))
      expect(ev.totals.count).toBe(total)
      expect(
        want
          .filter((row) => row.custom)
          .map((row) => row.eventType)
          .sort(),
      ).toEqual(['boss_fight', 'custom'])
      expect(ev.data).toEqual(want)
    },
  )
})

describe('leaderboard against the brute force, before and after GDPR deletions', () => {
  const check = async (s: number, e: number, limit: number, gone: Set<string>) => {
    const board = await get<Leaderboard>('leaderboard', s, e, `&limit=${limit}`)
    const want = T.leaderboard(s, e, gone)
      .slice(0, limit)
      .map(([playerId, micros], i) => ({ rank: i + 1, playerId, revenue: money(micros) }))
    expect(board.data).toEqual(want)
    return board
  }

  it.each(RANGES)('%s: top players by revenue in the range, ranked', async (_, s, e) => {
    await check(s, e, 100, new Set())
  })

  it.each(RANGES)(
    '%s: summing every paying day (the fallback) gives the same top players',
    async (_, s, e) => {
      const gameId = await gameIdOf(t, game.id)
      const scope = { gameId, start: s, end: e, today, range: { startDate: iso(s), endDate: iso(e) } }
      const aggregates = t.app.linkd.services.gaming.storage.aggregates
      const viaCandidates = await topPayersOfRange(aggregates, scope, 100)
      const viaPayingDays = await topPayersOfRange(aggregates, scope, 100, 0)
      expect(viaPayingDays).toEqual(viaCandidates)
      expect(viaPayingDays.map((p) => [p.playerId, p.revenueMicros])).toEqual(
        T.leaderboard(s, e, new Set()).slice(0, 100),
      )
    },
  )

  it('default limit 10; after the two biggest payers are deleted (GDPR) they leave it, totals keep them', async () => {
    const board = await get<Leaderboard>('leaderboard', first, last)
    expect(board.data).toHaveLength(10)
    const victims = board.data.slice(0, 2).map((r) => r.playerId)
    const geographyBefore = await get<Geography>('geography', first, last)
    const returns = () =>
      get<Retention>('retention', first, last, '&groupBy=source&returnEvent=session_start')
    const returnsBefore = await returns()
    for (const playerId of victims) {
      const res = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
        body: { gameId: game.id, playerId, reason: 'gdpr_request', confirmation: 'DELETE' },
      })
      expect(res.statusCode, res.body).toBe(202)
    }
    expect(await t.app.linkd.scheduler.runNow('gdpr-deletions')).toMatchObject({ ran: true, status: 'ok' })
    const after = await check(first, last, 10, new Set(victims))
    expect(after.data.map((r) => r.playerId)).not.toContain(victims[0])
    for (const [, s, e] of RANGES) await check(s, e, 50, new Set(victims))
    // Geography and retention are anonymous aggregates: the deleted players still count there.
    expect(await get<Geography>('geography', first, last)).toEqual(geographyBefore)
    expect(await returns()).toEqual(returnsBefore)
  })
})
