/** `linkctl games create`: register a game; its SDK key and signing secret are shown this once. */
import { Option, type Command } from 'commander'
import { GAME_LIMITS, GAME_PLATFORMS } from '../../../contract/limits.js'
import type { CreateGameBody } from '../../../contract/games.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit, printRecord, warn } from '../../output.js'
import { GAME_FLAGS, gameFields, given, ONCE, settingOptions, settings, type GameFlags } from './shared.js'

export async function runGamesCreate(o: GameFlags, ctx: Ctx): Promise<void> {
  if (!o.name || !o.platform) throw new UsageError('--name and --platform are required')
  const body: CreateGameBody = {
    name: o.name,
    platform: o.platform,
    ...(o.slug ? { slug: o.slug } : {}),
    ...settings(o),
  }
  await requireKey(ctx)
  const g = await (await ctx.client()).games.create(body)
  await emit(ctx, g, () => printRecord(ctx, gameFields(g, ctx.isTTY)))
  warn(ctx, ONCE)
}

export function register(games: Command): void {
  const create = games
    .command('create')
    .description('register a game (the SDK key and signing secret are shown once)')
    .requiredOption(
      '--name <name>',
      `display name (${GAME_LIMITS.nameMin}-${GAME_LIMITS.nameMax} characters)`,
    )
    .addOption(
      new Option('--platform <platform>', 'platform (read-only later)')
        .choices(GAME_PLATFORMS)
        .makeOptionMandatory(),
    )
    .option('--slug <id>', 'game id: letters, digits, -, _ (generated from the name when left out)')
  jsonOption(settingOptions(create)).action(
    action<GameFlags>((_a, opts, ctx) => runGamesCreate(given(create, opts), ctx), { flagOf: GAME_FLAGS }),
  )
}
