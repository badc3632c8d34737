/**
 * Plain values of the fraud contract, free of typebox (linkctl imports them at start-up for its
 * choices; see src/contract/limits.ts).
 */
/** The seven threat types in docs/reference/fraud.md: each detector's score is `score.<type>` in a rule's field. */
export const THREAT_TYPES = [
  'click_injection',
  'bot_detection',
  'device_farm',
  'rate_limit',
  'emulator',
  'pattern_anomaly',
  'revenue_anomaly',
] as const
export type ThreatType = (typeof THREAT_TYPES)[number]

export const RULE_ACTIONS = ['block', 'flag', 'log'] as const
export type RuleAction = (typeof RULE_ACTIONS)[number]
export const RULE_OPERATORS = ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'contains', 'in'] as const
export type RuleOperator = (typeof RULE_OPERATORS)[number]
export const BLOCK_TYPES = ['ip', 'device'] as const
export type BlockType = (typeof BLOCK_TYPES)[number]

/**
 * A fraud event: status blocked (a Block rule), detected (a Flag rule) or logged (a Log rule: a
 * record only, the event accepted, no threat); its review.
 */
export const FRAUD_EVENT_STATUSES = ['blocked', 'detected', 'logged'] as const
export type FraudEventStatus = (typeof FRAUD_EVENT_STATUSES)[number]
export const FRAUD_REVIEWS = ['pending', 'legitimate', 'fraud'] as const
export type FraudReview = (typeof FRAUD_REVIEWS)[number]
/** Fraud events are served at most 200 per page (docs/reference/fraud.md). */
export const FRAUD_EVENT_PAGE_SIZES = [10, 20, 50, 100, 200] as const

export const FRAUD_LIMITS = {
  priorityMin: 1,
  priorityMax: 1000,
  priorityDefault: 100,
  cooldownMax: 1440,
  nameMax: 100,
  fieldMax: 200,
  reasonMax: 500,
  deviceMax: 256,
  /** Rules per game, the six templates included: each event is tested against every one. */
  rulesPerGame: 100,
  /** A rule's value as JSON, in bytes (UTF-8). */
  valueBytesMax: 1024,
  /** Values of an `in` list. */
  inValuesMax: 100,
  /** Rule names a fraud event keeps (the first that fired); it counts them all. */
  triggeredNamesKept: 10,
  /** Blocklist entries expire this long after they are added (docs/reference/fraud.md). */
  blocklistTtlDays: 30,
} as const
