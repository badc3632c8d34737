/**
 * `linkctl fraud dashboard|events|review|watch`: the built linkctl binary
 * against the real daemon on loopback; fraud events seeded as the pipeline writes them.
 * Needs `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../src/contract/common.js'
import type { FraudDashboard, FraudEvent } from '../../src/contract/fraud.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { fraudEvent, gameIdOf, seedFraud } from '../support/fraud.js'
import { createGame } from '../support/gaming.js'
import { cleanEnv, LINKCTL, runBin } from '../support/processes.js'
import { EXIT } from '../../src/session/exit-codes.js'
import { ruleNames } from '../../src/format/cells.js'

let d: TestDaemon
let env: Record<string, string>
let game: string
let gameId: string
const at = (iso: string) => Date.parse(iso)

beforeAll(async () => {
  d = await startTestDaemon()
  env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
  game = (await createGame(d.testApp, { name: 'Fraud events CLI', modules: { fraud: true } })).id
  gameId = await gameIdOf(d.testApp, game)
  const t = d.testApp
  await seedFraud(
    t,
    gameId,
    [
      fraudEvent(t, gameId, {
        id: 'fev_cli1',
        receivedAt: at('2026-11-18T08:00:00.000Z'),
        threatType: 'emulator',
        status: 'blocked',
        playerId: 'p-emu',
        triggeredRules: ['Block Emulators'],
      }),
      fraudEvent(t, gameId, {
        id: 'fev_cli2',
        receivedAt: at('2026-11-19T08:00:00.000Z'),
        threatType: 'device_farm',
        riskScore: 0.734,
        playerId: 'p-farm',
        triggeredRules: ['Flag Device Farms'],
      }),
      fraudEvent(t, gameId, {
        id: 'fev_cli3',
        receivedAt: at('2026-11-20T08:00:00.000Z'),
        threatType: 'device_farm',
        playerId: 'p-farm2',
        triggeredRules: ['Flag Device Farms'],
      }),
      // A Log rule's record: listed only with --status logged, no threat on the dashboard.
      fraudEvent(t, gameId, {
        id: 'fev_cli4',
        receivedAt: at('2026-11-20T09:00:00.000Z'),
        threatType: null,
        status: 'logged',
        playerId: 'p-watch',
        triggeredRules: ['Log Whales'],
      }),
    ],
    {
      day: Math.floor(at('2026-11-19T00:00:00.000Z') / 86_400_000),
      analyzed: 400,
      blocked: 1,
      flagged: 2,
      logged: 1,
      latencyNs: 12_000_000,
    },
  )
})
afterAll(() => d.close())

const linkctl = (args: string[]) => runBin(LINKCTL, args, env)
async function json<T>(args: string[]): Promise<T> {
  const r = await linkctl([...args, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as T
}

describe('linkctl fraud events', () => {
  it('prints a table newest first, tab-separated when piped', async () => {
    const r = await linkctl(['fraud', 'events', game])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toBe('ID\tRECEIVED\tPLAYER\tTHREAT\tRISK\tSTATUS\tRULES\tIP\tREVIEW')
    expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual(['fev_cli3', 'fev_cli2', 'fev_cli1'])
    expect(lines[2]).toBe(
      'fev_cli2\t2026-11-19T08:00:00.000Z\tp-farm\tdevice_farm\t0.73\tdetected\tFlag Device Farms\t203.0.113.7\tpending',
    )
  })

  it('--threat, --status, --player, --start-date/--end-date filter; --limit cuts with a note; --json is the page', async () => {
    const ids = async (args: string[]) =>
      (await json<PageOf<FraudEvent>>(['fraud', 'events', game, ...args])).data.map((e) => e.id)
    expect(await ids(['--threat', 'device_farm'])).toEqual(['fev_cli3', 'fev_cli2'])
    expect(await ids(['--status', 'blocked'])).toEqual(['fev_cli1'])
    expect(await ids(['--status', 'logged'])).toEqual(['fev_cli4'])
    expect(await ids(['--player', 'p-farm'])).toEqual(['fev_cli2'])
    expect(await ids(['--start-date', '2026-11-19', '--end-date', '2026-11-19'])).toEqual(['fev_cli2'])
    expect(await ids(['--end-date', '2026-11-18'])).toEqual(['fev_cli1'])
    // --from/--to, the flags' names before, still work; not together with the new names.
    expect(await ids(['--from', '2026-11-19', '--to', '2026-11-19'])).toEqual(['fev_cli2'])
    const both = await linkctl([
      'fraud',
      'events',
      game,
      '--from',
      '2026-11-19',
      '--start-date',
      '2026-11-19',
    ])
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/'--from <date>' cannot be used with option '--start-date <date>'/)
    expect((await linkctl(['fraud', 'events', '--help'])).stdout).not.toMatch(/--from/)
    const cut = await linkctl(['fraud', 'events', game, '--limit', '2'])
    expect(cut.stdout.trim().split('\n')).toHaveLength(3)
    expect(cut.stderr).toBe('showing 2 of 3; more with --limit <n> or --all\n')
    const bad = await linkctl(['fraud', 'events', game, '--threat', 'spam'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--threat <type>' argument 'spam' is invalid/)
  })
})

describe('linkctl fraud dashboard and review', () => {
  it('dashboard prints the figures; --json is the API answer', async () => {
    const range = ['--start-date', '2026-11-18', '--end-date', '2026-11-20']
    const dash = await json<FraudDashboard>(['fraud', 'dashboard', game, ...range])
    expect(dash).toMatchObject({
      range: { startDate: '2026-11-18', endDate: '2026-11-20' },
      eventsAnalyzed: 400,
      threatsDetected: 3,
      logged: 1,
      fraudRate: 0.0075,
      avgDetectionLatencyUs: 30,
      byThreatType: { emulator: 1, device_farm: 2, bot_detection: 0 },
    })
    const r = await linkctl(['fraud', 'dashboard', game, ...range])
    expect(r.code, r.stderr).toBe(0)
    const [labels, values] = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
    const figures = Object.fromEntries(labels!.map((label, i) => [label, values![i]]))
    expect(figures).toMatchObject({
      RANGE: '2026-11-18 to 2026-11-20',
      'EVENTS ANALYZED': '400',
      'THREATS DETECTED': '3',
      'FRAUD RATE': '0.75%',
      'FALSE POSITIVES': '-',
      'AVG LATENCY': '30 µs',
      DEVICE_FARM: '2',
    })
    const wide = await linkctl([
      'fraud',
      'dashboard',
      game,
      '--start-date',
      '2025-01-01',
      '--end-date',
      '2026-11-20',
    ])
    expect(wide.code).toBe(1)
    expect(wide.stderr).toMatch(/at most 366 days/)
  })

  it('review marks an event; the false-positive rate follows; a bad verdict is a usage error', async () => {
    const reviewed = await json<FraudEvent>(['fraud', 'review', game, 'fev_cli2', 'legitimate'])
    expect(reviewed).toMatchObject({ id: 'fev_cli2', review: 'legitimate', reviewedAt: expect.any(String) })
    await json<FraudEvent>(['fraud', 'review', game, 'fev_cli3', 'fraud'])
    const dash = await json<FraudDashboard>([
      'fraud',
      'dashboard',
      game,
      '--from',
      '2026-11-18',
      '--to',
      '2026-11-20',
    ])
    expect(dash.falsePositiveRate).toBe(0.5)
    const piped = await linkctl(['fraud', 'review', game, 'fev_cli3', 'pending'])
    expect(piped.stdout.split('\n')[1]).toMatch(/^fev_cli3\t.*\tpending$/)
    const bad = await linkctl(['fraud', 'review', game, 'fev_cli2', 'maybe'])
    expect(bad.code).toBe(2)
    const missing = await linkctl(['fraud', 'review', game, 'fev_none', 'fraud'])
    expect(missing.code).toBe(EXIT.notFound)
    expect(missing.stderr).toMatch(/fev_none/)
  })
})

/** Collects a child's output; `waitFor` resolves once `re` matches what it printed. */
function watchChild(child: ChildProcess) {
  const out = { stdout: '', stderr: '' }
  const waiters: (() => void)[] = []
  const wake = () => waiters.splice(0).forEach((w) => w())
  child.stdout!.on('data', (c: Buffer) => ((out.stdout += c.toString()), wake()))
  child.stderr!.on('data', (c: Buffer) => ((out.stderr += c.toString()), wake()))
  const waitFor = async (stream: 'stdout' | 'stderr', re: RegExp) => {
    while (!re.test(out[stream])) await new Promise<void>((resolve) => waiters.push(resolve))
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { out, waitFor, exited }
}

describe('linkctl fraud watch', () => {
  it('prints each fraud event seeded after it started, once, oldest first; exits 143 on SIGTERM', async () => {
    const child = spawn(process.execPath, [LINKCTL, 'fraud', 'watch', game, '--interval', '0.2', '--json'], {
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const w = watchChild(child)
    try {
      await w.waitFor('stderr', /Watching the fraud events/)
      const t = d.testApp
      const now = t.clock.now()
      await seedFraud(t, gameId, [
        fraudEvent(t, gameId, { id: 'fev_live1', receivedAt: now, playerId: 'p-live' }),
      ])
      await w.waitFor('stdout', /fev_live1/)
      // Two in one batch, the newer written first: printed oldest first.
      await seedFraud(t, gameId, [
        fraudEvent(t, gameId, { id: 'fev_live3', receivedAt: now + 2 }),
        fraudEvent(t, gameId, { id: 'fev_live2', receivedAt: now + 1 }),
      ])
      await w.waitFor('stdout', /fev_live3/)
      child.kill('SIGTERM')
      expect(await w.exited).toBe(143)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
    const printed = w.out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as FraudEvent)
    // The events there at start are not printed; each new one once.
    expect(printed.map((e) => e.id)).toEqual(['fev_live1', 'fev_live2', 'fev_live3'])
    expect(printed[0]).toMatchObject({ playerId: 'p-live', status: 'detected', threatType: 'bot_detection' })
  })

  it('ends with the error (exit 6, conflict) when the game turns fraud off while it watches', async () => {
    const g = (await createGame(d.testApp, { modules: { fraud: true } })).id
    const child = spawn(process.execPath, [LINKCTL, 'fraud', 'watch', g, '--interval', '0.2'], {
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const w = watchChild(child)
    try {
      await w.waitFor('stderr', /Watching the fraud events/)
      const off = await d.testApp.call('PATCH', `/api/v1/admin/games/${g}`, {
        body: { modules: { fraud: false } },
      })
      expect(off.statusCode).toBe(200)
      expect(await w.exited).toBe(EXIT.conflict)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
    expect(w.out.stderr).toMatch(/fraud detection is off for game/)
  })
})

describe('the rules an event triggered', () => {
  it('names the rules kept and how many more the event triggered', () => {
    const names = Array.from({ length: 10 }, (_, i) => `rule ${i + 1}`)
    expect(ruleNames({ triggeredRules: names, triggeredRuleCount: 14 })).toBe(`${names.join(', ')} +4 more`)
    expect(ruleNames({ triggeredRules: ['Flag Device Farms'], triggeredRuleCount: 1 })).toBe(
      'Flag Device Farms',
    )
    expect(ruleNames({ triggeredRules: [], triggeredRuleCount: 0 })).toBe('')
  })
})
