import Type, { type Static } from 'typebox'
import { Nullable, Page, PAGE_MAX, StringEnum, Timestamp } from './common.js'
import { OverviewQuery } from './gaming.js'
import { PlainText, VisibleText } from './text.js'

import {
  FRAUD_LIMITS,
  RULE_ACTIONS,
  RULE_OPERATORS,
  BLOCK_TYPES,
  THREAT_TYPES,
  FRAUD_EVENT_STATUSES,
  FRAUD_REVIEWS,
  FRAUD_EVENT_PAGE_SIZES,
} from './fraud-limits.js'

export * from './fraud-limits.js'

const L = FRAUD_LIMITS

/**
 * A rule's value: a string, number, boolean or an array of them (`in`). Untyped in the schema on
 * purpose: which type it takes depends on the field and operator, so the service checks the
 * value's shape and type itself (400 naming `value`).
 */
export const RuleValue = Type.Unsafe<string | number | boolean | (string | number | boolean)[]>({
  description: `A string, number or boolean; for in, a non-empty array of them (at most ${L.inValuesMax}); at most ${L.valueBytesMax} bytes as JSON`,
  examples: [0.8],
})
export type RuleValue = string | number | boolean | (string | number | boolean)[]

const RuleName = VisibleText({ minLength: 1, maxLength: L.nameMax })
const Field = Type.String({
  minLength: 1,
  maxLength: L.fieldMax,
  description:
    'event_type, player_id, session_id, platform, country, ip, user_agent, device_fingerprint, data.<key>[.<key>…], device.<model|manufacturer|hardware|product|fingerprint>, score.<threat type>, risk',
  examples: ['score.bot_detection'],
})
const Priority = Type.Integer({ minimum: L.priorityMin, maximum: L.priorityMax })
const Cooldown = Type.Integer({ minimum: 0, maximum: L.cooldownMax, description: 'minutes; 0 = none' })

