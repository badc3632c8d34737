/**
 * The Games screen: a game's figures, sparklines and retention against the fake client; the range
 * asked of a real linkd.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient } from './fake-client.js'
import { frameWith, KEY, press, refreshUntil, renderTui } from './harness.js'
import { newOrg, renderOnDaemon, useDaemon } from './tui-daemon.js'
import type { Game, GameWithSecrets } from '../../src/contract/games.js'
import { accepted, batch, event, send } from '../support/gaming.js'

afterEach(() => cleanup())

describe('games screen, rendering', () => {
  it('opens a game: DAU, MAU, revenue by type, ARPU, session, sparklines, retention, countries, leaderboard, event types', async () => {
    const app = renderTui({ initialScreen: 'games' })
    await frameWith(app, '3 games', 'Game 2')
    await press(app, 'j', KEY.enter)
    const frame = await frameWith(app, 'Game 2 (game-2)', 'DAU 321')
    expect(frame).toContain('DAU 321 · MAU 4567 · ARPU 0.27 USD · ARPPU 12.34 USD · session 6m 52s')
    expect(frame).toContain('Revenue 1234.50 USD: IAP 1000.00 USD · ads 200.50 USD · subscriptions 34.00 USD')
    expect(frame).toContain('Revenue a day   ▃▁▅█')
    expect(frame).toMatch(/2026-11-20\s+100\s+100%\s+42%\s+20%/)
    expect(frame).toMatch(/2026-11-21\s+80\s+100%\s+10%/)
    expect(frame).toMatch(/BR\s+120 pl 700\.00 USD/)
    // A country not known reads as in linkctl.
    expect(frame).toMatch(/Unknown\s+3 pl 0\.00 USD/)
    expect(frame).toContain('1. whale_1 499.99 USD')
    // Event types: custom names by name, marked *.
    expect(frame).toContain('Events (* custom)')
    expect(frame).toMatch(/ level_start\s+900/)
    expect(frame).toMatch(/\*boss_fight\s+400/)
    expect(frame).toContain('no attributed installs')
  })

  it('the selection stays on its game when a game made elsewhere is listed above it', async () => {
    const app = renderTui({ initialScreen: 'games' })
    await frameWith(app, '3 games', 'Game 2')
    await press(app, 'j')
    app.client.state.newerGames.unshift('Space Race')
    app.refresh()
    await frameWith(app, '4 games', 'Space Race')
    // Enter opens the game selected, not the one that took its row; a move goes on from there.
    await press(app, KEY.enter)
    await frameWith(app, 'Game 2 (game-2)', 'DAU 321')
    await press(app, KEY.escape)
    await frameWith(app, '4 games')
    await press(app, 'k', KEY.enter)
    await frameWith(app, 'Game 1 (game-1)', 'DAU 321')
  })

  it('Links: the links that brought the most installs, by their short URL, with the revenue of those players', async () => {
    const client = new FakeClient()
    const row = (group: string, shortUrl: string | null, installs: number, revenue: number) => ({
      group,
      shortUrl,
      installs,
      conversions: 1,
      revenue,
      cost: 0,
      commission: 0,
      avgCpa: null,
      avgRoas: null,
    })
    client.state.linkAttribution = [
      row('lnk_few', 'http://s.test/few', 2, 1.5),
      row('sml_most', 'https://go.example/play', 9, 49.95),
      row('lnk_gone', null, 1, 0),
      row('(none)', null, 5, 3),
    ]
    const app = renderTui({ client, initialScreen: 'games' })
    await frameWith(app, '3 games')
    await press(app, KEY.enter)
    const frame = await frameWith(app, 'Links: installs, revenue', 'go.example/play')
    const lines = frame.split('\n')
    const at = (text: string) => lines.findIndex((l) => l.includes(text))
    // Most installs first; a deleted link (no short URL) by its id.
    expect(frame).toMatch(/ 9 {2}49\.95 USD {2}go\.example\/play/)
    expect(frame).toMatch(/ 2 {3}1\.50 USD {2}s\.test\/few/)
    expect(frame).toMatch(/ 1 {3}0\.00 USD {2}lnk_gone/)
    // The installs without a link: the (none) row, among the others by installs.
    expect(frame).toMatch(/ 5 {3}3\.00 USD {2}\(none\)/)
    expect(at('(none)')).toBeLessThan(at('s.test/few'))
    expect(at('go.example/play')).toBeLessThan(at('s.test/few'))
    expect(at('s.test/few')).toBeLessThan(at('lnk_gone'))
    expect(
      client.calls.some((c) => c.startsWith('analytics.gameAttribution game-1') && c.endsWith(' link')),
    ).toBe(true)
  })

  it('event types: the named ones whole, a longer custom name cut with …', async () => {
    const client = new FakeClient()
    const row = (eventType: string, custom: boolean, count: number) => ({
      eventType,
      custom,
      count,
      uniquePlayers: 1,
      percentage: 25,
    })
    client.analytics.gameEvents = async () => ({
      data: [
        row('achievement_unlocked', false, 40),
        row('subscription_cancel', false, 30),
        row('tutorial_complete', false, 20),
        row('boss_fight_of_the_third_dungeon_level', true, 10),
      ],
      totals: { count: 100 },
      range: { startDate: '', endDate: '' },
    })
    const app = renderTui({ client, initialScreen: 'games' })
    await frameWith(app, '3 games')
    await press(app, KEY.enter)
    const frame = await frameWith(app, 'Events (* custom)', 'achievement')
    expect(frame).toMatch(/ achievement_unlocked +40/)
    expect(frame).toMatch(/ subscription_cancel +30/)
    expect(frame).toMatch(/ tutorial_complete +20/)
    expect(frame).toMatch(/\*boss_fight_of_the_t… +10/)
  })

  it('a paused game says so in its heading: its figures stopped because events are refused', async () => {
    const client = new FakeClient()
    const { list, get } = client.games
    const paused = (g: Game): Game => (g.id === 'game-1' ? { ...g, status: 'paused' } : g)
    client.games.list = async (q) => {
      const p = await list(q)
      return { ...p, data: p.data.map(paused) }
    }
    client.games.get = async (id) => paused(await get(id))
    const app = renderTui({ client, initialScreen: 'games' })
    await frameWith(app, '3 games')
    await press(app, KEY.enter)
    await frameWith(app, 'Game 1 (game-1) · paused: events refused · ')
    await press(app, KEY.escape, 'j', KEY.enter)
    const active = await frameWith(app, 'Game 2 (game-2) · ', 'DAU 321')
    expect(active).not.toContain('events refused')
  })

  it('a game with analytics off says so and how to turn it on, overview and funnel alike; Esc goes back', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'games' })
    await frameWith(app, '3 games')
    await press(app, 'j', 'j', KEY.enter)
    const off = 'Gaming Analytics is off for Game 3: turn it on with linkctl games update game-3 --analytics'
    await frameWith(app, off)
    await press(app, 'f')
    await frameWith(app, off)
    expect(client.calls.some((c) => c.startsWith('analytics.') && c.includes('game-3'))).toBe(false)
    await press(app, KEY.escape)
    await frameWith(app, '3 games')
  })

  it('a key without analytics:read sees the games and which scope their figures need', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'games', scopes: new Set(['games:read']) })
    await frameWith(app, '3 games')
    await press(app, KEY.enter)
    await frameWith(app, 'The figures of Game 1 need the scope analytics:read')
    expect(client.calls.some((c) => c.startsWith('analytics.game'))).toBe(false)
  })
})

const daemon = useDaemon({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })

describe('games screen against linkd', () => {
  it('[ and ] change the range between 7, 30 and 90 days, each ending on the daemon’s today', async () => {
    const org = await newOrg(daemon())
    await org.api.games.create({ name: 'Space Race', slug: 'space-race', platform: 'ios' })
    const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'games' })
    await frameWith(app, '1 game')
    await press(app, KEY.enter)
    await frameWith(app, '(30 days)')
    await press(app, ']')
    await frameWith(app, '(90 days)')
    await press(app, '[', '[')
    await frameWith(app, '(7 days)')
    // The frame shows the new range before its figures are fetched: wait for the fetch.
    const ranges = () => app.sent('analytics.gameOverview').map(([, range]) => range)
    await vi.waitFor(() => expect(new Set(ranges().map((r) => JSON.stringify(r))).size).toBe(3), 8_000)
    // The daemon's clock reads 2026-11-21.
    expect(ranges()).toEqual(
      expect.arrayContaining([
        { startDate: '2026-10-23', endDate: '2026-11-21' },
        { startDate: '2026-08-24', endDate: '2026-11-21' },
        { startDate: '2026-11-15', endDate: '2026-11-21' },
      ]),
    )
    // The daemon took each range: figures, no error.
    await frameWith(app, 'DAU')
    expect(app.lastFrame()).not.toContain('HTTP 400')
    await press(app, KEY.escape)
    await frameWith(app, '1 game')
  })
})

describe('the funnel pane against linkd', () => {
  /** A new organization of the daemon with one iOS game. */
  async function withGame(name: string, slug: string, rawRetentionDays?: number) {
    const d = daemon()
    const org = await newOrg(d)
    const game = (await org.api.games.create({
      name,
      slug,
      platform: 'ios',
      ...(rawRetentionDays ? { rawRetentionDays } : {}),
    })) as GameWithSecrets
    return { d, org, game, t: d.testApp }
  }
  /** The TUI on the games screen: the game opened (its overview over 30 days), then its funnel. */
  async function openFunnel(d: ReturnType<typeof daemon>, ownerKey: string) {
    const app = renderOnDaemon(d, ownerKey, { initialScreen: 'games' })
    await frameWith(app, '1 game')
    await press(app, KEY.enter)
    await frameWith(app, 'DAU', '(30 days)')
    await press(app, 'f')
    return app
  }

  it('f shows the funnel as bars with conversions; e edits the steps (a refusal shown under them); w the window', async () => {
    const { d, org, game, t } = await withGame('Space Race', 'space-race')
    // Four installs, two first sessions, one purchase.
    const e = (player: string, type: string, data: Record<string, unknown> = {}) =>
      event(t, { player_id: player, session_id: player, event_type: type, data })
    accepted(
      await send(
        t,
        batch(t, [
          ...['a', 'b', 'c', 'd'].map((p) => e(p, 'app_install')),
          e('a', 'session_start'),
          e('b', 'session_start'),
          e('a', 'purchase', { amount: 0.99, currency: 'USD' }),
        ]),
        { game, orgId: org.orgId },
      ),
    )
    const app = await openFunnel(d, org.ownerKey)
    const frame = await frameWith(app, 'Funnel of Space Race', 'purchase')
    expect(frame).toMatch(/ 1 app_install\s+█{5,}\s+4\s+100%\s+100%/)
    expect(frame).toMatch(/ 2 session_start\s+█+\s+2\s+50%\s+50%/)
    expect(frame).toMatch(/ 3 purchase\s+█+\s+1\s+25%\s+50%/)
    expect(app.sent('analytics.gameFunnel').at(-1)).toEqual([
      expect.objectContaining({
        gameId: 'space-race',
        steps: 'app_install,session_start,purchase',
        window: '1d',
      }),
    ])

    await press(app, 'e')
    await frameWith(app, 'Funnel steps of Space Race', 'steps: app_install,session_start,purchase')
    // One step is refused by the API: its message under the field, the form stays.
    await press(app, '\x15', 'app_install', KEY.enter)
    await frameWith(app, '2 to 10 comma-separated steps')
    await press(app, ',purchase', KEY.enter)
    const edited = await frameWith(app, 'Funnel of Space Race', ' 2 purchase')
    expect(edited).toMatch(/ 2 purchase\s+█+\s+1\s+25%\s+25%/)
    expect(edited).not.toContain('session_start')

    await press(app, 'w')
    await frameWith(app, 'window 7d')
    expect(app.sent('analytics.gameFunnel').at(-1)).toEqual([
      expect.objectContaining({ steps: 'app_install,purchase', window: '7d' }),
    ])
    // Refresh ticks do not fetch the funnel again (a refresh would ask at once); r does.
    const asked = app.sent('analytics.gameFunnel').length
    app.refresh()
    app.refresh()
    expect(app.sent('analytics.gameFunnel')).toHaveLength(asked)
    await press(app, 'r')
    await vi.waitFor(() => expect(app.sent('analytics.gameFunnel')).toHaveLength(asked + 1))
    // f again: back to the overview; Esc: back to the games.
    await press(app, 'f')
    await frameWith(app, 'DAU')
    await press(app, KEY.escape)
    await frameWith(app, '1 game')
  })

  it('the default steps are the game’s own 3 most frequent event types, the one most players sent first', async () => {
    const { d, org, game, t } = await withGame('No Installs', 'no-installs')
    const e = (player: string, type: string) =>
      event(t, { player_id: player, session_id: player, event_type: type })
    // No app_install: sessions (3 players), boss fights (2 players, 4 times), a tutorial (1) and
    // session ends (left out: a session's end is no step towards anything).
    accepted(
      await send(
        t,
        batch(t, [
          ...['a', 'b', 'c'].flatMap((p) => [e(p, 'session_start'), e(p, 'session_end')]),
          ...['a', 'a', 'b', 'b'].map((p) => e(p, 'boss_fight')),
          e('a', 'tutorial_complete'),
        ]),
        { game, orgId: org.orgId },
      ),
    )
    const app = await openFunnel(d, org.ownerKey)
    const frame = await frameWith(app, 'Funnel of No Installs', 'tutorial_complete')
    expect(frame).toMatch(/ 1 session_start\s+█+\s+3\s+100%/)
    expect(frame).toMatch(/ 2 boss_fight\s+█+\s+2\s+66.7%/)
    expect(frame).toMatch(/ 3 tutorial_complete\s+█+\s+1\s+33.3%\s+50%/)
    expect(frame).not.toContain('No player did step 1')
    await press(app, 'e')
    await frameWith(app, 'steps: session_start,boss_fight,tutorial_complete')
  })

  it('a funnel whose first step no player did names that step and says how to change the steps', async () => {
    const { d, org, game, t } = await withGame('No Installs', 'no-installs')
    accepted(
      await send(t, batch(t, [event(t, { player_id: 'a', session_id: 'a', event_type: 'session_start' })]), {
        game,
        orgId: org.orgId,
      }),
    )
    const app = await openFunnel(d, org.ownerKey)
    await frameWith(app, 'No player did step 1 (app_install) in the range: e changes the steps.')
  })

  it('a game that keeps raw events 7 days: the 30-day funnel reads those 7 days, and still once kept 30 (the daemon picks the start)', async () => {
    const { d, org, game, t } = await withGame('Short Memory', 'short-memory', 7)
    accepted(
      await send(t, batch(t, [event(t, { player_id: 'a', event_type: 'app_install' })]), {
        game,
        orgId: org.orgId,
      }),
    )
    const app = await openFunnel(d, org.ownerKey)
    // The daemon's clock reads 2026-11-21.
    const frame = await frameWith(app, 'Funnel of Short Memory', 'app_install')
    expect(frame).toContain('· 7 days ·')
    expect(frame).toContain('2026-11-15 to 2026-11-21 (raw events are kept 7 days)')
    expect(frame).toMatch(/ 1 app_install\s+█+\s+1\s+100%/)
    expect(app.lastFrame()).not.toContain('HTTP 400')
    // Kept 30 days from now on (changed elsewhere while the game is open): the open game is read
    // again each refresh, and the days the 7 already removed stay gone. The 30 days asked are
    // refused (a 400 on startDate): the pane lets the daemon choose and shows the range it read.
    await org.api.games.update('short-memory', { rawRetentionDays: 30 })
    const asked = () => app.sent('analytics.gameFunnel').map((a) => a[0] as { startDate?: string })
    await refreshUntil(app, () => asked().length === 3, 'the funnel asked again')
    expect(asked()[1]).toMatchObject({ startDate: '2026-10-23', endDate: '2026-11-21' })
    expect(asked()[2]).toMatchObject({ endDate: '2026-11-21' })
    expect(asked()[2]).not.toHaveProperty('startDate')
    await vi.waitFor(() => expect(app.calls.every((c) => c.settled)).toBe(true))
    await frameWith(app, '2026-11-15 to 2026-11-21 (no raw events kept before 2026-11-15)')
    expect(app.lastFrame()).toContain('· 7 days ·')
    expect(app.lastFrame()).toMatch(/ 1 app_install\s+█+\s+1\s+100%/)
    expect(app.lastFrame()).not.toContain('HTTP 400')
    // Editing the steps asks the same way: no refusal under the form.
    await press(app, 'e')
    await frameWith(app, 'Funnel steps of Short Memory')
    await press(app, KEY.enter)
    await frameWith(app, 'no raw events kept before 2026-11-15')
    expect(app.lastFrame()).not.toContain('HTTP 400')
  })
})
