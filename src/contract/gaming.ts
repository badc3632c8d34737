import Type, { type Static } from 'typebox'
import { DATE_PATTERN, EVENT_TYPE_PATTERN, VisibleText } from './text.js'
import { Nullable, PageQuery, StringEnum, Timestamp } from './common.js'
import { GAME_PLATFORMS, GDPR_STATUSES, INGEST_LIMITS, NAMED_EVENT_TYPES } from './limits.js'

export { NAMED_EVENT_TYPES, INGEST_LIMITS, GDPR_CONFIRMATION, GDPR_STATUSES } from './limits.js'

/** One event as sent to POST /api/v1/gaming/events (checked one by one, see docs/reference/gaming.md). */
export interface GameEventInput {
  event_id: string
  event_type: string
  timestamp: string
  player_id: string
  session_id?: string
  platform?: string
  data?: Record<string, unknown>
}

/** The batch sent to POST /api/v1/gaming/events. */
export interface EventBatch {
  batch_id: string
  batch_timestamp: string
  events: GameEventInput[]
}

/**
 * The batch above as a schema, for the API description only: the ingestion route parses and checks
 * the body itself (it keeps the raw bytes for the HMAC, and a bad event is a per-event error in
 * the 202, not a 400 for the whole batch).
 */
export const EventBatchDoc = Type.Object(
  {
    batch_id: Type.String({
      format: 'uuid',
      description: 'UUID; the same batch_id within 24 h returns the first response',
    }),
    batch_timestamp: Type.String({
      format: 'date-time',
      description:
        "When the batch was sent: within the game's replay window (default 300 s) of server time, so send the current time (the example's is fixed)",
    }),
    events: Type.Array(
      Type.Object({
        event_id: Type.String({ format: 'uuid', description: 'UUID; a repeat counts in duplicates' }),
        event_type: Type.String({
          maxLength: INGEST_LIMITS.customTypeMax,
          pattern: EVENT_TYPE_PATTERN,
          description: `A named type (${NAMED_EVENT_TYPES.join(', ')}) or a custom name`,
        }),
        timestamp: Type.String({
          format: 'date-time',
          description:
            "With a zone; at most 24 h old and 5 min ahead of server time (the example's is fixed: send the event's own time)",
        }),
        player_id: Type.String({ minLength: 1, maxLength: INGEST_LIMITS.idMax }),
        session_id: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: INGEST_LIMITS.idMax,
            description: 'Required for session_start and session_end',
          }),
        ),
        platform: Type.Optional(
          StringEnum(GAME_PLATFORMS, { description: "Defaults to the game's platform" }),
        ),
        data: Type.Optional(
          Type.Record(Type.String(), Type.Unknown(), {
            description:
              'Free-form. purchase, subscription_start and subscription_renew carry amount (a number >= 0) and currency (ISO 4217); item_purchased and ad_watched count revenue when they carry both',
          }),
        ),
      }),
      { maxItems: INGEST_LIMITS.eventsPerBatch },
    ),
  },
  { title: 'EventBatch' },
)

export const IngestError = Type.Object({
  index: Type.Integer(),
  eventId: Nullable(Type.String()),
  error: Type.String({
    examples: ['InvalidEvent', 'EventTooLarge', 'EventTooOld', 'EventInFuture', 'Blocked'],
  }),
  message: Type.String(),
})
export type IngestError = Static<typeof IngestError>

/** 202 body of the ingestion (contract). accepted counts stored events, flagged ones included. */
export const IngestResult = Type.Object({
  batchId: Type.String(),
  accepted: Type.Integer(),
  flagged: Type.Integer(),
  blocked: Type.Integer(),
  duplicates: Type.Integer(),
  rejected: Type.Integer(),
  errors: Type.Array(IngestError),
})
export type IngestResult = Static<typeof IngestResult>

const DateParam = Type.String({
  pattern: DATE_PATTERN,
  description: 'ISO 8601 date or date-time (UTC); the whole UTC day is included',
})
export const OverviewQuery = Type.Object({
  startDate: Type.Optional(DateParam),
  endDate: Type.Optional(DateParam),
})
export type OverviewQuery = Static<typeof OverviewQuery>

