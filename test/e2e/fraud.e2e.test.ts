/**
 * Fraud detection end to end with the built binaries ("done when"): crafted fraudulent
 * events sent with `linkctl events send` are blocked in the 202 answer or flagged, show up in
 * `linkctl fraud events` and in `linkctl fraud dashboard`, and a review moves the false-positive
 * rate.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { FraudDashboard, FraudEvent } from '../../src/contract/fraud.js'
import type { GameWithSecrets } from '../../src/contract/games.js'
import { craftedFraudEvents } from '../support/fraud.js'
import { startLinkdForCli, type LinkdForCli } from '../support/processes.js'

let cli: LinkdForCli
let game: GameWithSecrets
async function ok(args: string[]): Promise<string> {
  const r = await cli.linkctl(args)
  expect(r.code, `linkctl ${args.join(' ')}\n${r.stderr}`).toBe(0)
  return r.stdout
}

beforeAll(async () => {
  cli = await startLinkdForCli('linkd-fraud-e2e-')
  game = JSON.parse(
    await ok(['games', 'create', '--name', 'Fraud Arena', '--platform', 'android', '--fraud', '--json']),
  ) as GameWithSecrets
  // The recommended three templates are on; emulators are blocked once this one is enabled too.
  await ok(['fraud', 'rules', 'enable', game.id, 'Block Emulators'])
}, 60_000)

afterAll(() => cli?.close('SIGTERM'))

it('crafted fraud is blocked or flagged by linkctl events send, listed by linkctl fraud events, counted by the dashboard', async () => {
  const { events, injected, emulated } = craftedFraudEvents(Date.now())
  const file = join(cli.work, 'crafted.jsonl')
  writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n'))
  const sent = JSON.parse(
    await ok(['events', 'send', file, '--game', game.id, '--sdk-key', game.sdkKey, '--json']),
  ) as { accepted: number; flagged: number; blocked: number; errors: { eventId: string; message: string }[] }
  expect(sent.blocked).toBe(2)
  expect(sent.accepted).toBe(events.length - 2)
  expect(sent.flagged).toBeGreaterThan(0)
  expect(sent.errors.map((e) => [e.eventId, e.message])).toEqual([
    [injected, 'blocked: Block Click Injection'],
    [emulated, 'blocked: Block Emulators'],
  ])

  const listed = JSON.parse(await ok(['fraud', 'events', game.id, '--all', '--json'])) as {
    data: FraudEvent[]
  }
  const byPlayer = new Map(listed.data.map((e) => [e.playerId, e]))
  expect(byPlayer.get('inj')).toMatchObject({
    threatType: 'click_injection',
    status: 'blocked',
    eventId: injected,
  })
  expect(byPlayer.get('emu')).toMatchObject({ threatType: 'emulator', status: 'blocked', eventId: emulated })
  const farm = listed.data.filter((e) => e.status === 'detected')
  expect(farm).toHaveLength(sent.flagged)
  expect(new Set(farm.map((e) => e.threatType))).toEqual(new Set(['device_farm']))
  expect(byPlayer.has('organic')).toBe(false)

  // The table a person reads: only the blocked ones.
  const table = await ok(['fraud', 'events', game.id, '--status', 'blocked'])
  expect(table).toContain('click_injection')
  expect(table).toContain('emulator')
  expect(table).not.toContain('device_farm')

  const dashboard = async () =>
    JSON.parse(await ok(['fraud', 'dashboard', game.id, '--json'])) as FraudDashboard
  const d = await dashboard()
  expect(d).toMatchObject({
    eventsAnalyzed: events.length,
    threatsDetected: 2 + sent.flagged,
    blocked: 2,
    flagged: sent.flagged,
    falsePositiveRate: null,
  })
  expect(d.byThreatType).toMatchObject({ click_injection: 1, emulator: 1, device_farm: sent.flagged })
  expect(d.avgDetectionLatencyUs).toBeGreaterThan(0)

  // A flagged player was a household after all.
  await ok(['fraud', 'review', game.id, farm[0]!.id, 'legitimate'])
  expect((await dashboard()).falsePositiveRate).toBe(1)
})
