/**
 * The Fraud screen: figures, the live feed, help and scopes against the fake client; reviews, rule
 * toggles and priority, the blocklist and the daemon's refusals against a real linkd.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient } from './fake-client.js'
import { makeFraudEvent } from './fake-fraud-skan.js'
import { frameWhere, frameWith, KEY, press, renderTui, resize } from './harness.js'
import { fraudEvent, gameIdOf, seedFraud } from '../support/fraud.js'
import { newOrg, renderOnDaemon, useDaemon, type Org } from './tui-daemon.js'

afterEach(() => cleanup())

const RIGHT = '\x1b[C'

async function openGame(client = new FakeClient()) {
  const app = renderTui({ client, initialScreen: 'fraud' })
  resize(app, 80, 24)
  await frameWith(app, '3 games', 'Game 1')
  await press(app, KEY.enter)
  await frameWith(app, 'Fraud of Game 1 (game-1)', 'events analyzed')
  return app
}

describe('fraud screen, rendering', () => {
  it('shows the dashboard figures and the live feed, newest first, marking the events that arrive, in 80x24', async () => {
    const client = new FakeClient()
    const app = await openGame(client)
    const frame = await frameWith(app, '2 fraud events, newest first · 0 new (●)')
    expect(frame).toContain('12,345 events analyzed · 120 threats (100 blocked, 20 flagged)')
    expect(frame).toContain('fraud rate 0.97% · false positives 25% · detection 2.5 µs an event')
    expect(frame).toContain('blocked now: 4 IPs, 1 device')
    expect(frame).toContain('by threat: bot_detection 90 · revenue_anomaly 23 · click_injection 7')
    expect(frame).toMatch(
      /10:02:00\s+player_2\s+revenue_anomaly\s+0\.91\s+detected[\s\S]*10:01:00\s+player_1\s+bot_detection/,
    )
    client.fraudData.events.unshift(makeFraudEvent(3, { playerId: 'player_new' }))
    app.refresh()
    const fresh = await frameWith(app, '3 fraud events, newest first · 1 new (●)')
    expect(fresh).toMatch(/● 10:03:00\s+player_new/)
    expect(fresh).not.toMatch(/● 10:02:00/)
    const lines = fresh.split('\n')
    expect(lines.length).toBeLessThanOrEqual(24)
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80)
  })

  it('a review goes to the event chosen, though new events pushed its row down meanwhile', async () => {
    const client = new FakeClient()
    const reviewed: string[] = []
    client.fraud.review = (_game, id, review) => {
      reviewed.push(`${id} ${review}`)
      return Promise.resolve({ ...client.fraudData.events.find((e) => e.id === id)!, review })
    }
    const app = await openGame(client)
    await frameWith(app, '2 fraud events, newest first')
    await press(app, 'j')
    // The second row, newest first: player_1's event.
    const chosen = client.fraudData.events.find((e) => e.playerId === 'player_1')!
    client.fraudData.events.unshift(makeFraudEvent(3, { playerId: 'player_new' }))
    app.refresh()
    await frameWith(app, '3 fraud events, newest first · 1 new (●)')
    await press(app, 'f')
    await frameWith(app, `${chosen.id} (player player_1) reviewed: fraud`)
    expect(reviewed).toEqual([`${chosen.id} fraud`])
  })

  it("o switches the feed to the Log rules' records (status logged) and back", async () => {
    const client = new FakeClient()
    const app = await openGame(client)
    const threats = await frameWith(app, '2 fraud events, newest first', 'o logged')
    expect(threats).not.toContain('watched_3')
    await press(app, 'o')
    const logged = await frameWith(app, '1 logged record, newest first', 'o threats')
    expect(logged).toMatch(/watched_3\s+-\s+0\.\d+\s+logged/)
    await press(app, 'o')
    expect(await frameWith(app, '2 fraud events, newest first')).not.toContain('watched_3')
  })

  it('? lists every key of the screen within 80x24', async () => {
    const app = await openGame()
    await press(app, '?')
    const help = await frameWith(app, 'Keys of Fraud')
    for (const key of ['l / f', 'Space or Enter', '+ / -', 'a ', 'd ', 'Esc', '←/→', 'q / Ctrl-C'])
      expect(help).toContain(key)
    expect(help).toContain('blocklist: remove the entry after y')
    expect(help).toContain('need the scope fraud:write')
    const lines = help.split('\n')
    expect(lines.length).toBeLessThanOrEqual(24)
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80)
  })

  it('a game with fraud off says so and how to turn it on; Esc goes back', async () => {
    const app = renderTui({ initialScreen: 'fraud' })
    await frameWith(app, '3 games')
    await press(app, 'j', 'j', KEY.enter)
    await frameWith(
      app,
      'Fraud detection is off for Game 3: turn it on with linkctl games update game-3 --fraud',
    )
    await press(app, KEY.escape)
    await frameWith(app, '3 games')
  })

  it('a device fingerprint its cell cuts is shown whole under the blocklist, wrapped within 80 columns', async () => {
    const client = new FakeClient()
    const fingerprint = `fp-${'0123456789abcdef'.repeat(15)}-end` // 247 characters
    client.fraudData.blocked.push({
      ...client.fraudData.blocked[0]!,
      id: 'blk_2',
      type: 'device',
      value: fingerprint,
      reason: 'farm',
    })
    const app = await openGame(client)
    await press(app, RIGHT, RIGHT)
    // The IP selected: its value is whole in its cell, nothing under the table.
    const ip = await frameWith(app, '2 blocked')
    expect(ip).toMatch(/ip\s+198\.51\.100\.9\s+relay/)
    expect(ip).not.toContain('-end')
    await press(app, 'j')
    const frame = await frameWith(app, '-end')
    const lines = frame.split('\n')
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80)
    expect(lines.length).toBeLessThanOrEqual(24)
    // The row keeps its cut cell; the lines under the table give the whole value, in order.
    expect(lines.find((l) => l.startsWith('device '))).toMatch(/…/)
    const start = lines.findIndex(
      (l) => l.startsWith(`device ${fingerprint.slice(0, 20)}`) && !l.includes('…'),
    )
    expect(start).toBeGreaterThan(0)
    expect(lines.slice(start, start + 4).join('')).toBe(`device ${fingerprint}`)
  })

  it('a key without fraud:write sees the figures but its write keys do nothing', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'fraud', scopes: new Set(['fraud:read', 'games:read']) })
    await frameWith(app, '3 games')
    await press(app, KEY.enter)
    await frameWith(app, '2 fraud events')
    await press(app, 'l', RIGHT, ' ', '+', RIGHT, 'a', 'd')
    await frameWith(app, '1 blocked')
    expect(app.lastFrame()).not.toContain('Block an IP')
    expect(client.calls.filter((c) => /review|updateRule|block |unblock/.test(c))).toEqual([])
  })
})

const daemon = useDaemon()

/** A game with fraud on in a new organization, and the TUI at 80x24 on its Fraud view. */
async function gameOnDaemon(seed: (gameId: string, api: Org['api']) => Promise<void> = async () => {}) {
  const d = daemon()
  const org = await newOrg(d)
  await org.api.games.create({
    name: 'Space Race',
    slug: 'space-race',
    platform: 'ios',
    modules: { fraud: true },
  })
  await seed(await gameIdOf(d.testApp, 'space-race', org.orgId), org.api)
  const app = renderOnDaemon(d, org.ownerKey, { initialScreen: 'fraud' })
  resize(app, 80, 24)
  await frameWith(app, '1 game', 'Space Race')
  await press(app, KEY.enter)
  await frameWith(app, 'Fraud of Space Race (space-race)', 'events analyzed')
  return { d, org, app }
}

