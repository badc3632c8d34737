/**
 * The SKAN screen: a campaign's report and schema table, help and scopes against the fake client;
 * the optimizer's proposal, its apply and its 422 against a real linkd with history sent through
 * the ingestion.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient } from './fake-client.js'
import { makeCampaign } from './fake-fraud-skan.js'
import type { GameWithSecrets } from '../../src/contract/games.js'
import { sendHistory, windowsOver } from '../support/skan-history.js'
import { frameWhere, frameWith, KEY, press, renderTui, resize } from './harness.js'
import { newOrg, renderOnDaemon, useDaemon } from './tui-daemon.js'

afterEach(() => cleanup())

async function openCampaign(client: FakeClient, down: string[] = [], scopes: Set<string> | null = null) {
  const app = renderTui({ client, initialScreen: 'skan', scopes })
  resize(app, 80, 24)
  await frameWith(app, '3 games', 'Game 1')
  await press(app, KEY.enter)
  await frameWith(app, 'SKAN campaigns of Game 1 (game-1)', '2 campaigns', 'Tiny test')
  await press(app, ...down, KEY.enter)
  await frameWith(app, 'postbacks', 'Schema (lock window 48 h)')
  return app
}

const fits = (frame: string) => {
  const lines = frame.split('\n')
  return lines.length <= 24 && Math.max(...lines.map((l) => l.length)) <= 80
}

describe('skan screen, rendering', () => {
  it('shows a campaign’s report figures and its schema as a table of bits and coarse bands, in 80x24', async () => {
    const client = new FakeClient()
    const app = await openCampaign(client)
    const frame = app.lastFrame() ?? ''
    expect(frame).toContain('Campaign Spring UA (skan_1) · abc123.skadnetwork · source 39')
    expect(frame).toContain('250 postbacks · 96% verified · 180 installs · estimated revenue 1234.50 USD')
    expect(frame).toMatch(/BIT EVENT/)
    expect(frame).toMatch(/ {2}1 tutorial_complete\s*\n\s+2 level_5\s*\n\s+4 purchase\s*\n\s+8 -/)
    expect(frame).toMatch(/low\s+0-10/)
    expect(frame).toMatch(/medium 11-40/)
    expect(frame).toMatch(/high\s+41-63/)
    expect(fits(frame)).toBe(true)
  })

  it('the selection stays on its campaign when a new one is listed above it', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'skan' })
    await frameWith(app, '3 games', 'Game 1')
    await press(app, KEY.enter)
    await frameWith(app, '2 campaigns', 'Tiny test')
    await press(app, 'j')
    client.skanData.campaigns.unshift(makeCampaign('skan_3', 'Summer UA'))
    app.refresh()
    await frameWith(app, '3 campaigns', 'Summer UA')
    await press(app, KEY.enter)
    await frameWith(app, 'Campaign Tiny test (skan_2)')
  })

  it('? lists every key of the screen within 80x24', async () => {
    const app = await openCampaign(new FakeClient())
    await press(app, '?')
    const help = await frameWith(app, 'Keys of SKAN')
    expect(help).toContain('campaign: the optimizer’s proposal beside it')
    expect(help).toContain('apply the proposal after y (skan:write)')
    for (const key of ['o ', 'A ', 'Esc', 'Enter, → or l', 'q / Ctrl-C']) expect(help).toContain(key)
    expect(fits(help)).toBe(true)
  })

  it('a game with SKAN off says so and how to turn it on', async () => {
    const app = renderTui({ initialScreen: 'skan' })
    await frameWith(app, '3 games')
    await press(app, 'G', KEY.enter)
    await frameWith(app, 'SKAdNetwork is off for Game 3: turn it on with linkctl games update game-3 --skan')
  })
})

const daemon = useDaemon({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })

/**
 * A game with SKAN on and the campaign Spring UA in a new organization, `installs` players sent
 * through the ingestion (every fourth paying) with their first windows over; the TUI on the campaign.
 */
