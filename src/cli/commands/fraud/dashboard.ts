/** `linkctl fraud dashboard <game>`: the fraud figures of a date range. */
import type { Command } from 'commander'
import type { FraudDashboard } from '../../../contract/fraud.js'
import { THREAT_TYPES } from '../../../contract/fraud-limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { dateRange, emit, percent, printRecord, round, type Field } from '../../output.js'
import { count } from '../../paging.js'
import { rangeOptions, rangeQuery, type RangeOpts } from '../analytics/shared.js'
import { GAME_ARGUMENT } from './shared.js'

const share = (v: number | null) => (v === null ? '-' : percent(round(v * 100, 2)))

export function dashboardFields(d: FraudDashboard): Field[] {
  return [
    ['RANGE', dateRange(d.range.startDate, d.range.endDate)],
    ['EVENTS ANALYZED', count(d.eventsAnalyzed)],
    ['THREATS DETECTED', count(d.threatsDetected)],
    ['  BLOCKED', count(d.blocked)],
    ['  FLAGGED', count(d.flagged)],
    ['  LOGGED', count(d.logged)],
    ['FRAUD RATE', share(d.fraudRate)],
    ['FALSE POSITIVES', share(d.falsePositiveRate)],
    ['BLOCKED IPS', count(d.blockedIps)],
    ['BLOCKED DEVICES', count(d.blockedDevices)],
    ['AVG LATENCY', d.avgDetectionLatencyUs === null ? '-' : `${round(d.avgDetectionLatencyUs, 1)} µs`],
    ['BY THREAT TYPE', count(THREAT_TYPES.reduce((sum, t) => sum + d.byThreatType[t], 0))],
    ...THREAT_TYPES.map((t): Field => [`  ${t.toUpperCase()}`, count(d.byThreatType[t])]),
  ]
}

export async function runFraudDashboard(o: RangeOpts & { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).fraud.dashboard(o.game, rangeQuery(o))
  await emit(ctx, d, () => printRecord(ctx, dashboardFields(d)))
}

export function register(fraud: Command): void {
  jsonOption(
    rangeOptions(
      fraud
        .command('dashboard')
        .description(
          'fraud figures of a game over a date range: analyzed, detected, rates, latency, threats by type',
        )
        .argument('<game>', GAME_ARGUMENT),
    ),
  ).action(action<RangeOpts>(([game], o, ctx) => runFraudDashboard({ ...o, game: game ?? '' }, ctx)))
}
