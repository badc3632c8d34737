/** `linkctl games update <game>`: change a game (its id and platform cannot change). */
import type { Command } from 'commander'
import type { UpdateGameBody } from '../../../contract/games.js'
import { idAction, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit, printRecord } from '../../output.js'
import { GAME_FLAGS, gameFields, given, settingOptions, settings, type GameFlags } from './shared.js'

export async function runGamesUpdate(o: GameFlags & { id: string }, ctx: Ctx): Promise<void> {
  const body: UpdateGameBody = { ...(o.name ? { name: o.name } : {}), ...settings(o) }
  if (Object.keys(body).length === 0)
    throw new UsageError('nothing to change: give at least one setting flag')
  await requireKey(ctx)
  const g = await (await ctx.client()).games.update(o.id, body)
  await emit(ctx, g, () => printRecord(ctx, gameFields(g, ctx.isTTY)))
}

export function register(games: Command): void {
  const update = games
    .command('update')
    .description('change a game (id and platform cannot change)')
    .argument('<game>', 'game id')
    .option('--name <name>', 'display name')
  jsonOption(settingOptions(update)).action(
    idAction<GameFlags>((opts, ctx) => runGamesUpdate({ ...given(update, opts), id: opts.id }, ctx), {
      flagOf: GAME_FLAGS,
    }),
  )
}
