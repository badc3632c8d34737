/**
 * `linkctl analytics attribution <game>`: installs, conversions, revenue, cost, CPA and ROAS per
 * source (or campaign, medium, affiliate, or the link that brought the install, with its short URL).
 */
import { Option, type Command } from 'commander'
import type { AttributionReport, AttributionRow } from '../../../contract/gaming-revenue.js'
import { ATTRIBUTION_GROUPS } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { money, type Column } from '../../output.js'
import { amount, emitGrouped, inCurrency, rangeOptions, rangeQuery, type RangeOpts } from './shared.js'

export interface AttributionOpts extends RangeOpts {
  game: string
  groupBy?: (typeof ATTRIBUTION_GROUPS)[number]
}

const orDash = (v: number | null, decimals: number) => (v === null ? '-' : money(v, decimals))

export async function runAnalyticsAttribution(o: AttributionOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const r: AttributionReport = await (
    await ctx.client()
  ).analytics.gameAttribution(o.game, { ...rangeQuery(o), ...(o.groupBy ? { groupBy: o.groupBy } : {}) })
  const c = r.currency
  const cash = amount(c, ctx.isTTY)
  const columns: Column<AttributionRow>[] = [
    { header: (o.groupBy ?? 'source').toUpperCase(), value: (x) => x.group },
    ...(o.groupBy === 'link'
      ? [{ header: 'SHORT URL', value: (x: AttributionRow) => x.shortUrl, fit: 'flex' as const }]
      : []),
    { header: 'INSTALLS', value: (x) => x.installs },
    { header: 'CONVERSIONS', value: (x) => x.conversions },
    { header: inCurrency('REVENUE', c, ctx.isTTY), name: 'revenue', value: (x) => cash(x.revenue) },
    { header: 'COST', value: (x) => cash(x.cost) },
    { header: 'COMMISSION', value: (x) => cash(x.commission) },
    { header: 'AVG CPA', value: (x) => (x.avgCpa === null ? '-' : cash(x.avgCpa)) },
    { header: 'AVG ROAS', value: (x) => orDash(x.avgRoas, 2) },
  ]
  await emitGrouped(ctx, r, columns)
}

export function register(analytics: Command): void {
  jsonOption(
    rangeOptions(
      analytics
        .command('attribution')
        .description(
          'installs, conversions, revenue, cost, commission, CPA and ROAS per attribution value, or per link clicked before the install (--group-by link)',
        )
        .argument('<game>', 'game id')
        .addOption(
          new Option(
            '--group-by <group>',
            'first-touch attribution field, or link: the link or smart link clicked before the install (default source)',
          ).choices(ATTRIBUTION_GROUPS),
        ),
    ),
  ).action(
    action<Omit<AttributionOpts, 'game'>>(([game], o, ctx) =>
      runAnalyticsAttribution({ ...o, game: game ?? '' }, ctx),
    ),
  )
}
