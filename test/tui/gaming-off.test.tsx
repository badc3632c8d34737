/** A daemon with gaming turned off (GET /api/use's features.gaming false): no gaming tab, no games total. */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { gamingOn } from '../../src/tui/run.js'
import { FakeClient } from './fake-client.js'
import { frameWith, renderTui, resize } from './harness.js'

afterEach(() => cleanup())

const GAMING_TABS = ['Games', 'Fraud', 'SKAN', 'GDPR']

describe('gaming turned off on the daemon', () => {
  it('learns it from GET /api/use; unknown (an error, no answer) counts as on', async () => {
    const client = new FakeClient()
    expect(await gamingOn(client)).toBe(true)
    client.state.gaming = false
    expect(await gamingOn(client)).toBe(false)
    client.discovery = () => Promise.reject(new Error('down'))
    expect(await gamingOn(client)).toBe(true)
    client.discovery = () => new Promise(() => {})
    expect(await gamingOn(client, 20)).toBe(true)
  })

  it('hides the Games, Fraud, SKAN and GDPR tabs and the games total; the others stay', async () => {
    const app = renderTui({ gaming: false })
    resize(app, 160, 30)
    const frame = await frameWith(app, 'linkd 9.8.7', ' 1 Home ')
    expect(frame.split('\n')[0]!.trimEnd()).toBe(' 1 Home  2 Links  3 Keys  4 Domains  5 Webhooks  6 Team')
    expect(frame).toMatch(/links\s+30/)
    expect(frame).not.toMatch(/games\s+/)
    expect(app.client.calls).not.toContain('games.list')
  })

  it('with gaming on, the gaming tabs and the games total are there', async () => {
    const app = renderTui({ gaming: true })
    resize(app, 160, 30)
    const frame = await frameWith(app, 'linkd 9.8.7', ' 1 Home ')
    for (const t of GAMING_TABS) expect(frame.split('\n')[0]).toContain(` ${t} `)
    expect(frame).toMatch(/games\s+3/)
  })
})
