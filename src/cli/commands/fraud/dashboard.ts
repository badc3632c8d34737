/** `linkctl fraud dashboard <game>`: the fraud figures of a date range. */
import type { Command } from 'commander'
import type { FraudDashboard } from '../../../contract/fraud.js'
import { THREAT_TYPES } from '../../../contract/fraud-limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { dateRange, emit, percent, printRecord, round, type Field } from '../../output.js'
import { count } from '../../paging.js'
import { dayArg } from '../../parse.js'
import { END_DATE_HELP, START_DATE_HELP } from '../analytics/shared.js'
import { GAME_ARGUMENT } from './shared.js'

export interface DateFlags {
  from?: string
  to?: string
}

/** --from and --to as the API's startDate and endDate (absent ones left out). */
export const dateQuery = (o: DateFlags) => ({
  ...(o.from !== undefined ? { startDate: o.from } : {}),
  ...(o.to !== undefined ? { endDate: o.to } : {}),
})

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

export async function runFraudDashboard(o: DateFlags & { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).fraud.dashboard(o.game, dateQuery(o))
  await emit(ctx, d, () => printRecord(ctx, dashboardFields(d)))
}

export function register(fraud: Command): void {
  jsonOption(
    fraud
      .command('dashboard')
      .description(
        'fraud figures of a game over a date range: analyzed, detected, rates, latency, threats by type',
      )
      .argument('<game>', GAME_ARGUMENT)
      .option('--from <date>', START_DATE_HELP, dayArg)
      .option('--to <date>', END_DATE_HELP, dayArg),
  ).action(action<DateFlags>(([game], o, ctx) => runFraudDashboard({ ...o, game: game ?? '' }, ctx)))
}
