/** The Home screen against the fake client: health, jobs, totals, and events as the polls see them. */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient, makeLink } from './fake-client.js'
import { frameWhere, frameWith, press, renderTui, resize } from './harness.js'
import { ManualClock } from './manual-clock.js'

afterEach(() => cleanup())

describe('home screen', () => {
  it('shows the daemon health, its jobs and the totals', async () => {
    const app = renderTui()
    const frame = await frameWith(app, '● ok', 'linkd 9.8.7')
    expect(frame).toContain('up 1h 2m · database ok · migrations ok')
    expect(frame).toMatch(/links\s+30/)
    expect(frame).toMatch(/webhooks failing\s+1/)
    expect(frame).toMatch(/domains needing attention\s+1/)
    expect(frame).toMatch(/games\s+3/)
    expect(frame).toMatch(/acme-renewal\s+error/)
    expect(frame).toMatch(/webhook-sender\s+ok/)
  })

  it('clicks today: the organization’s figure for the daemon’s last day, following it', async () => {
    const client = new FakeClient()
    client.state.clicksPerDay = [40, 17]
    const app = renderTui({ client })
    await frameWhere(app, (f) => /clicks today\s+17\b/.test(f), 'clicks today 17')
    client.state.clicksPerDay = [40, 23]
    app.refresh()
    await frameWhere(app, (f) => /clicks today\s+23\b/.test(f), 'clicks today 23')
    // One request for it, whatever the number of links.
    expect(client.calls.filter((c) => c.startsWith('analytics.link'))).toEqual([])
  })

  it('says which scope a total needs when the key lacks it', async () => {
    const app = renderTui({ scopes: new Set(['links:read']) })
    const frame = await frameWith(app, 'linkd 9.8.7')
    expect(frame).toMatch(/links\s+30/)
    expect(frame).toMatch(/webhooks failing\s+\(needs webhooks:read\)/)
    expect(frame).toMatch(/games\s+\(needs games:read\)/)
    expect(frame).toMatch(/clicks today\s+\(needs analytics:read\)/)
  })

  it('lists new links, clicks, job runs and webhook failures as they happen', async () => {
    const client = new FakeClient()
    const app = renderTui({ client })
    await frameWith(app, 'nothing yet')
    client.state.links.unshift(
      makeLink(500, {
        shortCode: 'fresh',
        destinationUrl: 'https://new.example',
        createdAt: '2026-11-21T00:00:00.000Z',
      }),
    )
    const top = client.state.links.find((l) => l.id === 'lnk_29')!
    top.clicks += 7
    client.state.webhooks[0]!.consecutiveFailures = 3
    client.state.health.jobs![0]!.lastRunAt = '2026-11-21T00:00:01.000Z'
    app.refresh()
    const frame = await frameWith(app, 'link created fresh → https://new.example', '+7 clicks on c29')
    await frameWith(app, 'webhook hook wh_ok is failing', 'job webhook-sender ran: ok')
    expect(frame).not.toContain('nothing yet')
  })

  it('keeps its events feed while another screen is shown', async () => {
    const client = new FakeClient()
    const app = renderTui({ client })
    await frameWith(app, 'nothing yet')
    client.state.links.unshift(
      makeLink(501, {
        shortCode: 'kept',
        destinationUrl: 'https://kept.example',
        createdAt: '2026-11-21T00:00:00.000Z',
      }),
    )
    app.refresh()
    await frameWith(app, 'link created kept')
    await press(app, '2')
    await frameWith(app, 'links · /')
    await press(app, '1')
    const back = await frameWith(app, 'Events', 'Jobs')
    expect(back).toContain('link created kept → https://kept.example')
    expect(back).not.toContain('nothing yet')
  })

  it('keeps each total on one line at 80x24', async () => {
    const client = new FakeClient()
    const clock = new ManualClock()
    // A job run "40 minutes ago": the jobs column at its widest.
    client.state.health.jobs![0]!.lastRunAt = new Date(clock.now() - 40 * 60_000).toISOString()
    const app = renderTui({ client, clock })
    resize(app, 80, 24)
    const frame = await frameWith(app, 'linkd 9.8.7')
    expect(frame).toMatch(/links\s+30\s+webhook-sender/)
    expect(frame).toMatch(/domains needing attention\s+1/)
    expect(Math.max(...frame.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80)
  })
})
