/**
 * `linkctl analytics events <game>`: events per type (each custom name its own row, KIND custom),
 * distinct players (not kept per custom name: '-'), share of all events.
 */
import type { Command } from 'commander'
import type { Events } from '../../../contract/gaming.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, percent, printRows } from '../../output.js'
import { gameAction, gameCommand, rangeQuery, type RangeOpts } from './shared.js'

export async function runAnalyticsEvents(o: RangeOpts & { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const r: Events = await (await ctx.client()).analytics.gameEvents(o.game, rangeQuery(o))
  await emit(ctx, r, () =>
    printRows(ctx, r.data, [
      { header: 'EVENT TYPE', value: (row) => row.eventType },
      { header: 'KIND', value: (row) => (row.custom ? 'custom' : 'named') },
      { header: 'COUNT', value: (row) => row.count },
      { header: 'PLAYERS', value: (row) => row.uniquePlayers },
      { header: 'SHARE', value: (row) => percent(row.percentage) },
    ]),
  )
}

export function register(analytics: Command): void {
  gameCommand(analytics, 'events', 'events per type: count, distinct players, share of all events').action(
    gameAction<RangeOpts>(runAnalyticsEvents),
  )
}
