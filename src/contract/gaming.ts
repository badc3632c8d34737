import Type, { type Static } from 'typebox'
import { Nullable, StringEnum, Timestamp } from './common.js'
import { GDPR_STATUSES } from './limits.js'

export { NAMED_EVENT_TYPES, INGEST_LIMITS, GDPR_CONFIRMATION, GDPR_STATUSES } from './limits.js'

/** One event as sent to POST /api/v1/gaming/events (spec 2.2; checked one by one, see the README). */
export interface GameEventInput {
  event_id: string
  event_type: string
  timestamp: string
  player_id: string
  session_id?: string
  platform?: string
  data?: Record<string, unknown>
}

/** The batch of spec 2.2. */
export interface EventBatch {
  batch_id: string
  batch_timestamp: string
  events: GameEventInput[]
}

export const IngestError = Type.Object({
  index: Type.Integer(),
  eventId: Nullable(Type.String()),
  error: Type.String({ examples: ['InvalidEvent', 'EventTooLarge', 'EventTooOld', 'EventInFuture'] }),
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
  pattern: '^\\d{4}-\\d{2}-\\d{2}',
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
    reason: Type.String({ minLength: 1, maxLength: 500, examples: ['gdpr_request'] }),
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
