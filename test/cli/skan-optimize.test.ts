/**
 * `linkctl skan optimize <campaign> [--apply]` against the real daemon (loopback) with history
 * sent through the real ingestion: current vs proposed side by side, the expected error, and
 * --apply only after a confirmation (--yes without a terminal).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SkanCampaign } from '../../src/contract/skan.js'
import type { OptimizeResult } from '../../src/contract/skan-optimize.js'
import { runSkanOptimize } from '../../src/cli/commands/skan/optimize.js'
import { createGame } from '../support/gaming.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli, decliningCtx, testCtx } from '../support/cli.js'
import { sendHistory, windowsOver } from '../support/skan-history.js'

let d: TestDaemon
let env: NodeJS.ProcessEnv
let game: string
let campaign: string

beforeAll(async () => {
  d = await startTestDaemon({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
  const g = await createGame(d.testApp, { name: 'SKAN CLI', modules: { skan: true } })
  game = g.id
  const res = await d.testApp.call('POST', `/api/v1/skan/games/${game}/campaigns`, {
    body: {
      name: 'CLI',
      adNetworkId: 'cli.skadnetwork',
      lockWindowHours: 24,
      conversionSchema: { events: { tutorial_complete: 8 } },
    },
  })
  campaign = res.json<SkanCampaign>().id
  // 150 installs: 60 payers of 1..60 who won a battle, 90 free players.
  await sendHistory(d.testApp, { game: g, orgId: d.testApp.orgId }, [
    ...Array.from({ length: 60 }, (_, i) => ({ id: `p${i}`, revenue: i + 1, events: ['battle_won'] })),
    ...Array.from({ length: 90 }, (_, i) => ({ id: `f${i}`, events: ['tutorial_complete'] })),
  ])
  windowsOver(d.testApp)
}, 60_000)
afterAll(() => d.close())

const storedSchema = async () =>
  (await d.testApp.call('GET', `/api/v1/skan/games/${game}/campaigns`))
    .json<{ data: SkanCampaign[] }>()
    .data.find((c) => c.id === campaign)!.conversionSchema

describe('linkctl skan optimize', () => {
  it('piped: current vs proposed bits and coarse bands, buckets, expected error as TSV', async () => {
    const r = await cli(['skan', 'optimize', campaign], { env })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/150 installs, 60 payers in the first conversion window/)
    const tables = r.stdout.trim().split('\n\n')
    expect(tables).toHaveLength(4)
    expect(tables[0]!.split('\n')).toEqual([
      'BIT\tCURRENT\tPROPOSED',
      '1\t\tbattle_won',
      '2\t\trevenue_bucket_1',
      '4\t\trevenue_bucket_2',
      '8\ttutorial_complete\trevenue_bucket_4',
      '16\t\t',
      '32\t\t',
    ])
    expect(tables[1]!.split('\n')).toEqual([
      'COARSE\tCURRENT\tPROPOSED\tCURRENT DECODES TO\tPROPOSED DECODES TO',
      'low\t0-10\t0-1\t\t0.00 USD',
      // Buckets 1-3 (payers of 1-30) medium, 4-6 high: the means of those payers.
      'medium\t11-40\t2-7\t\t15.50 USD',
      'high\t41-63\t8-63\t\t45.50 USD',
    ])
    const buckets = tables[2]!.split('\n')
    expect(buckets[0]).toBe('BUCKET\tVALUES\tWINDOW REVENUE\tDECODES TO\tPLAYERS\tSHARE')
    expect(buckets[1]).toBe('0\t0-1\tnone\t0.00 USD\t90\t60%')
    // 60 payers → 6 buckets of 10: 1-10 decodes to the midpoint of [1, 11), 51-60 to its mean.
    expect(buckets[2]).toBe('1\t2-3\t1.00 – <11.00 USD\t6.00 USD\t10\t6.7%')
    expect(buckets[7]).toBe('6\t12-13\t51.00+ USD\t55.50 USD\t10\t6.7%')
    expect(tables[3]!.split('\n')).toEqual([
      'EXPECTED ERROR\tCURRENT\tPROPOSED',
      'true revenue\t1830.00 USD\t1830.00 USD',
      // Buckets 1-5 decode to 6, 16 … 46 (0.50 above their payers' mean), bucket 6 to 55.50.
      'estimated revenue\t0.00 USD\t1855.00 USD',
      'relative error\t-100%\t+1.4%',
      // |decoded - true| adds up to 25 in each of the 6 buckets: 150 over 150 installs.
      'mean absolute error per install\t12.20 USD\t1.00 USD',
    ])
  })

  it('--json: the API answer; nothing applied', async () => {
    const r = await cli(['skan', 'optimize', campaign, '--json'], { env })
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout) as OptimizeResult
    expect(out).toMatchObject({ campaignId: campaign, applied: false, installs: 150, payers: 60 })
    expect((await storedSchema()).events).toEqual({ tutorial_complete: 8 })
  })

  it('on a terminal: aligned tables', async () => {
    const r = await cli(['skan', 'optimize', campaign], { env: { ...env, NO_COLOR: '1' }, isTTY: true })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^BIT {2}CURRENT {12}PROPOSED\n1 {4}- {18}battle_won\n/)
    expect(r.stdout).toMatch(/\n8 {4}tutorial_complete {2}revenue_bucket_4\n/)
    expect(r.stdout).toMatch(/\n6 {7}12-13 {3}51\.00\+ USD {10}55\.50 USD/)
  })

  it('--apply without a terminal and without --yes: refused, nothing changed', async () => {
    const r = await cli(['skan', 'optimize', campaign, '--apply'], { env })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/refusing to replace the conversion schema of campaign .* add --yes/)
    expect((await storedSchema()).events).toEqual({ tutorial_complete: 8 })
  })

  it('--apply declined on a terminal: the question asked, nothing changed', async () => {
    const t = decliningCtx(d.url, d.ownerKey)
    await expect(runSkanOptimize({ campaign, apply: true }, t.ctx)).rejects.toThrow(/aborted/)
    expect(t.questions).toEqual([
      `Replace the conversion schema of campaign ${campaign} with the proposed one?`,
    ])
    expect((await storedSchema()).events).toEqual({ tutorial_complete: 8 })
  })

  it('--apply accepted on a terminal, or --apply --yes: the proposal becomes the schema', async () => {
    const t = testCtx({
      flags: { url: d.url, apiKey: d.ownerKey },
      canPrompt: true,
      prompt: { secret: () => Promise.resolve(''), confirm: () => Promise.resolve(true) },
    })
    await runSkanOptimize({ campaign, apply: true }, t.ctx)
    expect(t.err.text).toMatch(/Applied the proposed schema to campaign/)
    const applied = await storedSchema()
    expect(applied.events).toMatchObject({ battle_won: 1, revenue_bucket_1: 2 })

    const r = await cli(['skan', 'optimize', campaign, '--apply', '--yes', '--json'], { env })
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout) as OptimizeResult
    expect(out.applied).toBe(true)
    expect(out.current).toEqual(applied)
    expect(await storedSchema()).toEqual(out.proposed)

    // The applied schema encodes revenue buckets: its error cannot be replayed, and it says why.
    const again = await cli(['skan', 'optimize', campaign], { env })
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toContain('\nrelative error\tn/a\t+1.4%\n')
    expect(again.stderr).toMatch(
      /Current schema's error not computable: the current schema's event revenue_bucket_1 is not a named event type/,
    )
  })

  it('an unknown campaign: the API error, exit 5', async () => {
    const r = await cli(['skan', 'optimize', 'skan_nope'], { env })
    expect(r.code).toBe(5)
    expect(r.stderr).toMatch(/SKAN campaign skan_nope not found/)
  })
})
