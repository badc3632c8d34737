/** `linkctl games ...`: game registration and settings over /api/v1/admin/games. */
import { Option, type Command } from 'commander'
import { GAME_LIMITS, GAME_PLATFORMS, GAME_STATUSES, PAGE_SIZES } from '../../../contract/limits.js'
import type { CreateGameBody, Game, GameWithSecrets, UpdateGameBody } from '../../../contract/games.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { UsageError } from '../../exit-codes.js'
import { emit, note, printRecord, printRows, warn, type Field } from '../../output.js'
import { intArg } from '../../parse.js'

export interface GameFlags {
  name?: string
  slug?: string
  platform?: (typeof GAME_PLATFORMS)[number]
  status?: (typeof GAME_STATUSES)[number]
  analytics?: boolean
  fraud?: boolean
  skan?: boolean
  rawRetentionDays?: number
  compactedRetentionMonths?: number
  hmac?: boolean
  replayWindow?: number
}

const ONCE = 'the SDK key and signing secret are shown only now: store them'

function gameFields(g: Game | GameWithSecrets): Field[] {
  const on = (b: boolean) => (b ? 'on' : 'off')
  const fields: Field[] = [
    ['ID', g.id],
    ['NAME', g.name],
    ['PLATFORM', g.platform],
    ['STATUS', g.status],
    [
      'MODULES',
      `analytics ${on(g.modules.analytics)}, fraud ${on(g.modules.fraud)}, skan ${on(g.modules.skan)}`,
    ],
    ['RAW RETENTION', `${g.rawRetentionDays} days`],
    ['COMPACTED RETENTION', `${g.compactedRetentionMonths} months`],
    ['HMAC REQUIRED', g.hmacRequired ? 'yes' : 'no'],
    ['REPLAY WINDOW', `${g.replayWindowSeconds} s`],
    ['ORGANIZATION', g.organizationId],
    ['SDK KEY', 'sdkKey' in g ? g.sdkKey : g.sdkKeyPreview],
  ]
  if ('signingSecret' in g) fields.push(['SIGNING SECRET', g.signingSecret])
  fields.push(['CREATED', g.createdAt])
  return fields
}

function modules(o: GameFlags): CreateGameBody['modules'] | undefined {
  const m = {
    ...(o.analytics !== undefined ? { analytics: o.analytics } : {}),
    ...(o.fraud !== undefined ? { fraud: o.fraud } : {}),
    ...(o.skan !== undefined ? { skan: o.skan } : {}),
  }
  return Object.keys(m).length ? m : undefined
}

function settings(o: GameFlags) {
  const m = modules(o)
  return {
    ...(o.status ? { status: o.status } : {}),
    ...(m ? { modules: m } : {}),
    ...(o.rawRetentionDays !== undefined ? { rawRetentionDays: o.rawRetentionDays } : {}),
    ...(o.compactedRetentionMonths !== undefined
      ? { compactedRetentionMonths: o.compactedRetentionMonths }
      : {}),
    ...(o.hmac !== undefined ? { hmacRequired: o.hmac } : {}),
    ...(o.replayWindow !== undefined ? { replayWindowSeconds: o.replayWindow } : {}),
  }
}

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
  await emit(ctx, g, () => printRecord(ctx, gameFields(g)))
  warn(ctx, ONCE)
}

export async function runGamesList(
  o: { status?: string; page?: number; limit?: string },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const page = await (
    await ctx.client()
  ).games.list({
    ...(o.status ? { status: o.status as Game['status'] } : {}),
    ...(o.page !== undefined ? { page: o.page } : {}),
    ...(o.limit !== undefined ? { limit: Number(o.limit) as 10 } : {}),
  })
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No games.')
    await printRows(ctx, page.data, [
      { header: 'ID', value: (g) => g.id },
      { header: 'NAME', value: (g) => g.name },
      { header: 'PLATFORM', value: (g) => g.platform },
      { header: 'STATUS', value: (g) => g.status },
      { header: 'SDK KEY', value: (g) => g.sdkKeyPreview },
      { header: 'CREATED', value: (g) => g.createdAt },
    ])
    if (ctx.isTTY && page.hasMore) note(ctx, `${page.total} games; next: --page ${page.page + 1}`)
  })
}

