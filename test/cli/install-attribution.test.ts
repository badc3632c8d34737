/**
 * Install attribution through linkctl against the real daemon (in-memory SQLite or test:pg, fake
 * clock): `games create|update --attribution-window`, `analytics attribution --group-by link` and
 * `links stats` / `smart-links stats` with installs and the revenue of the players a link brought.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Game, GameWithSecrets } from '../../src/contract/games.js'
import type { AttributionReport } from '../../src/contract/gaming-revenue.js'
import type { LinkAnalytics } from '../../src/contract/click-analytics.js'
import type { SmartLink } from '../../src/contract/smart-links.js'
import { runAnalyticsAttribution } from '../../src/cli/commands/analytics/attribution.js'
import { runAnalyticsPlayer } from '../../src/cli/commands/analytics/player.js'
import { runEventsSend } from '../../src/cli/commands/events.js'
import { runGamesCreate } from '../../src/cli/commands/games/create.js'
import { runGamesUpdate } from '../../src/cli/commands/games/update.js'
import { runLinksStats } from '../../src/cli/commands/links/stats.js'
import { runSmartLinksCreate } from '../../src/cli/commands/smart-links/create.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { DAY } from '../support/redirect.js'
import { cli, tempDir, testCtx } from '../support/cli.js'

const PLAY = 'https://play.google.com/store/apps/details?id=com.example.game'
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36'

let d: TestDaemon
let dir: ReturnType<typeof tempDir>
beforeAll(async () => {
  // The short domain without a port, so that short URLs answer on the random test port.
  d = await startTestDaemon({ shortDomain: '127.0.0.1' })
  d.clock.set(Date.now())
  dir = tempDir()
})
afterAll(async () => {
  dir.remove()
  await d.close()
})

function as(opts: { json?: boolean; isTTY?: boolean; apiKey?: string } = {}) {
  return testCtx({
    flags: { url: d.url, apiKey: opts.apiKey ?? d.ownerKey },
    json: opts.json ?? true,
    isTTY: opts.isTTY ?? false,
    env: { NO_COLOR: '1' },
  })
}

/** An Android phone's visit of a smart link: the click id in the Play referrer it lands with. */
async function androidClick(shortUrl: string): Promise<string> {
  const res = await fetch(shortUrl, { redirect: 'manual', headers: { 'user-agent': ANDROID } })
  expect(res.status).toBe(302)
  const play = new URL(res.headers.get('location') ?? '')
  const clickId = new URLSearchParams(play.searchParams.get('referrer') ?? '').get('linkd_click')
  expect(clickId).toMatch(/^clk_/)
  return clickId!
}

async function smartLink(apiKey: string, gameId?: string): Promise<SmartLink> {
  const c = as({ apiKey })
  await runSmartLinksCreate({ fallback: 'https://example.com/game', android: PLAY, game: gameId }, c.ctx)
  return JSON.parse(c.out.text) as SmartLink
}

/** The analytics of a link through `links stats --json` (which also flushes the buffered clicks). */
async function stats(id: string): Promise<LinkAnalytics> {
  const c = as()
  await runLinksStats({ ref: id }, c.ctx)
  return JSON.parse(c.out.text) as LinkAnalytics
}

describe('linkctl games --attribution-window', () => {
  it('create sets it, update changes it, the record shows it; outside 1-30 is a usage error (exit 2)', async () => {
    const c = as()
    await runGamesCreate({ name: 'Window', platform: 'android', attributionWindow: 3 }, c.ctx)
    const g = JSON.parse(c.out.text) as GameWithSecrets
    expect(g.attributionWindowDays).toBe(3)
    const fresh = as()
    await runGamesCreate({ name: 'Default window', platform: 'android' }, fresh.ctx)
    expect((JSON.parse(fresh.out.text) as Game).attributionWindowDays).toBe(7)

    const u = as({ json: false })
    await runGamesUpdate({ id: g.id, attributionWindow: 30 }, u.ctx)
    const [labels, values] = u.out.text.split('\n').map((l) => l.split('\t'))
    expect(values?.[labels!.indexOf('ATTRIBUTION WINDOW')]).toBe('30 days')
    for (const days of ['0', '31', 'week']) {
      const r = await cli([
        'games',
        'update',
        g.id,
        '--attribution-window',
        days,
        '--url',
        d.url,
        '--api-key',
        d.ownerKey,
      ])
      expect(r.code, days).toBe(2)
      expect(r.stderr).toContain('--attribution-window')
    }
  })
})