export const FraudRule = Type.Object({
  id: Type.String({ examples: ['rule_01JD8W3A2B4C6D8E0F2G4H6J8K'] }),
  name: Type.String(),
  action: StringEnum(RULE_ACTIONS),
  field: Type.String(),
  operator: StringEnum(RULE_OPERATORS),
  value: RuleValue,
  priority: Type.Integer(),
  cooldownMinutes: Type.Integer(),
  enabled: Type.Boolean(),
  template: Type.Optional(Type.String({ description: 'The template the rule was created from' })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type FraudRule = Static<typeof FraudRule>

export const CreateRuleBody = Type.Object(
  {
    name: RuleName,
    action: StringEnum(RULE_ACTIONS),
    field: Field,
    operator: StringEnum(RULE_OPERATORS),
    value: RuleValue,
    priority: Type.Optional(Priority),
    cooldownMinutes: Type.Optional(Cooldown),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type CreateRuleBody = Static<typeof CreateRuleBody>

export const UpdateRuleBody = Type.Object(
  {
    name: Type.Optional(RuleName),
    action: Type.Optional(StringEnum(RULE_ACTIONS)),
    field: Type.Optional(Field),
    operator: Type.Optional(StringEnum(RULE_OPERATORS)),
    value: Type.Optional(RuleValue),
    priority: Type.Optional(Priority),
    cooldownMinutes: Type.Optional(Cooldown),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateRuleBody = Static<typeof UpdateRuleBody>

export const BlocklistEntry = Type.Object({
  id: Type.String({ examples: ['blk_01JD8W3A2B4C6D8E0F2G4H6J8K'] }),
  type: StringEnum(BLOCK_TYPES),
  value: Type.String({ description: 'IP address (normalized) or device fingerprint hash' }),
  reason: Type.String(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
})
export type BlocklistEntry = Static<typeof BlocklistEntry>

export const CreateBlocklistBody = Type.Object(
  {
    type: StringEnum(BLOCK_TYPES),
    value: Type.String({ minLength: 1, maxLength: L.deviceMax }),
    reason: Type.Optional(PlainText({ maxLength: L.reasonMax })),
  },
  { additionalProperties: false },
)
export type CreateBlocklistBody = Static<typeof CreateBlocklistBody>

export const FraudGameParams = Type.Object({ gameId: Type.String({ minLength: 1, maxLength: 64 }) })
export const RuleParams = Type.Object({
  gameId: Type.String({ minLength: 1, maxLength: 64 }),
  ruleId: Type.String({ minLength: 1, maxLength: 100 }),
})
export const BlocklistParams = Type.Object({
  gameId: Type.String({ minLength: 1, maxLength: 64 }),
  entryId: Type.String({ minLength: 1, maxLength: 100 }),
})

/** A page of a game's rules (the pagination envelope; `data` as before). */
export const RuleList = Page(FraudRule)
export const BlocklistList = Type.Object({ data: Type.Array(BlocklistEntry) })

export const FraudEventParams = Type.Object({
  gameId: Type.String({ minLength: 1, maxLength: 64 }),
  eventId: Type.String({ minLength: 1, maxLength: 100 }),
})

/**
 * A stored fraud event: an ingested event a rule blocked (status blocked), flagged (detected) or
 * logged (logged: accepted, not a threat).
 */
export const FraudEvent = Type.Object({
  id: Type.String({ examples: ['fev_01JD8W3A2B4C6D8E0F2G4H6J8K'] }),
  receivedAt: Timestamp,
  playerId: Type.String(),
  eventId: Type.String({ description: 'The ingested event’s event_id' }),
  eventType: Type.String(),
  threatType: Nullable(
    StringEnum(THREAT_TYPES, { description: 'null when the deciding rule read no detector score' }),
  ),
  riskScore: Type.Number({ description: 'The composite risk score, 0-1' }),
  status: StringEnum(FRAUD_EVENT_STATUSES, {
    description: 'blocked (Block rule), detected (Flag rule) or logged (Log rule: the event was accepted)',
  }),
  triggeredRules: Type.Array(Type.String(), {
    description: `Names of the rules that fired, in evaluation order: the first ${L.triggeredNamesKept}`,
  }),
  triggeredRuleCount: Type.Integer({
    description: 'How many rules fired (triggeredRules names the first ones)',
  }),
  reasons: Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'The detectors’ reasons, by threat type',
    examples: [{ bot_detection: ['user agent names a bot'] }],
  }),
  ip: Nullable(Type.String()),
  deviceFingerprint: Nullable(Type.String()),
  review: StringEnum(FRAUD_REVIEWS),
  reviewedAt: Nullable(Timestamp),
})
export type FraudEvent = Static<typeof FraudEvent>

const PageSize = Type.Integer({
  enum: [...FRAUD_EVENT_PAGE_SIZES],
  description: 'Page size: 10, 20, 50, 100 or 200',
})
export const FraudEventsQuery = Type.Object({
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 1, description: 'Page number, starts at 1' }),
  ),
  limit: Type.Optional(PageSize),
  perPage: Type.Optional(PageSize),
  threatType: Type.Optional(StringEnum(THREAT_TYPES)),
  status: Type.Optional(
    StringEnum(FRAUD_EVENT_STATUSES, {
      description:
        'Only this status; without it, blocked and detected events (logged ones only with status=logged)',
    }),
  ),
  playerId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  ...OverviewQuery.properties,
})
export type FraudEventsQuery = Static<typeof FraudEventsQuery>

export const ReviewBody = Type.Object(
  { review: StringEnum(FRAUD_REVIEWS, { description: 'pending clears a review' }) },
  { additionalProperties: false },
)
export type ReviewBody = Static<typeof ReviewBody>

export const DashboardQuery = OverviewQuery
export type DashboardQuery = Static<typeof DashboardQuery>

const Rate = Type.Number({ description: 'A share, 0-1' })
export const FraudDashboard = Type.Object({
  range: Type.Object({ startDate: Type.String(), endDate: Type.String() }),
  eventsAnalyzed: Type.Integer({ description: 'Events the fraud pipeline analyzed in the range' }),
  threatsDetected: Type.Integer({ description: 'Fraud events of the range (blocked + detected)' }),
  blocked: Type.Integer({ description: 'Events a rule blocked' }),
  flagged: Type.Integer({ description: 'Events a rule flagged' }),
  logged: Type.Integer({ description: 'Events a log rule matched' }),
  fraudRate: Rate,
  falsePositiveRate: Nullable(Rate),
  blockedIps: Type.Integer({ description: 'Live blocklist entries of type ip, now' }),
  blockedDevices: Type.Integer({ description: 'Live blocklist entries of type device, now' }),
  avgDetectionLatencyUs: Nullable(Type.Number({ description: 'Microseconds in the pipeline per event' })),
  byThreatType: Type.Object(
    Object.fromEntries(THREAT_TYPES.map((t) => [t, Type.Integer()])) as Record<
      (typeof THREAT_TYPES)[number],
      ReturnType<typeof Type.Integer>
    >,
  ),
})
export type FraudDashboard = Static<typeof FraudDashboard>
