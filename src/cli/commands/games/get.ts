/** `linkctl games get <game>`: one game. */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { gameFields } from './shared.js'

export async function runGamesGet(o: { id: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const g = await (await ctx.client()).games.get(o.id)
  await emit(ctx, g, () => printRecord(ctx, gameFields(g, ctx.isTTY)))
}

export function register(games: Command): void {
  jsonOption(games.command('get').description('show a game').argument('<game>', 'game id')).action(
    idAction(runGamesGet),
  )
}
