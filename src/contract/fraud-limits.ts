/**
 * Plain values of the fraud contract, free of typebox (linkctl imports them at start-up for its
 * choices; see src/contract/limits.ts).
 */
/** The seven threat types of spec 2.4: each detector's score is `score.<type>` in a rule's field. */
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

export const FRAUD_LIMITS = {
  priorityMin: 1,
  priorityMax: 1000,
  priorityDefault: 100,
  cooldownMax: 1440,
  nameMax: 100,
  fieldMax: 200,
  reasonMax: 500,
  deviceMax: 256,
  /** Blocklist entries expire this long after they are added (spec 2.6). */
  blocklistTtlDays: 30,
} as const
