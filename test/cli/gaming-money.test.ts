/** linkctl games settings (currency, segments) and analytics revenue / attribution / segments / players / player against the real daemon. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../src/contract/games.js'
import type {
  AttributionReport,
  PlayerProfile,
  PlayersPage,
  RevenueReport,
  SegmentsReport,
} from '../../src/contract/gaming-revenue.js'
import { exitCodeFor } from '../../src/session/exit-codes.js'
import { runGamesCreate } from '../../src/cli/commands/games/create.js'
import { runGamesUpdate } from '../../src/cli/commands/games/update.js'
import { runEventsSend } from '../../src/cli/commands/events.js'
import { runAnalyticsRevenue } from '../../src/cli/commands/analytics/revenue.js'
import { runAnalyticsAttribution } from '../../src/cli/commands/analytics/attribution.js'
import { runAnalyticsSegments } from '../../src/cli/commands/analytics/segments.js'
import { runAnalyticsPlayers } from '../../src/cli/commands/analytics/players.js'
import { runAnalyticsPlayer } from '../../src/cli/commands/analytics/player.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, tempDir, testCtx } from '../support/cli.js'

let d: TestDaemon
let dir: ReturnType<typeof tempDir>
let game: GameWithSecrets
beforeAll(async () => {
  d = await startTestDaemon()
  d.clock.set(Date.now())
  dir = tempDir()
})
afterAll(async () => {
  dir.remove()
  await d.close()
})

function as(opts: { json?: boolean; isTTY?: boolean } = {}) {
  return testCtx({
    flags: { url: d.url, apiKey: d.ownerKey },
    json: opts.json ?? true,
    isTTY: opts.isTTY ?? false,
    env: { NO_COLOR: '1' },
  })
}

describe('linkctl games: reporting currency and segment thresholds', () => {
  it('create --currency --whale --dolphin; update --whale; a bad threshold is refused', async () => {
    const c = as()
    await runGamesCreate({ name: 'Coins', platform: 'ios', currency: 'eur', whale: 50, dolphin: 5 }, c.ctx)
    game = JSON.parse(c.out.text) as GameWithSecrets
    expect(game).toMatchObject({ reportingCurrency: 'EUR', segments: { whale: 50, dolphin: 5 } })
    const u = as({ json: false })
    await runGamesUpdate({ id: game.id, whale: 20 }, u.ctx)
    expect(u.out.text).toContain('whale >= 20, dolphin >= 5, minnow > 0')
    const bad = await runGamesUpdate({ id: game.id, whale: 5 }, as().ctx).catch((err: unknown) => err)
    expect(exitCodeFor(bad)).not.toBe(0)
    const parsed = await cli([
      'games',
      'update',
      game.id,
      '--whale',
      '0',
      '--url',
      d.url,
      '--api-key',
      d.ownerKey,
    ])
    expect(parsed.code).toBe(2)
  })
})

describe('linkctl analytics revenue, attribution, segments, players, player', () => {
  it('events sent with linkctl events send show in every report, in the reporting currency', async () => {
    const file = join(dir.dir, 'money.json')
    const now = Date.now()
    const ads = { source: 'ads', campaign: 'launch', medium: 'cpc', affiliate: 'aff1' }
    writeFileSync(
      file,
      JSON.stringify([
        {
          event_type: 'app_install',
          player_id: 'whale-1',
          session_id: 's1',
          timestamp: new Date(now - 60_000).toISOString(),
          data: { ...ads, cost: 3 },
        },
        {
          event_type: 'purchase',
          player_id: 'whale-1',
          session_id: 's1',
          data: { ...ads, amount: 25, currency: 'EUR', commission: 2.5 },
        },
        {
          event_type: 'purchase',
          player_id: 'whale-1',
          session_id: 's1',
          data: { ...ads, amount: 10, currency: 'USD', exchange_rate: 0.9 },
        },
        { event_type: 'session_start', player_id: 'free-1', session_id: 's2' },
      ]),
    )
    const s = as()
    await runEventsSend({ source: file, game: game.id, sdkKey: game.sdkKey }, s.ctx)
    expect(JSON.parse(s.out.text)).toMatchObject({ accepted: 4, rejected: 0 })

    const r = as()
    await runAnalyticsRevenue({ game: game.id, groupBy: 'source' }, r.ctx)
    const revenue = JSON.parse(r.out.text) as RevenueReport
    expect(revenue).toMatchObject({ currency: 'EUR', totals: { total: 34, transactions: 2, payingUsers: 1 } })
    const piped = as({ json: false })
    await runAnalyticsRevenue({ game: game.id, groupBy: 'source' }, piped.ctx)
    expect(piped.out.text.split('\n')[0]).toBe(
      'SOURCE\tTOTAL (EUR)\tIAP\tAD\tSUBSCRIPTION\tTRANSACTIONS\tPAYING USERS\tARPPU',
    )
    expect(piped.out.text).toContain('ads\t34.00\t34.00\t0.00\t0.00\t2\t1\t34.00')
    expect(piped.out.text).toContain('TOTAL\t34.00')

    const a = as()
    await runAnalyticsAttribution({ game: game.id, groupBy: 'affiliate' }, a.ctx)
    expect((JSON.parse(a.out.text) as AttributionReport).data).toEqual([
      {
        group: 'aff1',
        installs: 1,
        conversions: 1,
        revenue: 34,
        cost: 3,
        commission: 2.5,
        avgCpa: 3,
        avgRoas: 11.333333,
      },
      {
        group: '(none)',
        installs: 1,
        conversions: 0,
        revenue: 0,
        cost: 0,
        commission: 0,
        avgCpa: null,
        avgRoas: null,
      },
    ])
    // free-1 has no source: its install is the (none) row, and TOTAL counts both installs.
    const at = as({ json: false })
    await runAnalyticsAttribution({ game: game.id }, at.ctx)
    const lines = at.out.text.trim().split('\n')
    expect(lines.find((l) => l.startsWith('(none)\t'))).toMatch(/^\(none\)\t1\t0\t0\.00\t/)
    expect(lines.at(-1)).toMatch(/^TOTAL\t2\t1\t34\.00\t3\.00\t2\.50\t/)

    const g = as({ json: false, isTTY: true })
    await runAnalyticsSegments({ game: game.id }, g.ctx)
    expect(g.out.text).toMatch(/whale\s+1\s+50%\s+34\.00/)
    expect(g.err.text).toContain('whale >= 20 EUR')
    const gj = as()
    await runAnalyticsSegments({ game: game.id }, gj.ctx)
    expect((JSON.parse(gj.out.text) as SegmentsReport).data.map((x) => x.players)).toEqual([1, 0, 0, 1])

    const p = as()
    await runAnalyticsPlayers({ game: game.id, segment: 'free' }, p.ctx)
    expect((JSON.parse(p.out.text) as PlayersPage).data.map((x) => x.playerId)).toEqual(['free-1'])
    const pt = as({ json: false, isTTY: true })
    await runAnalyticsPlayers({ game: game.id, search: 'wh', sort: 'sessions' }, pt.ctx)
    // On a terminal each amount names its currency (the header does when piped).
    expect(pt.out.text).toMatch(/whale-1\s+1\s+34\.00 EUR\s+whale/)
    expect(pt.err.text).toBe('') // every match shown: no paging note
    const cut = as({ json: false, isTTY: true })
    await runAnalyticsPlayers({ game: game.id, limit: 1 }, cut.ctx)
    expect(cut.out.text).toMatch(/whale-1\s+1\s+34\.00 EUR\s+whale/)
    expect(cut.out.text).not.toContain('free-1')
    expect(cut.err.text).toContain('showing 1 of 2')

    const one = as()
    await runAnalyticsPlayer({ game: game.id, player: 'whale-1', limit: 10 }, one.ctx)
    const profile = JSON.parse(one.out.text) as PlayerProfile
    expect(profile).toMatchObject({ revenue: 34, attribution: ads, transactions: 2 })
    expect(profile.events.total).toBe(3)
    const human = as({ json: false, isTTY: true })
    await runAnalyticsPlayer({ game: game.id, player: 'whale-1' }, human.ctx)
    expect(human.out.text).toMatch(/REVENUE\s+34\.00 EUR/)
    expect(human.out.text).toContain('purchase')
  })

  it('through the parser: an unknown --group-by or --segment is a usage error (exit 2)', async () => {
    for (const args of [
      ['analytics', 'revenue', 'x', '--group-by', 'year'],
      ['analytics', 'attribution', 'x', '--group-by', 'platform'],
      ['analytics', 'players', 'x', '--segment', 'shark'],
      ['analytics', 'players', 'x', '--min-revenue', '-1'],
    ]) {
      const r = await cli([...args, '--url', d.url, '--api-key', d.ownerKey])
      expect(r.code, args.join(' ')).toBe(2)
    }
    const unknown = await cli([
      'analytics',
      'player',
      game.id,
      'nobody',
      '--url',
      d.url,
      '--api-key',
      d.ownerKey,
    ])
    expect(unknown.code).not.toBe(0)
  })
})