describe('fraud screen against linkd', () => {
  it('reviews the selected event as legitimate (l) or fraud (f)', async () => {
    const { org, app } = await gameOnDaemon((gameId) =>
      seedFraud(daemon().testApp, gameId, [fraudEvent(daemon().testApp, gameId, { playerId: 'player_1' })]),
    )
    await frameWith(app, '1 fraud event')
    await press(app, 'l')
    const [event] = (await org.api.fraud.events('space-race')).data
    await frameWith(app, `${event!.id} (player player_1) reviewed: legitimate`)
    expect(app.sent('fraud.review')).toEqual([['space-race', event!.id, 'legitimate']])
    await press(app, 'f')
    await frameWith(app, 'reviewed: fraud')
    expect((await org.api.fraud.events('space-race')).data[0]?.review).toBe('fraud')
  })

  it('shows control characters in data as text: a player id cannot retitle or clear the terminal', async () => {
    const evil = 'evil\x1b]0;pwned\x07\x1b[2J'
    const { org, app } = await gameOnDaemon((gameId) =>
      seedFraud(daemon().testApp, gameId, [fraudEvent(daemon().testApp, gameId, { playerId: evil })]),
    )
    await frameWith(app, '1 fraud event')
    await press(app, 'l')
    const [event] = (await org.api.fraud.events('space-race')).data
    expect(event?.playerId).toBe(evil)
    const frame = await frameWith(
      app,
      `${event!.id} (player evil\\x1b]0;pwned\\x07\\x1b[2J) reviewed: legitimate`,
    )
    expect(frame).not.toContain('\x1b')
    expect(frame).not.toContain('\x07')
  })

  it('toggles a rule with space and changes its priority with + and -, showing the API’s error in place', async () => {
    // Two rules of the test's own in place of the templates, listed in the order they run.
    const ids: Record<string, string> = {}
    const { org, app } = await gameOnDaemon(async (_, api) => {
      for (const rule of (await api.fraud.rules('space-race', { limit: 100 })).data)
        await api.fraud.deleteRule('space-race', rule.id)
      const rule = { action: 'block', operator: 'gte', value: 0.8 } as const
      ids['Block Bot Traffic'] = (
        await api.fraud.createRule('space-race', {
          ...rule,
          name: 'Block Bot Traffic',
          field: 'score.bot_detection',
          priority: 500,
        })
      ).id
      daemon().clock.advance(1000)
      ids['Rate Limit Abuse'] = (
        await api.fraud.createRule('space-race', {
          ...rule,
          name: 'Rate Limit Abuse',
          field: 'score.rate_limit',
          priority: 2,
        })
      ).id
    })
    const ruleOf = async (name: string) =>
      (await org.api.fraud.rules('space-race', { limit: 100 })).data.find((r) => r.id === ids[name])
    await press(app, RIGHT)
    const frame = await frameWith(app, '2 rules, run by priority (high first) · Space on/off · +/- priority')
    expect(Math.max(...frame.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80)
    await press(app, ' ')
    await frameWith(app, 'Block Bot Traffic disabled')
    await frameWhere(app, (f) => /Block Bot Traffic .*\s+500\s+no/.test(f), 'the rule shown disabled')
    expect(app.sent('fraud.updateRule')).toEqual([
      ['space-race', ids['Block Bot Traffic'], { enabled: false }],
    ])
    expect((await ruleOf('Block Bot Traffic'))?.enabled).toBe(false)
    await press(app, KEY.enter)
    await frameWith(app, 'Block Bot Traffic enabled')
    await frameWhere(app, (f) => /Block Bot Traffic .*\s+500\s+yes/.test(f), 'the rule shown enabled')
    await press(app, '+')
    await frameWith(app, 'Block Bot Traffic: priority 501')
    expect((await ruleOf('Block Bot Traffic'))?.priority).toBe(501)
    // The last rule down to 1, then to 0: the daemon refuses it.
    await press(app, 'G', '-')
    await frameWith(app, 'Rate Limit Abuse: priority 1')
    // The next step counts from the priority shown: wait for the rules read again.
    await frameWhere(app, (f) => /Rate Limit Abuse .*\s+1\s+yes/.test(f), 'priority 1 in the table')
    await press(app, '-')
    await frameWith(app, 'Priority of Rate Limit Abuse to 0 failed: priority must be at least 1 (HTTP 400)')
    expect((await ruleOf('Rate Limit Abuse'))?.priority).toBe(1)
  })

  it('lists the rules in the order they run, and the cursor follows a rule its priority moves', async () => {
    // The six templates (one creation time) and two rules of the test's own, one of them first by priority.
    const { org, app } = await gameOnDaemon(async (_, api) => {
      const rule = { action: 'flag', field: 'country', operator: 'eq' } as const
      daemon().clock.advance(1000)
      await api.fraud.createRule('space-race', { ...rule, name: 'Country XX', value: 'XX', priority: 900 })
      await api.fraud.createRule('space-race', { ...rule, name: 'Country YY', value: 'YY' })
    })
    await press(app, RIGHT)
    await frameWith(app, '8 rules, run by priority (high first)')
    const runOrder = [
      'Country XX',
      'Block Bot Traffic',
      'Block Click Injection',
      'Flag Device Farms',
      'Rate Limit Abuse',
      'Block Emulators',
      'Flag Revenue Anomalies',
      'Country YY',
    ]
    const shown = (frame: string) =>
      frame
        .split('\n')
        .map((line) => runOrder.find((name) => new RegExp(`^${name} +(block|flag) `).test(line)))
        .filter(Boolean)
    expect(shown(app.lastFrame() ?? '')).toEqual(runOrder)
    expect((await org.api.fraud.rules('space-race', { limit: 100 })).data.map((r) => r.name)).toEqual(
      runOrder,
    )
    // Country YY (last) to 101: it runs second now, and stays selected: the next + is its too.
    await press(app, 'G', '+')
    await frameWith(app, 'Country YY: priority 101')
    await frameWhere(app, (f) => shown(f)[1] === 'Country YY', 'Country YY second')
    await press(app, '+')
    await frameWith(app, 'Country YY: priority 102')
    expect(shown(app.lastFrame() ?? '')).toEqual(['Country XX', 'Country YY', ...runOrder.slice(1, 7)])
  })

  it('adds a blocklist entry (the API’s 400 shown) and removes one after y', async () => {
    const { org, app } = await gameOnDaemon()
    await press(app, RIGHT, RIGHT)
    await frameWith(app, '0 blocked')
    await press(app, 'a')
    await frameWith(app, 'Block an IP address or a device')
    await press(app, KEY.enter, 'not-an-ip', KEY.enter, 'scraper', KEY.enter)
    await frameWith(app, '(HTTP 400)', 'not-an-ip')
    expect((await org.api.fraud.blocklist('space-race')).total).toBe(0)
    await press(app, KEY.up)
    for (let i = 0; i < 'not-an-ip'.length; i++) await press(app, KEY.backspace)
    await press(app, '203.0.113.50', KEY.enter, KEY.enter)
    await frameWith(app, 'ip 203.0.113.50 blocked until', '1 blocked')
    const [entry] = (await org.api.fraud.blocklist('space-race')).data
    expect(entry).toMatchObject({ type: 'ip', value: '203.0.113.50', reason: 'scraper' })
    await press(app, 'd')
    await frameWith(app, 'Remove ip 203.0.113.50 from the blocklist?', '[y/N]')
    await press(app, KEY.escape)
    await frameWith(app, 'Fraud of Space Race')
    expect((await org.api.fraud.blocklist('space-race')).total).toBe(1)
    await press(app, 'd', 'y')
    await frameWith(app, 'ip 203.0.113.50 removed from the blocklist', '0 blocked')
    expect(app.sent('fraud.unblock')).toEqual([['space-race', entry!.id]])
    expect((await org.api.fraud.blocklist('space-race')).total).toBe(0)
  })
})
