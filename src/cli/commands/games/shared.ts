/**
 * What the `games` verbs share: the setting flags and the body they become, and how a game
 * looks on the terminal.
 */
import { Option, type Command } from 'commander'
import { GAME_LIMITS, type GAME_PLATFORMS, GAME_STATUSES } from '../../../contract/limits.js'
import type { CreateGameBody, Game, GameWithSecrets } from '../../../contract/games.js'
import { plural, when, type Field } from '../../output.js'
import { intArg, moneyArg } from '../../parse.js'

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
  attributionWindow?: number
  currency?: string
  whale?: number
  dolphin?: number
}

export const ONCE = 'the SDK key and signing secret are shown only now: store them'

export function gameFields(g: Game | GameWithSecrets, tty = false): Field[] {
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
    ['RAW RETENTION', plural(g.rawRetentionDays, 'day')],
    ['COMPACTED RETENTION', plural(g.compactedRetentionMonths, 'month')],
    ['HMAC REQUIRED', g.hmacRequired ? 'yes' : 'no'],
    ['REPLAY WINDOW', `${g.replayWindowSeconds} s`],
    ['ATTRIBUTION WINDOW', plural(g.attributionWindowDays, 'day')],
    ['REPORTING CURRENCY', g.reportingCurrency],
    ['SEGMENTS', `whale >= ${g.segments.whale}, dolphin >= ${g.segments.dolphin}, minnow > 0`],
    ['ORGANIZATION', g.organizationId],
    ['SDK KEY', 'sdkKey' in g ? g.sdkKey : g.sdkKeyPreview],
  ]
  if ('signingSecret' in g) fields.push(['SIGNING SECRET', g.signingSecret])
  fields.push(['CREATED', when(g.createdAt, tty)])
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

/** The settings in a create or update body, for the flags given. */
export function settings(o: GameFlags) {
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
    ...(o.attributionWindow !== undefined ? { attributionWindowDays: o.attributionWindow } : {}),
    ...(o.currency ? { reportingCurrency: o.currency.toUpperCase() } : {}),
    ...(o.whale !== undefined || o.dolphin !== undefined
      ? {
          segments: {
            ...(o.whale !== undefined ? { whale: o.whale } : {}),
            ...(o.dolphin !== undefined ? { dolphin: o.dolphin } : {}),
          },
        }
      : {}),
  }
}

/**
 * The settings' fields named otherwise than their flags, for a refusal (`reportingCurrency` →
 * `--currency`); `rawRetentionDays`… map by themselves (see `action`).
 */
export const GAME_FLAGS = {
  replayWindowSeconds: '--replay-window',
  attributionWindowDays: '--attribution-window',
  reportingCurrency: '--currency',
  'segments.whale': '--whale',
  'segments.dolphin': '--dolphin',
}

/** The setting flags of `games create` and `games update`. */
export function settingOptions(cmd: Command): Command {
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
    .option(
      '--attribution-window <days>',
      `days after a link click within which an install is attributed to that link (default ${GAME_LIMITS.attributionWindowDaysDefault})`,
      intArg(GAME_LIMITS.attributionWindowDaysMin, GAME_LIMITS.attributionWindowDaysMax),
    )
    .option(
      '--currency <code>',
      `reporting currency, ISO 4217 (default ${GAME_LIMITS.reportingCurrencyDefault}; fixed once the game has players)`,
    )
    .option(
      '--whale <amount>',
      `whale segment: lifetime revenue at least (default ${GAME_LIMITS.whaleDefault})`,
      moneyArg(GAME_LIMITS.thresholdMax, true),
    )
    .option(
      '--dolphin <amount>',
      `dolphin segment: lifetime revenue at least (default ${GAME_LIMITS.dolphinDefault}; below whale)`,
      moneyArg(GAME_LIMITS.thresholdMax, true),
    )
}

/** Commander sets `--no-x` defaults to true; only flags given on the command line count. */
export function given<O extends object>(cmd: Command, opts: O): O {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(opts)) if (cmd.getOptionValueSource(k) === 'cli') out[k] = v
  return out as O
}
