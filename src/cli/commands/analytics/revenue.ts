/** `linkctl analytics revenue <game>`: revenue per day, week, month, platform or source, with totals. */
import { Option, type Command } from 'commander'
import type { RevenueReport, RevenueRow } from '../../../contract/gaming-revenue.js'
import { REVENUE_GROUPS } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { type Column } from '../../output.js'
import { amount, emitGrouped, inCurrency, rangeOptions, rangeQuery, type RangeOpts } from './shared.js'

export interface RevenueOpts extends RangeOpts {
  game: string
  groupBy?: (typeof REVENUE_GROUPS)[number]
}

export async function runAnalyticsRevenue(o: RevenueOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const r: RevenueReport = await (
    await ctx.client()
  ).analytics.gameRevenue(o.game, { ...rangeQuery(o), ...(o.groupBy ? { groupBy: o.groupBy } : {}) })
  const c = r.currency
  const cash = amount(c, ctx.isTTY)
  const columns: Column<RevenueRow>[] = [
    { header: (o.groupBy ?? 'day').toUpperCase(), value: (x) => x.group },
    { header: inCurrency('TOTAL', c, ctx.isTTY), name: 'total', value: (x) => cash(x.total) },
    { header: 'IAP', value: (x) => cash(x.iap) },
    { header: 'AD', value: (x) => cash(x.ad) },
    { header: 'SUBSCRIPTION', value: (x) => cash(x.subscription) },
    // Left out of a narrow terminal (80 columns) before any amount is cut.
    { header: 'TRANSACTIONS', value: (x) => x.transactions, drop: 2 },
    { header: 'PAYING USERS', value: (x) => x.payingUsers, drop: 1 },
    { header: 'ARPPU', value: (x) => cash(x.arppu) },
  ]
  await emitGrouped(ctx, r, columns)
}

export function register(analytics: Command): void {
  jsonOption(
    rangeOptions(
      analytics
        .command('revenue')
        .description('revenue by type, transactions, paying users and ARPPU per period, platform or source')
        .argument('<game>', 'game id')
        .addOption(new Option('--group-by <group>', 'rows per (default day)').choices(REVENUE_GROUPS)),
    ),
  ).action(
    action<Omit<RevenueOpts, 'game'>>(([game], o, ctx) =>
      runAnalyticsRevenue({ ...o, game: game ?? '' }, ctx),
    ),
  )
}
