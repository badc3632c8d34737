/** `linkctl analytics overview <game>`: the gaming overview (DAU, MAU, revenue, retention). */
import type { Command } from 'commander'
import type { Overview } from '../../../contract/gaming.js'
import { requireKey, type Ctx } from '../../context.js'
import { emit, money, percent, printRecord } from '../../output.js'
import { gameAction, gameCommand, rangeQuery, type RangeOpts } from './shared.js'

export interface OverviewOpts extends RangeOpts {
  game: string
}

const pct = (v: number | null) => (v === null ? '-' : percent(v))

export async function runAnalyticsOverview(o: OverviewOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const r: Overview = await (await ctx.client()).analytics.gameOverview(o.game, rangeQuery(o))
  await emit(ctx, r, () =>
    printRecord(ctx, [
      ['RANGE', `${r.range.startDate} .. ${r.range.endDate}`],
      ['DAU', r.dau],
      ['MAU', r.mau],
      ['REVENUE', money(r.revenue.total)],
      ['  IAP', money(r.revenue.iap)],
      ['  AD', money(r.revenue.ad)],
      ['  SUBSCRIPTION', money(r.revenue.subscription)],
      ['ARPU', money(r.arpu, 4)],
      ['ARPPU', money(r.arppu, 4)],
      ['AVG SESSION', `${r.avgSessionSeconds} s`],
      ['RETENTION D1', pct(r.retention.d1)],
      ['RETENTION D7', pct(r.retention.d7)],
      ['RETENTION D30', pct(r.retention.d30)],
    ]),
  )
}

export function register(analytics: Command): void {
  gameCommand(
    analytics,
    'overview',
    'DAU, MAU, revenue, ARPU, ARPPU, session length and D1/D7/D30 retention of a game',
  ).action(gameAction<Omit<OverviewOpts, 'game'>>(runAnalyticsOverview))
}
