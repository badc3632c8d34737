/** The SKAN screen against the fake client: campaigns, report, schema table, optimizer, apply. */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient } from './fake-client.js'
import { frameWhere, frameWith, KEY, press, renderTui, resize } from './harness.js'

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

describe('skan screen', () => {
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

  it('o shows the optimizer’s proposal beside the current schema; A applies it after y and shows it', async () => {
    const client = new FakeClient()
    const app = await openCampaign(client)
    await press(app, 'o')
    const proposal = await frameWith(app, 'BIT CURRENT', 'PROPOSED')
    expect(proposal).toMatch(/1 tutorial_complete\s+level_5/)
    expect(proposal).toMatch(/4 purchase\s+revenue_bucket_1/)
    expect(proposal).toMatch(/8 -\s+revenue_bucket_2/)
    expect(proposal).toMatch(/medium 11-40\s+4-9/)
    expect(proposal).toContain('640 installs, 60 payers · true revenue 1000.00 USD')
    expect(proposal).toContain('estimated revenue: current 700.00 USD (-30%) · proposed 1040.00 USD (+4%)')
    expect(proposal).toMatch(/high\s+41-63\s+10-63\s+80\.00 USD/)
    expect(fits(proposal)).toBe(true)
    expect(client.calls).toContain('skan.optimize skan_1')
    await press(app, 'A')
    await frameWith(app, 'Replace the conversion schema of Spring UA with the proposed one? [y/N]')
    await press(app, 'n')
    await frameWith(app, 'BIT CURRENT')
    expect(client.calls).not.toContain('skan.optimize skan_1 apply')
    await press(app, 'A', 'y')
    const applied = await frameWith(app, 'Applied the proposed schema to Spring UA', 'BIT EVENT')
    await frameWhere(app, (f) => /1 level_5\s*\n\s+2 tutorial_complete/.test(f), 'the applied schema')
    expect(applied).not.toContain('PROPOSED')
    expect(client.calls).toContain('skan.optimize skan_1 apply')
    expect(client.skanData.campaigns[0]?.conversionSchema.events).toEqual(client.skanData.proposal.events)
  })

  it('shows the API’s 422 (too little history) in place, and Esc goes back to the campaigns', async () => {
    const client = new FakeClient()
    const app = await openCampaign(client, ['j'])
    await press(app, 'o')
    const frame = await frameWith(app, 'No proposal: too little history to propose a schema: 42 installs')
    expect(frame).toContain('history: 42 installs; at least 100 needed')
    expect(frame).toContain('BIT EVENT')
    await press(app, 'A')
    expect(client.calls.some((c) => c.endsWith('apply'))).toBe(false)
    await press(app, KEY.escape)
    await frameWith(app, '2 campaigns')
    await press(app, KEY.escape)
    await frameWith(app, '3 games')
  })

  it('a key without skan:write can ask for a proposal but not apply it', async () => {
    const client = new FakeClient()
    const app = await openCampaign(client, [], new Set(['skan:read']))
    expect(app.lastFrame()).not.toContain('A apply')
    await press(app, 'o')
    await frameWith(app, 'PROPOSED')
    await press(app, 'A', 'y')
    await frameWith(app, 'PROPOSED')
    expect(app.lastFrame()).not.toContain('[y/N]')
    expect(client.calls.some((c) => c.endsWith('apply'))).toBe(false)
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