describe('linkctl and the installs a link brought', () => {
  it('attribution --group-by link: the smart link with its short URL, one install and its revenue; stats show them', async () => {
    const g = as()
    await runGamesCreate({ name: 'Space Race', platform: 'android', attributionWindow: 3 }, g.ctx)
    const game = JSON.parse(g.out.text) as GameWithSecrets
    const s = await smartLink(d.ownerKey, game.id)
    // A click five days ago: beyond the game's three-day window.
    d.clock.set(Date.now() - 5 * DAY)
    const stale = await androidClick(s.shortUrl)
    d.clock.set(Date.now())
    const clickId = await androidClick(s.shortUrl)
    const rival = await d.testApp.createOrg('rival')
    const rivalClick = await androidClick((await smartLink(rival.ownerKey)).shortUrl)
    expect((await stats(s.id)).totalClicks).toBe(2)

    const file = join(dir.dir, 'installs.json')
    const install = (player: string, click: string) => ({
      event_type: 'app_install',
      player_id: player,
      session_id: `s-${player}`,
      data: { click_id: click },
    })
    writeFileSync(
      file,
      JSON.stringify([
        install('p1', clickId),
        {
          event_type: 'purchase',
          player_id: 'p1',
          session_id: 's-p1',
          data: { amount: 4.99, currency: 'USD' },
        },
        // Not attributed: the same click again, another organization's click, a click too old.
        install('p2', clickId),
        install('p3', rivalClick),
        install('p4', stale),
      ]),
    )
    const sent = as()
    await runEventsSend({ source: file, game: game.id, sdkKey: game.sdkKey }, sent.ctx)
    expect(JSON.parse(sent.out.text)).toMatchObject({ accepted: 5, rejected: 0 })

    const a = as()
    await runAnalyticsAttribution({ game: game.id, groupBy: 'link' }, a.ctx)
    const report = JSON.parse(a.out.text) as AttributionReport
    const byLink = report.data.filter((r) => /^(lnk|sml)_/.test(r.group))
    expect(byLink).toEqual([
      {
        group: s.id,
        shortUrl: s.shortUrl,
        installs: 1,
        conversions: 1,
        revenue: 4.99,
        cost: 0,
        commission: 0,
        avgCpa: 0,
        avgRoas: null,
      },
    ])

    const piped = as({ json: false })
    await runAnalyticsAttribution({ game: game.id, groupBy: 'link' }, piped.ctx)
    const [header, ...rows] = piped.out.text.trimEnd().split('\n')
    expect(header?.split('\t').slice(0, 3)).toEqual(['LINK', 'SHORT URL', 'INSTALLS'])
    expect(rows).toContain(`${s.id}\t${s.shortUrl}\t1\t1\t4.99\t0.00\t0.00\t0.00\t-`)
    expect(rows.at(-1)).toMatch(/^TOTAL\t\t/)

    // The player's profile names the link and click that brought them; the second player's does not.
    for (const [player, credited] of [
      ['p1', true],
      ['p2', false],
    ] as const) {
      const p = as({ json: false, isTTY: true })
      await runAnalyticsPlayer({ game: game.id, player }, p.ctx)
      expect(new RegExp(`linkId ${s.id},\\s+clickId\\s+${clickId}`).test(p.out.text), player).toBe(credited)
    }

    const a2 = await stats(s.id)
    expect(a2.installs).toBe(1)
    expect(a2.installRevenue).toEqual([{ gameId: game.id, currency: 'USD', installs: 1, revenue: 4.99 }])
    const human = as({ json: false, isTTY: true })
    await runLinksStats({ ref: s.id }, human.ctx)
    expect(human.out.text).toMatch(/INSTALLS\s+1\n/)
    expect(human.out.text).toMatch(/Installs by game\n[^\n]*GAME[^\n]*INSTALLS[^\n]*REVENUE/)
    expect(human.out.text).toMatch(new RegExp(`${game.id}\\s+1\\s+4\\.99 USD`))
    // Through the parser, the smart-links verb says the same.
    const r = await cli(['smart-links', 'stats', s.id, '--url', d.url, '--api-key', d.ownerKey])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^${game.id}\\t1\\t4\\.99\\tUSD$`, 'm'))
  })
})
