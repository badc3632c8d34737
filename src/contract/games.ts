import Type, { type Static } from 'typebox'
import { PageQuery, StringEnum, Timestamp } from './common.js'
import { CURRENCY_PATTERN, SLUG_PATTERN, VisibleText } from './text.js'
import { GAME_LIMITS as L, GAME_PLATFORMS, GAME_STATUSES } from './limits.js'

export { GAME_PLATFORMS, GAME_STATUSES, type GamePlatform, type GameStatus } from './limits.js'

const Name = VisibleText({ minLength: L.nameMin, maxLength: L.nameMax })
const Slug = Type.String({
  minLength: L.slugMin,
  maxLength: L.slugMax,
  pattern: SLUG_PATTERN,
  description: 'Letters, digits, hyphens, underscores; generated from the name when blank; immutable',
})
const Platform = StringEnum(GAME_PLATFORMS)
const Status = StringEnum(GAME_STATUSES)
const RawRetention = Type.Integer({ minimum: L.rawRetentionDaysMin, maximum: L.rawRetentionDaysMax })
const CompactedRetention = Type.Integer({
  minimum: L.compactedRetentionMonthsMin,
  maximum: L.compactedRetentionMonthsMax,
})
const ReplayWindow = Type.Integer({ minimum: L.replayWindowSecondsMin, maximum: L.replayWindowSecondsMax })
const AttributionWindow = Type.Integer({
  minimum: L.attributionWindowDaysMin,
  maximum: L.attributionWindowDaysMax,
  description: 'Days after a smart-link click that an app_install carrying its click_id is attributed to it',
})

const Currency = Type.String({
  pattern: CURRENCY_PATTERN,
  description: 'ISO 4217 code every amount of the game is reported in; fixed once the game has players (409)',
  examples: ['USD'],
})
const Threshold = Type.Number({ minimum: 0.000001, maximum: L.thresholdMax })
/** Segment thresholds on lifetime revenue in the reporting currency: whale > dolphin > 0. */
export const SegmentThresholds = Type.Object(
  {
    whale: Threshold,
    dolphin: Threshold,
  },
  {
    additionalProperties: false,
    description: 'Whale: lifetime revenue >= whale; dolphin: >= dolphin; minnow: > 0; free: 0',
  },
)
const ThresholdsPatch = Type.Partial(SegmentThresholds, { additionalProperties: false })

export const GameModules = Type.Object(
  { analytics: Type.Boolean(), fraud: Type.Boolean(), skan: Type.Boolean() },
  { additionalProperties: false },
)
// Type.Partial drops the options: closed again, so an unknown module is a 400, not silently ignored.
const ModulesPatch = Type.Partial(GameModules, { additionalProperties: false })

export const CreateGameBody = Type.Object(
  {
    name: Name,
    slug: Type.Optional(Type.Union([Slug, Type.Literal('')])),
    platform: Platform,
    status: Type.Optional(Status),
    modules: Type.Optional(ModulesPatch),
    rawRetentionDays: Type.Optional(RawRetention),
    compactedRetentionMonths: Type.Optional(CompactedRetention),
    hmacRequired: Type.Optional(Type.Boolean()),
    replayWindowSeconds: Type.Optional(ReplayWindow),
    attributionWindowDays: Type.Optional(AttributionWindow),
    reportingCurrency: Type.Optional(Currency),
    segments: Type.Optional(ThresholdsPatch),
  },
  { additionalProperties: false },
)
export type CreateGameBody = Static<typeof CreateGameBody>

/** slug and platform are accepted only to say that they cannot change (400). */
export const UpdateGameBody = Type.Object(
  {
    name: Type.Optional(Name),
    status: Type.Optional(Status),
    modules: Type.Optional(ModulesPatch),
    rawRetentionDays: Type.Optional(RawRetention),
    compactedRetentionMonths: Type.Optional(CompactedRetention),
    hmacRequired: Type.Optional(Type.Boolean()),
    replayWindowSeconds: Type.Optional(ReplayWindow),
    attributionWindowDays: Type.Optional(AttributionWindow),
    reportingCurrency: Type.Optional(Currency),
    segments: Type.Optional(ThresholdsPatch),
    slug: Type.Optional(Type.String({ description: 'read-only: 400 when it differs' })),
    platform: Type.Optional(Type.String({ description: 'read-only: 400 when it differs' })),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateGameBody = Static<typeof UpdateGameBody>

export const Game = Type.Object({
  id: Type.String({ description: 'The slug' }),
  name: Type.String(),
  platform: Platform,
  status: Status,
  modules: GameModules,
  rawRetentionDays: Type.Integer(),
  compactedRetentionMonths: Type.Integer(),
  hmacRequired: Type.Boolean(),
  replayWindowSeconds: Type.Integer(),
  attributionWindowDays: Type.Integer(),
  reportingCurrency: Type.String(),
  segments: SegmentThresholds,
  organizationId: Type.String(),
  sdkKeyPreview: Type.String({ description: 'sdk_••• and the last four characters' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type Game = Static<typeof Game>

export const GameWithSecrets = Type.Object({
  ...Game.properties,
  sdkKey: Type.String({ description: 'The full SDK key: shown once' }),
  signingSecret: Type.String({ description: 'The HMAC signing secret: shown once' }),
})
export type GameWithSecrets = Static<typeof GameWithSecrets>

export const ListGamesQuery = Type.Object({ ...PageQuery.properties, status: Type.Optional(Status) })
export type ListGamesQuery = Static<typeof ListGamesQuery>

export const GameParams = Type.Object({ gameId: Type.String({ minLength: 1, maxLength: 64 }) })
export type GameParams = Static<typeof GameParams>
