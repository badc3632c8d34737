/** `linkctl analytics leaderboard <game>`: top players by revenue earned in the range. */
import type { Command } from 'commander'
import type { Leaderboard } from '../../../contract/gaming.js'
import { LEADERBOARD_LIMITS } from '../../../contract/limits.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRows } from '../../output.js'
import { intArg } from '../../parse.js'
import {
  amount,
  currencyOf,
  gameAction,
  gameCommand,
  inCurrency,
  rangeQuery,
  type RangeOpts,
} from './shared.js'

export interface LeaderboardOpts extends RangeOpts {
  game: string
  limit?: number
}

export async function runAnalyticsLeaderboard(o: LeaderboardOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const [r, currency]: [Leaderboard, string | undefined] = await Promise.all([
    client.analytics.gameLeaderboard(o.game, { ...rangeQuery(o), ...(o.limit ? { limit: o.limit } : {}) }),
    currencyOf(ctx, o.game),
  ])
  const cash = amount(currency, ctx.isTTY)
  await emit(ctx, r, () =>
    printRows(ctx, r.data, [
      { header: 'RANK', value: (row) => row.rank },
      { header: 'PLAYER', value: (row) => row.playerId },
      {
        header: inCurrency('REVENUE', currency, ctx.isTTY),
        name: 'revenue',
        value: (row) => cash(row.revenue),
      },
    ]),
  )
}

export function register(analytics: Command): void {
  gameCommand(analytics, 'leaderboard', 'top players by revenue in the range, ranked')
    .option(
      '--limit <n>',
      `players (1-${LEADERBOARD_LIMITS.max}; default ${LEADERBOARD_LIMITS.default})`,
      intArg(1, LEADERBOARD_LIMITS.max),
    )
    .action(gameAction<Omit<LeaderboardOpts, 'game'>>(runAnalyticsLeaderboard))
}
