/** `linkctl analytics geography <game>`: players, sessions and revenue per country. */
import type { Command } from 'commander'
import type { Geography } from '../../../contract/gaming.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { countryName, emit, printRows } from '../../output.js'
import {
  amount,
  currencyOf,
  gameAction,
  gameCommand,
  inCurrency,
  rangeQuery,
  type RangeOpts,
} from './shared.js'

export async function runAnalyticsGeography(o: RangeOpts & { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const [r, currency]: [Geography, string | undefined] = await Promise.all([
    (await ctx.client()).analytics.gameGeography(o.game, rangeQuery(o)),
    currencyOf(ctx, o.game),
  ])
  const cash = amount(currency, ctx.isTTY)
  await emit(ctx, r, () =>
    printRows(ctx, r.data, [
      { header: 'COUNTRY', value: (row) => countryName(row.country) },
      { header: 'PLAYERS', value: (row) => row.players },
      { header: 'SESSIONS', value: (row) => row.sessions },
      {
        header: inCurrency('REVENUE', currency, ctx.isTTY),
        name: 'revenue',
        value: (row) => cash(row.revenue),
      },
      { header: 'PER PLAYER', value: (row) => cash(row.revenuePerPlayer) },
    ]),
  )
}

export function register(analytics: Command): void {
  gameCommand(analytics, 'geography', 'players, sessions, revenue and revenue per player by country').action(
    gameAction<RangeOpts>(runAnalyticsGeography),
  )
}
