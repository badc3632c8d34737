/**
 * linkctl analytics retention / leaderboard / geography / events / export against the real daemon
 * (loopback), fed with `linkctl events send`: JSON, tables (the retention triangle in band
 * colours, none with NO_COLOR), tab-separated when piped, and the export to a file or stdout.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../src/contract/games.js'
import type { Events, Geography, Leaderboard, Retention } from '../../src/contract/gaming.js'
import { exitCodeFor } from '../../src/session/exit-codes.js'
import { runGamesCreate } from '../../src/cli/commands/games/create.js'
import { runEventsSend } from '../../src/cli/commands/events.js'
import { runAnalyticsRetention } from '../../src/cli/commands/analytics/retention.js'
import { runAnalyticsLeaderboard } from '../../src/cli/commands/analytics/leaderboard.js'
import { runAnalyticsGeography } from '../../src/cli/commands/analytics/geography.js'
import { runAnalyticsEvents } from '../../src/cli/commands/analytics/events.js'
import { runAnalyticsExport } from '../../src/cli/commands/analytics/export.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, tempDir, testCtx } from '../support/cli.js'

let d: TestDaemon
let dir: ReturnType<typeof tempDir>
let game: GameWithSecrets
const today = () => new Date().toISOString().slice(0, 10)

function as(opts: { json?: boolean; isTTY?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  return testCtx({
    flags: { url: d.url, apiKey: d.ownerKey },
    json: opts.json ?? true,
    isTTY: opts.isTTY ?? false,
    env: opts.env ?? { NO_COLOR: '1' },
  })
}

beforeAll(async () => {
  d = await startTestDaemon()
  d.clock.set(Date.now())
  dir = tempDir()
  const created = as()
  await runGamesCreate({ name: 'Analytics CLI', platform: 'ios' }, created.ctx)
  game = JSON.parse(created.out.text) as GameWithSecrets
  const at = new Date(Date.now() - 60_000).toISOString()
  // Ann installs in DE and pays 19.99, Ben installs in FR and pays 0.99; Ann fights a boss (custom).
  const player = (id: string, country: string, amount: number) => [
    { event_type: 'app_install', player_id: id, session_id: id, timestamp: at, data: { country } },
    {
      event_type: 'purchase',
      player_id: id,
      session_id: id,
      timestamp: at,
      data: { amount, currency: 'USD' },
    },
  ]
  const file = join(dir.dir, 'batch.json')
  writeFileSync(
    file,
    JSON.stringify({
      events: [
        ...player('ann', 'DE', 19.99),
        ...player('ben', 'FR', 0.99),
        { event_type: 'boss_fight', player_id: 'ann', session_id: 'ann', timestamp: at },
      ],
    }),
  )
  await runEventsSend({ game: game.id, sdkKey: game.sdkKey, source: file }, as().ctx)
})
afterAll(async () => {
  dir.remove()
  await d.close()
})

describe('linkctl analytics retention, leaderboard, geography, events, export', () => {
  it('retention: --json is the API answer; a terminal draws the triangle in band colours, NO_COLOR plain', async () => {
    const j = as()
    await runAnalyticsRetention({ game: game.id }, j.ctx)
    const r = JSON.parse(j.out.text) as Retention
    expect(r.data).toEqual([
      expect.objectContaining({ cohort: today(), size: 2, days: expect.objectContaining({ d1: null }) }),
    ])

    const colour = as({ json: false, isTTY: true, env: {} })
    await runAnalyticsRetention({ game: game.id }, colour.ctx)
    expect(colour.out.text).toContain('\x1b[32m100.0%\x1b[0m')
    expect(colour.out.text).toMatch(/COHORT.*SIZE.*D0.*D1.*D3.*D7.*D14.*D30/)

    const plain = as({ json: false, isTTY: true })
    await runAnalyticsRetention({ game: game.id, granularity: 'week' }, plain.ctx)
    expect(plain.out.text).not.toContain('\x1b[')
    expect(plain.out.text).toMatch(/\d{4}-W\d{2}/)
    expect(plain.out.text).toContain('100.0%')

    const piped = as({ json: false })
    await runAnalyticsRetention({ game: game.id }, piped.ctx)
    expect(piped.out.text.split('\n').slice(0, 2)).toEqual([
      'COHORT\tSIZE\tD0\tD1\tD3\tD7\tD14\tD30',
      `${today()}\t2\t100.0%\t\t\t\t\t`,
    ])
  })

  it('leaderboard, geography, events: JSON and tab-separated', async () => {
    const l = as()
    await runAnalyticsLeaderboard({ game: game.id, limit: 1 }, l.ctx)
    expect((JSON.parse(l.out.text) as Leaderboard).data).toEqual([
      { rank: 1, playerId: 'ann', revenue: 19.99 },
    ])
    const lp = as({ json: false })
    await runAnalyticsLeaderboard({ game: game.id }, lp.ctx)
    expect(lp.out.text).toBe('RANK\tPLAYER\tREVENUE (USD)\n1\tann\t19.99\n2\tben\t0.99\n')

    const g = as()
    await runAnalyticsGeography({ game: game.id }, g.ctx)
    expect((JSON.parse(g.out.text) as Geography).data.map((r) => [r.country, r.players, r.revenue])).toEqual([
      ['DE', 1, 19.99],
      ['FR', 1, 0.99],
    ])

    const e = as({ json: false })
    await runAnalyticsEvents({ game: game.id }, e.ctx)
    expect(e.out.text).toBe(
      [
        'EVENT TYPE\tKIND\tCOUNT\tPLAYERS\tSHARE',
        'app_install\tnamed\t2\t2\t40%',
        'purchase\tnamed\t2\t2\t40%',
        'boss_fight\tcustom\t1\t1\t20%',
        '',
      ].join('\n'),
    )
    const ej = as()
    await runAnalyticsEvents({ game: game.id }, ej.ctx)
    const events = JSON.parse(ej.out.text) as Events
    expect(events.totals.count).toBe(5)
    expect(events.data.at(-1)).toEqual({
      eventType: 'boss_fight',
      custom: true,
      count: 1,
      uniquePlayers: 1,
      percentage: 20,
    })
  })

  it('geography: a player whose country is not known is counted under Unknown', async () => {
    const created = as()
    await runGamesCreate({ name: 'No Country', platform: 'ios' }, created.ctx)
    const other = JSON.parse(created.out.text) as GameWithSecrets
    const at = new Date(Date.now() - 60_000).toISOString()
    const file = join(dir.dir, 'no-country.json')
    writeFileSync(
      file,
      JSON.stringify({
        events: [{ event_type: 'app_install', player_id: 'cy', session_id: 'cy', timestamp: at }],
      }),
    )
    await runEventsSend({ game: other.id, sdkKey: other.sdkKey, source: file }, as().ctx)
    const g = as({ json: false })
    await runAnalyticsGeography({ game: other.id }, g.ctx)
    expect(g.out.text.split('\n')[1]?.split('\t').slice(0, 2)).toEqual(['Unknown', '1'])
  })

  it('export: CSV to a file (format from nothing: csv), JSON to stdout; a 404 leaves no file', async () => {
    const file = join(dir.dir, 'events.csv')
    const f = as({ json: false })
    await runAnalyticsExport({ game: game.id, type: 'events', output: file }, f.ctx)
    expect(readFileSync(file, 'utf8')).toBe(
      'eventType,custom,count,uniquePlayers,percentage\r\napp_install,false,2,2,40\r\npurchase,false,2,2,40\r\nboss_fight,true,1,1,20\r\n',
    )
    expect(f.err.text).toContain(`Exported events to ${file}`)

    const s = as({ json: false })
    await runAnalyticsExport({ game: game.id, type: 'geography', format: 'json' }, s.ctx)
    expect((JSON.parse(s.out.text) as Array<{ country: string }>).map((r) => r.country)).toEqual(['DE', 'FR'])

    const missing = join(dir.dir, 'missing.csv')
    const err = await runAnalyticsExport(
      { game: 'no-such-game', type: 'events', output: missing },
      as().ctx,
    ).catch((e: unknown) => e)
    expect(exitCodeFor(err)).not.toBe(0)
    expect(existsSync(missing)).toBe(false)
  })

  it('the whole CLI: flags are parsed and checked (limit range, type choices)', async () => {
    const ok = await cli([
      '--url',
      d.url,
      '--api-key',
      d.ownerKey,
      'analytics',
      'leaderboard',
      game.id,
      '--limit',
      '5',
      '--json',
    ])
    expect(ok.code, ok.stderr).toBe(0)
    expect((JSON.parse(ok.stdout) as Leaderboard).data).toHaveLength(2)
    const bad = await cli([
      '--url',
      d.url,
      '--api-key',
      d.ownerKey,
      'analytics',
      'leaderboard',
      game.id,
      '--limit',
      '101',
    ])
    expect(bad.code).toBe(2)
    // A day that does not exist is refused by the CLI, naming its flag (not the API's field).
    for (const [flag, value] of [
      ['--start-date', '2026-13-01'],
      ['--end-date', '2026-02-30'],
      ['--start-date', '24.11.2026'],
    ] as const) {
      const day = await cli([
        '--url',
        d.url,
        '--api-key',
        d.ownerKey,
        'analytics',
        'events',
        game.id,
        flag,
        value,
      ])
      expect(day.code).toBe(2)
      expect(day.stderr).toContain(`${flag} <date>`)
      expect(day.stderr).toContain('expected a day as YYYY-MM-DD')
    }
    const fraudDay = await cli([
      '--url',
      d.url,
      '--api-key',
      d.ownerKey,
      'fraud',
      'dashboard',
      game.id,
      '--from',
      '2026-13-01',
    ])
    expect(fraudDay.code).toBe(2)
    expect(fraudDay.stderr).toContain('--from <date>')
    const noType = await cli(['--url', d.url, '--api-key', d.ownerKey, 'analytics', 'export', game.id])
    expect(noType.code).toBe(2)
    expect(noType.stderr).toContain('--type')
  })
})