const Percent = Nullable(Type.Number({ description: 'Percent of the eligible cohorts; null when none' }))
export const Overview = Type.Object({
  dau: Type.Integer(),
  mau: Type.Integer(),
  revenue: Type.Object({
    total: Type.Number(),
    iap: Type.Number(),
    ad: Type.Number(),
    subscription: Type.Number(),
  }),
  arpu: Type.Number(),
  arppu: Type.Number(),
  avgSessionSeconds: Type.Number(),
  retention: Type.Object({ d1: Percent, d7: Percent, d30: Percent }),
  range: Type.Object({ startDate: Type.String(), endDate: Type.String() }),
})
export type Overview = Static<typeof Overview>

export const GdprDeletionBody = Type.Object(
  {
    gameId: Type.String({ minLength: 1, maxLength: 64 }),
    playerId: Type.String({ minLength: 1, maxLength: 128 }),
    reason: VisibleText({ minLength: 1, maxLength: 500, examples: ['gdpr_request'] }),
    confirmation: Type.String({ description: 'Must be DELETE' }),
  },
  { additionalProperties: false },
)
export type GdprDeletionBody = Static<typeof GdprDeletionBody>

export const GdprDeletion = Type.Object({
  id: Type.String(),
  gameId: Type.String(),
  playerId: Type.String(),
  reason: Type.String(),
  status: StringEnum(GDPR_STATUSES),
  createdAt: Timestamp,
  startedAt: Nullable(Timestamp),
  completedAt: Nullable(Timestamp),
  /** Rows removed per storage layer, once completed. */
  purged: Nullable(
    Type.Unsafe<Record<string, number>>({ type: 'object', additionalProperties: { type: 'integer' } }),
  ),
  expiresAt: Timestamp,
})
export type GdprDeletion = Static<typeof GdprDeletion>

/** The filters of GET /api/v1/gaming/gdpr/deletions (newest first, the project's pages). */
export const GdprDeletionsQuery = Type.Object({
  ...PageQuery.properties,
  gameId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Only this game’s records' }),
  ),
  status: Type.Optional(StringEnum(GDPR_STATUSES, { description: 'Only records with this status' })),
})
export type GdprDeletionsQuery = Static<typeof GdprDeletionsQuery>

// ---- Retention, leaderboard, geography, events, export ----
// The constants live in limits.ts (light: the CLI reads them at start-up without TypeBox).
import {
  ATTRIBUTION_GROUPS,
  EXPORT_LIMITS,
  EXPORT_TYPES,
  LEADERBOARD_LIMITS,
  PLAYER_GROUPS,
  RETENTION_BANDS,
  RETENTION_DAYS,
  REVENUE_GROUPS,
} from './limits.js'
export { EXPORT_LIMITS, EXPORT_TYPES, LEADERBOARD_LIMITS, RETENTION_BANDS, RETENTION_DAYS } from './limits.js'

const DayRange = Type.Object({ startDate: Type.String(), endDate: Type.String() })

