/** `linkctl links clicks`: the organization's clicks per UTC day, against the real daemon. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OrganizationClicks } from '../../../src/contract/click-analytics.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli } from '../../support/cli.js'
import { createLink } from '../../support/links.js'
import { FIREFOX_LINUX, GOOGLEBOT } from '../../support/redirect.js'

let d: TestDaemon
beforeAll(async () => {
  // Redirects answer on the test port (the shared short domain without a port).
  d = await startTestDaemon({ shortDomain: '127.0.0.1' })
})
afterAll(() => d.close())

const visit = (code: string, userAgent = FIREFOX_LINUX) =>
  fetch(`${d.url}/${code}`, { redirect: 'manual', headers: { 'user-agent': userAgent } })

describe('links clicks', () => {
  it('per day over every link: --json is the API body; a table on a terminal, TSV piped', async () => {
    const [a, b] = [await createLink(d.testApp), await createLink(d.testApp)]
    expect((await visit(a.shortCode)).status).toBe(302)
    expect((await visit(b.shortCode)).status).toBe(302)
    expect((await visit(b.shortCode, GOOGLEBOT)).status).toBe(302)
    const flags = ['--url', d.url, '--api-key', d.ownerKey]
    const range = ['--start', '2026-11-20', '--end', '2026-11-21']

    const json = await cli(['links', 'clicks', ...range, '--json', ...flags])
    expect(json.code, json.stderr).toBe(0)
    const body = JSON.parse(json.stdout) as OrganizationClicks
    expect(body.days).toEqual([
      { date: '2026-11-20', clicks: 0, bots: 0, qrScans: 0 },
      { date: '2026-11-21', clicks: 2, bots: 1, qrScans: 0 },
    ])
    expect(body).toMatchObject({ totalClicks: 2, bots: 1 })

    const tty = await cli(['links', 'clicks', ...range, ...flags], { isTTY: true, env: { NO_COLOR: '1' } })
    expect(tty.code, tty.stderr).toBe(0)
    expect(tty.stdout).toMatch(/^DAYS\s+2026-11-20 to 2026-11-21 \(UTC\)$/m)
    expect(tty.stdout).toMatch(/^CLICKS\s+2$/m)
    expect(tty.stdout).toMatch(/^2026-11-21\s+2\s+1\s+0$/m)

    const piped = await cli(['links', 'clicks', ...range, ...flags])
    const [summary, days] = piped.stdout.trimEnd().split('\n\n')
    expect(summary).toBe('DAYS\tCLICKS\tBOTS\tQR SCANS\n2026-11-20 to 2026-11-21\t2\t1\t0')
    expect(days).toBe('DATE\tCLICKS\tBOTS\tQR SCANS\n2026-11-20\t0\t0\t0\n2026-11-21\t2\t1\t0')
  })

  it('a range over 2,000 days exits 1 naming the field; a key without analytics:read exits 4', async () => {
    const flags = ['--url', d.url, '--api-key', d.ownerKey]
    const long = await cli(['links', 'clicks', '--start', '2000-01-01', '--end', '2026-01-01', ...flags])
    expect(long.code).toBe(1)
    expect(long.stderr).toContain('startDate')
    const reader = await d.testApp.createKey({ permissions: ['links:read'] })
    const denied = await cli(['links', 'clicks', '--url', d.url, '--api-key', reader.key])
    expect(denied.code).toBe(4)
    const backwards = await cli(['links', 'clicks', '--start', '2026-11-21', '--end', '2026-11-20', ...flags])
    expect(backwards.code).toBe(2)
  })
})
