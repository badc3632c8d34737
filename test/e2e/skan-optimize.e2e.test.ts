/**
 * The built `linkctl` binary: `linkctl skan optimize` shows a schema built from real history and
 * `--apply --yes` makes it the campaign's. The daemon is the real app on a loopback port with a
 * settable clock (test/support/daemon.ts), since a first conversion window is only over three
 * days after the install and the ingestion takes no event older than 24 h: the history is sent
 * through the real ingestion day by day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SkanCampaign } from '../../src/contract/skan.js'
import type { OptimizeResult } from '../../src/contract/skan-optimize.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { createGame } from '../support/gaming.js'
import { LINKCTL, runBin } from '../support/processes.js'
import { sendHistory, windowsOver } from '../support/skan-history.js'

let d: TestDaemon
let env: Record<string, string>
let campaign: SkanCampaign
const linkctl = (args: string[]) => runBin(LINKCTL, args, env)

beforeAll(async () => {
  d = await startTestDaemon({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
  const game = await createGame(d.testApp, { name: 'SKAN e2e', modules: { skan: true } })
  const created = await linkctl([
    'skan',
    'campaigns',
    'create',
    game.id,
    '--name',
    'e2e',
    '--ad-network',
    'e2e.skadnetwork',
    '--lock-window',
    '24',
    '--json',
  ])
  expect(created.code, created.stderr).toBe(0)
  campaign = JSON.parse(created.stdout) as SkanCampaign
  // 200 installs: 50 payers of 1..50 who completed the tutorial, 150 who did not pay.
  await sendHistory(d.testApp, { game, orgId: d.testApp.orgId }, [
    ...Array.from({ length: 50 }, (_, i) => ({ id: `p${i}`, revenue: i + 1, events: ['tutorial_complete'] })),
    ...Array.from({ length: 150 }, (_, i) => ({
      id: `f${i}`,
      events: i % 5 === 0 ? ['tutorial_complete'] : [],
    })),
  ])
  windowsOver(d.testApp)
}, 60_000)
afterAll(() => d.close())

describe('linkctl skan optimize (built binary)', () => {
  it('shows current vs proposed from the history, then --apply --yes replaces the schema', async () => {
    const shown = await linkctl(['skan', 'optimize', campaign.id])
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stderr).toMatch(/200 installs, 50 payers/)
    expect(shown.stdout).toMatch(/^BIT\tCURRENT\tPROPOSED\n1\t\ttutorial_complete\n2\t\trevenue_bucket_1\n/)

    const applied = await linkctl(['skan', 'optimize', campaign.id, '--apply', '--yes', '--json'])
    expect(applied.code, applied.stderr).toBe(0)
    const result = JSON.parse(applied.stdout) as OptimizeResult
    expect(result).toMatchObject({ applied: true, installs: 200, payers: 50 })
    const show = await linkctl(['skan', 'campaigns', 'show', campaign.id, '--json'])
    expect(show.code, show.stderr).toBe(0)
    expect((JSON.parse(show.stdout) as SkanCampaign).conversionSchema).toEqual(result.proposed)
  })
})