export const RetentionQuery = Type.Object({
  startDate: Type.Optional(DateParam),
  endDate: Type.Optional(DateParam),
  granularity: Type.Optional(
    StringEnum(['day', 'week'] as const, {
      default: 'day',
      description: 'day: one cohort per install day (YYYY-MM-DD); week: per ISO week (YYYY-Www)',
    }),
  ),
  groupBy: Type.Optional(
    StringEnum(PLAYER_GROUPS, {
      description:
        "One cohort list per value of the player's platform or country (profile) or install source, campaign or link; (none) for players without one",
    }),
  ),
  returnEvent: Type.Optional(
    Type.String({
      maxLength: INGEST_LIMITS.customTypeMax,
      pattern: EVENT_TYPE_PATTERN,
      description:
        'Retained on day N: sent this event type (a named type or a custom name) on day N; default: any event',
    }),
  ),
})
export type RetentionQuery = Static<typeof RetentionQuery>
const RetentionCell = Nullable(
  Type.Object({
    retained: Type.Integer(),
    percentage: Type.Number({ description: 'retained / size x 100, 2 decimals' }),
    band: StringEnum(RETENTION_BANDS, {
      description: 'green >= 50 %, yellow >= 30 %, amber >= 15 %, red > 0 %, none at 0',
    }),
  }),
)
export const RetentionRow = Type.Object({
  group: Type.Optional(
    Type.String({ description: 'With groupBy: the value ((none) for players without one)' }),
  ),
  cohort: Type.String({ examples: ['2026-10-01', '2026-W40'] }),
  size: Type.Integer(),
  days: Type.Object(
    Object.fromEntries(RETENTION_DAYS.map((n) => [`d${n}`, RetentionCell])) as Record<
      `d${(typeof RETENTION_DAYS)[number]}`,
      typeof RetentionCell
    >,
    {
      description: 'null: that day of the cohort (of every install day of a week cohort) is not reached yet',
    },
  ),
})
export type RetentionRow = Static<typeof RetentionRow>
export const Retention = Type.Object({ data: Type.Array(RetentionRow), range: DayRange })
export type Retention = Static<typeof Retention>

export const LeaderboardQuery = Type.Object({
  startDate: Type.Optional(DateParam),
  endDate: Type.Optional(DateParam),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: LEADERBOARD_LIMITS.max, default: LEADERBOARD_LIMITS.default }),
  ),
})
export type LeaderboardQuery = Static<typeof LeaderboardQuery>
export const LeaderboardRow = Type.Object({
  rank: Type.Integer({ minimum: 1 }),
  playerId: Type.String(),
  revenue: Type.Number(),
})
export type LeaderboardRow = Static<typeof LeaderboardRow>
export const Leaderboard = Type.Object({ data: Type.Array(LeaderboardRow), range: DayRange })
export type Leaderboard = Static<typeof Leaderboard>

export const GeographyRow = Type.Object({
  country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2; null: not known' })),
  players: Type.Integer({ description: 'Distinct players active in the range, by profile country' }),
  sessions: Type.Integer(),
  revenue: Type.Number(),
  revenuePerPlayer: Type.Number(),
})
export type GeographyRow = Static<typeof GeographyRow>
export const Geography = Type.Object({ data: Type.Array(GeographyRow), range: DayRange })
export type Geography = Static<typeof Geography>

export const EventsRow = Type.Object({
  eventType: Type.String({ description: 'A named type, or a custom event name (custom: true)' }),
  custom: Type.Boolean({ description: 'true: eventType is a custom event name' }),
  count: Type.Integer(),
  uniquePlayers: Nullable(
    Type.Integer({
      description:
        'Distinct players who sent it in the range; null for a custom name over a range holding days stored by linkd 0.1 (not counted per name)',
    }),
  ),
  percentage: Type.Number({ description: 'count / all events of the range x 100 (0-100)' }),
})
export type EventsRow = Static<typeof EventsRow>
export const Events = Type.Object({
  data: Type.Array(EventsRow),
  totals: Type.Object({ count: Type.Integer() }),
  range: DayRange,
})
export type Events = Static<typeof Events>

export const ExportQuery = Type.Object({
  type: StringEnum(EXPORT_TYPES),
  format: Type.Optional(StringEnum(['csv', 'json'] as const, { default: 'csv' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: EXPORT_LIMITS.max, default: EXPORT_LIMITS.default }),
  ),
  startDate: Type.Optional(DateParam),
  endDate: Type.Optional(DateParam),
  granularity: Type.Optional(StringEnum(['day', 'week'] as const, { description: 'retention only' })),
  groupBy: Type.Optional(
    StringEnum([...new Set([...REVENUE_GROUPS, ...ATTRIBUTION_GROUPS])], {
      description:
        'revenue (day, week, month, platform, source; default day) and attribution (affiliate, campaign, source, medium; default source) only',
    }),
  ),
})
export type ExportQuery = Static<typeof ExportQuery>
