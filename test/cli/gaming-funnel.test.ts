/**
 * linkctl analytics funnel and retention --group-by/--return-event against the real daemon
 * (loopback), fed with `linkctl events send`: JSON is the API answer, a terminal draws bars,
 * piped output is tab-separated (a GROUP column with --group-by), bad flags are usage errors.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../src/contract/games.js'
import type { Funnel } from '../../src/contract/gaming-funnel.js'
import type { Retention } from '../../src/contract/gaming.js'
import { runGamesCreate } from '../../src/cli/commands/games/create.js'
import { runEventsSend } from '../../src/cli/commands/events.js'
import { runAnalyticsFunnel } from '../../src/cli/commands/analytics/funnel.js'
import { runAnalyticsRetention } from '../../src/cli/commands/analytics/retention.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, tempDir, testCtx } from '../support/cli.js'
import { oneDayEnd } from '../support/gaming.js'

let d: TestDaemon
let dir: ReturnType<typeof tempDir>
let game: GameWithSecrets

function as(opts: { json?: boolean; isTTY?: boolean } = {}) {
  return testCtx({
    flags: { url: d.url, apiKey: d.ownerKey },
    json: opts.json ?? true,
    isTTY: opts.isTTY ?? false,
    env: { NO_COLOR: '1' },
  })
}

beforeAll(async () => {
  d = await startTestDaemon()
  d.clock.set(Date.now())
  // One "now" for every event: gaps of whole minutes, whatever the clock does while they are
  // built, and every event on one UTC day (the retention below counts day 0).
  const now = oneDayEnd(30 * 60_000)
  dir = tempDir()
  const created = as()
  await runGamesCreate({ name: 'Funnel CLI', platform: 'ios' }, created.ctx)
  game = JSON.parse(created.out.text) as GameWithSecrets
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString()
  // Four players install (two from ads); three start level 3, two of them complete it (2 and 4 minutes later).
  const events = [
    ...['ann', 'ben', 'cy', 'dee'].map((id, i) => ({
      event_type: 'app_install',
      player_id: id,
      session_id: id,
      timestamp: at(30),
      data: i < 2 ? { source: 'ads' } : {},
    })),
    ...['ann', 'ben', 'cy'].map((id) => ({
      event_type: 'level_start',
      player_id: id,
      session_id: id,
      timestamp: at(20),
      data: { level: 3 },
    })),
    {
      event_type: 'level_complete',
      player_id: 'ann',
      session_id: 'ann',
      timestamp: at(18),
      data: { level: 3 },
    },
    {
      event_type: 'level_complete',
      player_id: 'cy',
      session_id: 'cy',
      timestamp: at(16),
      data: { level: '3' },
    },
  ]
  const file = join(dir.dir, 'batch.json')
  writeFileSync(file, JSON.stringify({ events }))
  await runEventsSend({ game: game.id, sdkKey: game.sdkKey, source: file }, as().ctx)
})
afterAll(async () => {
  dir.remove()
  await d.close()
})

const STEPS = 'app_install,level_start,level_complete:level=3'

describe('linkctl analytics funnel', () => {
  it('--json is the API answer', async () => {
    const j = as()
    await runAnalyticsFunnel({ game: game.id, steps: STEPS, window: '1h' }, j.ctx)
    const f = JSON.parse(j.out.text) as Funnel
    expect(f.data.map((s) => [s.players, s.conversion, s.medianSecondsFromPrevious])).toEqual([
      [4, 1, null],
      [3, 0.75, 600],
      [2, 0.5, 180],
    ])
  })

  it('a terminal shows percentages, durations and bars; piped, bare numbers with a GROUP column when grouped', async () => {
    const tty = testCtx({
      flags: { url: d.url, apiKey: d.ownerKey },
      isTTY: true,
      env: { NO_COLOR: '1', COLUMNS: '140' },
    })
    await runAnalyticsFunnel({ game: game.id, steps: STEPS }, tty.ctx)
    const lines = tty.out.text.split('\n')
    expect(lines.find((l) => l.includes('level_complete:level=3'))).toMatch(/50%.*66\.7%.*3m 0s.*█{15}(?!█)/)
    expect(lines.find((l) => l.includes('app_install'))).toContain('█'.repeat(30))
    // Narrower terminals: shorter bars, never cut (they keep their proportions); none when the
    // figures leave too little room, and the figures stay whole.
    const at = async (columns: number) => {
      const narrow = testCtx({
        flags: { url: d.url, apiKey: d.ownerKey },
        isTTY: true,
        env: { NO_COLOR: '1', COLUMNS: String(columns) },
      })
      await runAnalyticsFunnel({ game: game.id, steps: STEPS }, narrow.ctx)
      const rows = narrow.out.text.split('\n').filter((l) => /^\d /.test(l))
      expect(rows.every((l) => l.length <= columns && !l.includes('…'))).toBe(true)
      return rows.map((l) => (/█+/.exec(l)?.[0] ?? '').length)
    }
    const bars = await at(100)
    expect(bars[0]).toBeGreaterThan(10)
    expect(bars[0]).toBeLessThan(30)
    expect(bars[2]).toBe(Math.round(bars[0]! / 2))
    expect(await at(80)).toEqual([0, 0, 0])

    const piped = as({ json: false })
    await runAnalyticsFunnel({ game: game.id, steps: STEPS, groupBy: 'source' }, piped.ctx)
    expect(piped.out.text).toBe(
      [
        'GROUP\tSTEP\tEVENT\tPLAYERS\tCONVERSION\tFROM PREVIOUS\tMEDIAN SECONDS',
        'ads\t1\tapp_install\t2\t1\t1\t',
        'ads\t2\tlevel_start\t2\t1\t1\t600',
        'ads\t3\tlevel_complete:level=3\t1\t0.5\t0.5\t120',
        '(none)\t1\tapp_install\t2\t1\t1\t',
        '(none)\t2\tlevel_start\t1\t0.5\t0.5\t600',
        '(none)\t3\tlevel_complete:level=3\t1\t0.5\t1\t240',
        '',
      ].join('\n'),
    )
  })

  it('grouped on a terminal: the whole funnel first, then each group', async () => {
    const tty = testCtx({
      flags: { url: d.url, apiKey: d.ownerKey },
      isTTY: true,
      env: { NO_COLOR: '1', COLUMNS: '140' },
    })
    await runAnalyticsFunnel({ game: game.id, steps: STEPS, groupBy: 'source' }, tty.ctx)
    const lines = tty.out.text.split('\n')
    // Each table: its heading, then its step rows (players of step 1, 2, 3).
    const tables = ['All players', 'ads', '(none)'].map((heading) => {
      const at = lines.indexOf(heading)
      expect(at, heading).toBeGreaterThanOrEqual(0)
      const rows = lines.slice(at + 2, at + 5)
      return [at, rows.map((l) => Number(/^\d\s+\S+\s+(\d+)/.exec(l)?.[1]))] as const
    })
    expect(tables.map(([, players]) => players)).toEqual([
      [4, 3, 2],
      [2, 2, 1],
      [2, 1, 1],
    ])
    expect(tables.map(([at]) => at)).toEqual([...tables.map(([at]) => at)].sort((a, b) => a - b))
    expect(tables[0]![0]).toBe(0)
  })

  it('the whole CLI: --steps is required, --window and --group-by take their choices only; the API refuses one step', async () => {
    const base = ['--url', d.url, '--api-key', d.ownerKey, 'analytics', 'funnel', game.id]
    const ok = await cli([...base, '--steps', STEPS, '--window', '7d', '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    expect((JSON.parse(ok.stdout) as Funnel).data).toHaveLength(3)
    expect((await cli(base)).code).toBe(2)
    expect((await cli([...base, '--steps', STEPS, '--window', '2d'])).code).toBe(2)
    expect((await cli([...base, '--steps', STEPS, '--group-by', 'device'])).code).toBe(2)
    const one = await cli([...base, '--steps', 'app_install'])
    expect(one.code).toBe(1)
    expect(one.stderr).toContain('steps')
  })
})

describe('linkctl analytics retention --group-by --return-event', () => {
  it('one cohort list per group, a GROUP column; retained by one event type', async () => {
    const piped = as({ json: false })
    await runAnalyticsRetention({ game: game.id, groupBy: 'source' }, piped.ctx)
    const lines = piped.out.text.split('\n')
    expect(lines[0]).toMatch(/^SOURCE\tCOHORT\tSIZE\tD0/)
    expect(lines.slice(1, 3).map((l) => l.split('\t').slice(0, 3).join(' '))).toEqual([
      expect.stringMatching(/^ads \d{4}-\d{2}-\d{2} 2$/),
      expect.stringMatching(/^\(none\) \d{4}-\d{2}-\d{2} 2$/),
    ])
    const j = as()
    await runAnalyticsRetention({ game: game.id, returnEvent: 'level_complete' }, j.ctx)
    expect((JSON.parse(j.out.text) as Retention).data[0]!.days.d0).toEqual({
      retained: 2,
      percentage: 50,
      band: 'green',
    })
  })

  it('an empty --return-event (an unset variable) is refused, not read as "any event"', async () => {
    const r = await cli(['analytics', 'retention', game.id, '--return-event', ''], {
      env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey },
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: --return-event must start with a letter/)
    expect(r.stdout).toBe('')
  })
})