export async function runGamesGet(o: { id: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const g = await (await ctx.client()).games.get(o.id)
  await emit(ctx, g, () => printRecord(ctx, gameFields(g)))
}

export async function runGamesUpdate(o: GameFlags & { id: string }, ctx: Ctx): Promise<void> {
  const body: UpdateGameBody = { ...(o.name ? { name: o.name } : {}), ...settings(o) }
  if (Object.keys(body).length === 0)
    throw new UsageError('nothing to change: give at least one setting flag')
  await requireKey(ctx)
  const g = await (await ctx.client()).games.update(o.id, body)
  await emit(ctx, g, () => printRecord(ctx, gameFields(g)))
}

export async function runGamesRegenerateKey(o: { id: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const g = await (await ctx.client()).games.regenerateKey(o.id)
  await emit(ctx, g, () => printRecord(ctx, gameFields(g)))
  warn(ctx, `the previous SDK key stopped working; ${ONCE}`)
}

function settingOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--status <status>', 'game status').choices(GAME_STATUSES))
    .option('--analytics', 'turn Gaming Analytics on')
    .option('--no-analytics', 'turn Gaming Analytics off')
    .option('--fraud', 'turn Fraud Detection on')
    .option('--no-fraud', 'turn Fraud Detection off')
    .option('--skan', 'turn SKAdNetwork on')
    .option('--no-skan', 'turn SKAdNetwork off')
    .option(
      '--raw-retention-days <n>',
      `raw data retention (default ${GAME_LIMITS.rawRetentionDaysDefault})`,
      intArg(GAME_LIMITS.rawRetentionDaysMin, GAME_LIMITS.rawRetentionDaysMax),
    )
    .option(
      '--compacted-retention-months <n>',
      `aggregate retention (default ${GAME_LIMITS.compactedRetentionMonthsDefault})`,
      intArg(GAME_LIMITS.compactedRetentionMonthsMin, GAME_LIMITS.compactedRetentionMonthsMax),
    )
    .option('--hmac', 'require HMAC-signed batches')
    .option('--no-hmac', 'accept unsigned batches')
    .option(
      '--replay-window <seconds>',
      `replay window (default ${GAME_LIMITS.replayWindowSecondsDefault})`,
      intArg(GAME_LIMITS.replayWindowSecondsMin, GAME_LIMITS.replayWindowSecondsMax),
    )
}

/** Commander sets `--no-x` defaults to true; only flags given on the command line count. */
function given<O extends object>(cmd: Command, opts: O): O {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(opts)) if (cmd.getOptionValueSource(k) === 'cli') out[k] = v
  return out as O
}

const idAction = <O>(run: (opts: O & { id: string }, ctx: Ctx) => Promise<void>) =>
  action<O>(([id], opts, ctx) => run({ ...opts, id: id ?? '' }, ctx))

export function register(program: Command): void {
  const games = program.command('games').description('manage games (gaming analytics)')

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
    action<GameFlags>((_a, opts, ctx) => runGamesCreate(given(create, opts), ctx)),
  )

  const list = games.command('list').alias('ls').description('list games')
  list.addOption(new Option('--status <status>', 'only games with this status').choices(GAME_STATUSES))
  list.option('--page <n>', 'page number, from 1', intArg(1))
  list.addOption(new Option('--limit <n>', 'page size').choices(PAGE_SIZES.map(String)))
  jsonOption(list).action(
    action<{ status?: string; page?: number; limit?: string }>((_a, o, ctx) => runGamesList(o, ctx)),
  )

  jsonOption(games.command('get').description('show a game').argument('<game>', 'game id')).action(
    idAction(runGamesGet),
  )

  const update = games
    .command('update')
    .description('change a game (id and platform cannot change)')
    .argument('<game>', 'game id')
    .option('--name <name>', 'display name')
  jsonOption(settingOptions(update)).action(
    idAction<GameFlags>((opts, ctx) => runGamesUpdate({ ...given(update, opts), id: opts.id }, ctx)),
  )

  jsonOption(
    games
      .command('regenerate-key')
      .description('new SDK key and signing secret (the old key stops working at once)')
      .argument('<game>', 'game id'),
  ).action(idAction(runGamesRegenerateKey))
}