async function campaignOnDaemon(installs: number, scopes: Set<string> | null = null) {
  const d = daemon()
  const org = await newOrg(d)
  const game = (await org.api.games.create({
    name: 'Space Race',
    slug: 'space-race',
    platform: 'ios',
    modules: { skan: true },
  })) as GameWithSecrets
  const campaign = await org.api.skan.createCampaign('space-race', {
    name: 'Spring UA',
    adNetworkId: 'net.skadnetwork',
    lockWindowHours: 48,
    conversionSchema: { events: { tutorial_complete: 1 } },
  })
  const players = Array.from({ length: installs }, (_, i) => ({
    id: `player-${i}`,
    ...(i % 4 === 0 ? { revenue: 1 + (i % 30) } : {}),
    events: i % 3 === 0 ? ['tutorial_complete'] : ['level_start'],
  }))
  if (installs) await sendHistory(d.testApp, { game, orgId: org.orgId }, players)
  windowsOver(d.testApp)
  const app = renderOnDaemon(d, org.ownerKey, { initialScreen: 'skan', scopes })
  resize(app, 80, 24)
  await frameWith(app, '1 game', 'Space Race')
  await press(app, KEY.enter)
  await frameWith(app, 'SKAN campaigns of Space Race (space-race)', '1 campaign', 'Spring UA')
  await press(app, KEY.enter)
  await frameWith(app, 'Schema (lock window 48 h)')
  return { org, campaign, app }
}

describe('skan screen against linkd', () => {
  it('o shows the optimizer’s proposal beside the current schema; A applies it after y and shows it', async () => {
    const { org, campaign, app } = await campaignOnDaemon(120)
    await press(app, 'o')
    const proposal = await frameWith(app, 'BIT CURRENT', 'PROPOSED')
    expect(proposal).toContain('120 installs, 30 payers')
    expect(fits(proposal)).toBe(true)
    expect(app.sent('skan.optimize')).toEqual([[campaign.id]])
    await press(app, 'A')
    await frameWith(app, 'Replace the conversion schema of Spring UA with the proposed one? [y/N]')
    await press(app, 'n')
    await frameWith(app, 'BIT CURRENT')
    expect(app.sent('skan.optimize')).toHaveLength(1)
    expect((await org.api.skan.campaign(campaign.id)).conversionSchema.events).toEqual({
      tutorial_complete: 1,
    })
    await press(app, 'A', 'y')
    const applied = await frameWith(app, 'Applied the proposed schema to Spring UA', 'BIT EVENT')
    expect(applied).not.toContain('PROPOSED')
    expect(app.sent('skan.optimize').at(-1)).toEqual([campaign.id, { apply: true }])
    // The daemon's schema is now the proposal, and the screen shows it.
    const { events } = (await org.api.skan.campaign(campaign.id)).conversionSchema
    expect(events).not.toEqual({ tutorial_complete: 1 })
    const [first] = Object.entries(events).sort((a, b) => a[1] - b[1])
    await frameWhere(app, (f) => new RegExp(`${first![1]} ${first![0]}`).test(f), 'the applied schema')
  })

  it('a key without skan:write can ask for a proposal but not apply it', async () => {
    const { app } = await campaignOnDaemon(120, new Set(['skan:read', 'games:read']))
    expect(app.lastFrame()).not.toContain('A apply')
    await press(app, 'o')
    await frameWith(app, 'PROPOSED')
    await press(app, 'A', 'y')
    await frameWith(app, 'PROPOSED')
    expect(app.lastFrame()).not.toContain('[y/N]')
    expect(app.sent('skan.optimize')).toHaveLength(1)
  })

  it('shows the API’s 422 (too little history) in place, and Esc goes back to the campaigns', async () => {
    const { app } = await campaignOnDaemon(0)
    await press(app, 'o')
    const frame = await frameWith(app, 'No proposal: too little history to propose a schema: 0 installs')
    expect(frame).toContain('BIT EVENT')
    await press(app, 'A')
    expect(app.sent('skan.optimize')).toHaveLength(1)
    await press(app, KEY.escape)
    await frameWith(app, '1 campaign')
    await press(app, KEY.escape)
    await frameWith(app, '1 game')
  })
})
