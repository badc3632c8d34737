/** `linkctl analytics segments <game>`: whale, dolphin, minnow and free players by lifetime revenue. */
import type { Command } from 'commander'
import type { SegmentRow, SegmentsReport } from '../../../contract/gaming-revenue.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, note, percent, printRows, type Column } from '../../output.js'
import { amount, inCurrency } from './shared.js'

export async function runAnalyticsSegments(o: { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const r: SegmentsReport = await (await ctx.client()).analytics.gameSegments(o.game)
  const c = r.currency
  const cash = amount(c, ctx.isTTY)
  const columns: Column<SegmentRow>[] = [
    { header: 'SEGMENT', value: (x) => x.segment },
    { header: 'PLAYERS', value: (x) => x.players },
    { header: 'SHARE', value: (x) => (ctx.isTTY ? percent(x.share) : x.share) },
    { header: inCurrency('REVENUE', c, ctx.isTTY), name: 'revenue', value: (x) => cash(x.revenue) },
    { header: 'REVENUE SHARE', value: (x) => (ctx.isTTY ? percent(x.revenueShare) : x.revenueShare) },
    { header: 'AVG REVENUE', value: (x) => cash(x.avgRevenue) },
  ]
  await emit(ctx, r, async () => {
    await printRows(ctx, r.data, columns)
    if (ctx.isTTY)
      note(
        ctx,
        `whale >= ${r.thresholds.whale} ${c}, dolphin >= ${r.thresholds.dolphin} ${c}, minnow > 0, free = 0`,
      )
  })
}

export function register(analytics: Command): void {
  jsonOption(
    analytics
      .command('segments')
      .description("the game's players by lifetime revenue: whale, dolphin, minnow, free")
      .argument('<game>', 'game id'),
  ).action(action(([game], _o, ctx) => runAnalyticsSegments({ game: game ?? '' }, ctx)))
}
