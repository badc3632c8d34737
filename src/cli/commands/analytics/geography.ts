/** `linkctl analytics geography <game>`: players, sessions and revenue per country. */
import type { Command } from 'commander'
import type { Geography } from '../../../contract/gaming.js'
import { requireKey, type Ctx } from '../../context.js'
import { emit, money, printRows } from '../../output.js'
import { gameAction, gameCommand, rangeQuery, type RangeOpts } from './shared.js'

export async function runAnalyticsGeography(o: RangeOpts & { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const r: Geography = await (await ctx.client()).analytics.gameGeography(o.game, rangeQuery(o))
  await emit(ctx, r, () =>
    printRows(ctx, r.data, [
      { header: 'COUNTRY', value: (row) => row.country ?? 'unknown' },
      { header: 'PLAYERS', value: (row) => row.players },
      { header: 'SESSIONS', value: (row) => row.sessions },
      { header: 'REVENUE', value: (row) => money(row.revenue) },
      { header: 'PER PLAYER', value: (row) => money(row.revenuePerPlayer, 4) },
    ]),
  )
}

export function register(analytics: Command): void {
  gameCommand(analytics, 'geography', 'players, sessions, revenue and revenue per player by country').action(
    gameAction<RangeOpts>(runAnalyticsGeography),
  )
}
