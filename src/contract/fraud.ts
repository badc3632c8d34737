import Type, { type Static } from 'typebox'
import { StringEnum, Timestamp } from './common.js'
import { VisibleText } from './text.js'

import { FRAUD_LIMITS, RULE_ACTIONS, RULE_OPERATORS, BLOCK_TYPES } from './fraud-limits.js'

export * from './fraud-limits.js'

const L = FRAUD_LIMITS

/**
 * A rule's value: a string, number, boolean or an array of them (`in`). Untyped in the schema on
 * purpose: the validator coerces types (a number sent to a string-or-number union would become a
 * string), so the service checks the value's shape and type itself (400 naming `value`).
 */
export const RuleValue = Type.Unsafe<string | number | boolean | (string | number | boolean)[]>({
  description: 'A string, number or boolean; for in, a non-empty array of them (at most 1,000)',
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
    reason: Type.Optional(Type.String({ maxLength: L.reasonMax })),
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

export const RuleList = Type.Object({ data: Type.Array(FraudRule) })
export const BlocklistList = Type.Object({ data: Type.Array(BlocklistEntry) })
