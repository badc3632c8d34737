/** The Fraud screen against the fake client: figures, live feed, rule toggles and priority, blocklist. */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient } from './fake-client.js'
import { makeFraudEvent } from './fake-fraud-skan.js'
import { frameWhere, frameWith, KEY, press, renderTui, resize } from './harness.js'

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

describe('fraud screen', () => {
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

  it('reviews the selected event as legitimate (l) or fraud (f)', async () => {
    const client = new FakeClient()
    const app = await openGame(client)
    await frameWith(app, '2 fraud events')
    await press(app, 'j', 'l')
    await frameWith(app, 'fev_1 (player player_1) reviewed: legitimate')
    expect(client.calls).toContain('fraud.review game-1 fev_1 legitimate')
    await press(app, 'f')
    await frameWith(app, 'reviewed: fraud')
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

  it('shows control characters in data as text: a player id cannot retitle or clear the terminal', async () => {
    const client = new FakeClient()
    client.fraudData.events.unshift(makeFraudEvent(3, { playerId: 'evil\x1b]0;pwned\x07\x1b[2J' }))
    const app = await openGame(client)
    await frameWith(app, '3 fraud events')
    await press(app, 'l')
    const frame = await frameWith(app, 'fev_3 (player evil\\x1b]0;pwned\\x07\\x1b[2J) reviewed: legitimate')
    expect(frame).not.toContain('\x1b')
    expect(frame).not.toContain('\x07')
  })

  it('toggles a rule with space and changes its priority with + and -, showing the API’s error in place', async () => {
    const client = new FakeClient()
    const app = await openGame(client)
    await press(app, RIGHT)
    const frame = await frameWith(app, '3 rules, run by priority (high first) · Space on/off · +/- priority')
    expect(frame).toMatch(/Block Bot Traffic\s+block\s+score\.bot_detection gte 0\.8\s+100\s+yes/)
    expect(frame).toMatch(/Rate Limit Abuse\s+block\s+score\.rate_limit gte 0\.9\s+1000\s+no/)
    expect(Math.max(...frame.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80)
    await press(app, ' ')
    await frameWith(app, 'Block Bot Traffic disabled')
    await frameWhere(app, (f) => /Block Bot Traffic .*\s+100\s+no/.test(f), 'the rule shown disabled')
    expect(client.calls).toContain('fraud.updateRule game-1 rule_1 {"enabled":false}')
    await press(app, KEY.enter)
    await frameWith(app, 'Block Bot Traffic enabled')
    await press(app, '+')
    await frameWith(app, 'Block Bot Traffic: priority 101')
    expect(client.calls).toContain('fraud.updateRule game-1 rule_1 {"priority":101}')
    await press(app, 'G', '+')
    const error = await frameWith(app, 'Priority of Rate Limit Abuse to 1001 failed')
    expect(error).toContain('priority: must be 1-1000')
    expect(client.fraudData.rules[2]?.priority).toBe(1000)
  })

  it('adds a blocklist entry (the API’s 400 shown) and removes one after y', async () => {
    const client = new FakeClient()
    const app = await openGame(client)
    await press(app, RIGHT, RIGHT)
    await frameWith(app, '1 blocked', '198.51.100.9')
    await press(app, 'a')
    await frameWith(app, 'Block an IP address or a device')
    await press(app, KEY.enter, 'not-an-ip', KEY.enter, 'scraper', KEY.enter)
    await frameWith(app, 'value: not an IP address')
    await press(app, KEY.up)
    for (let i = 0; i < 'not-an-ip'.length; i++) await press(app, KEY.backspace)
    await press(app, '203.0.113.50', KEY.enter, KEY.enter)
    await frameWith(app, 'ip 203.0.113.50 blocked until 2026-12-23', '2 blocked')
    expect(client.calls).toContain('fraud.block game-1 ip 203.0.113.50')
    expect(client.fraudData.blocked[0]?.reason).toBe('scraper')
    await press(app, 'd')
    await frameWith(app, 'Remove ip 203.0.113.50 from the blocklist?', '[y/N]')
    await press(app, KEY.escape)
    await frameWith(app, 'Fraud of Game 1')
    expect(client.fraudData.blocked).toHaveLength(2)
    await press(app, 'd', 'y')
    await frameWith(app, 'ip 203.0.113.50 removed from the blocklist', '1 blocked')
    expect(client.calls).toContain('fraud.unblock game-1 blk_2')
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
