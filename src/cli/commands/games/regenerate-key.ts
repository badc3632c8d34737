/** `linkctl games regenerate-key <game>`: a new SDK key and signing secret; the old key stops at once. */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord, warn } from '../../output.js'
import { gameFields, ONCE } from './shared.js'

export async function runGamesRegenerateKey(o: { id: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const g = await (await ctx.client()).games.regenerateKey(o.id)
  await emit(ctx, g, () => printRecord(ctx, gameFields(g, ctx.isTTY)))
  warn(ctx, `the previous SDK key stopped working; ${ONCE}`)
}

export function register(games: Command): void {
  jsonOption(
    games
      .command('regenerate-key')
      .description('new SDK key and signing secret (the old key stops working at once)')
      .argument('<game>', 'game id'),
  ).action(idAction(runGamesRegenerateKey))
}
