/** `linkctl analytics overview <game>`: the gaming overview (DAU, MAU, revenue, retention). */
import type { Command } from 'commander'
import type { Overview } from '../../../contract/gaming.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { dateRange, emit, percent, printRecord } from '../../output.js'
import { amount, currencyOf, gameAction, gameCommand, rangeQuery, type RangeOpts } from './shared.js'

export interface OverviewOpts extends RangeOpts {
  game: string
}

const pct = (v: number | null) => (v === null ? '-' : percent(v))

export async function runAnalyticsOverview(o: OverviewOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const [r, currency]: [Overview, string | undefined] = await Promise.all([
    (await ctx.client()).analytics.gameOverview(o.game, rangeQuery(o)),
    currencyOf(ctx, o.game),
  ])
  const cash = amount(currency, true)
  await emit(ctx, r, () =>
    printRecord(ctx, [
      ['RANGE', dateRange(r.range.startDate, r.range.endDate)],
      ['DAU', r.dau],
      ['MAU', r.mau],
      ['REVENUE', cash(r.revenue.total)],
      ['  IAP', cash(r.revenue.iap)],
      ['  AD', cash(r.revenue.ad)],
      ['  SUBSCRIPTION', cash(r.revenue.subscription)],
      ['ARPU', cash(r.arpu)],
      ['ARPPU', cash(r.arppu)],
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
