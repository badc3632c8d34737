import Type, { type Static } from 'typebox'
import { Nullable, StringEnum, Timestamp, PageQuery } from './common.js'
import { MultilineText, VisibleText } from './text.js'
import { ACCEPTED_SCOPES, PRESET_NAMES } from './scopes.js'
import { KEY_ENVIRONMENTS, KEY_LIMITS, KEY_STATUSES, KEY_TEST_REASONS, TIME_PERIODS } from './limits.js'

export {
  API_KEY_PATTERN,
  KEY_ENVIRONMENTS,
  KEY_STATUSES,
  KEY_TEST_REASONS,
  type KeyStatus,
} from './limits.js'

const ScopeString = StringEnum(ACCEPTED_SCOPES as readonly string[], {
  description: 'Scope, resource:action',
})
const Name = VisibleText({ minLength: 1, maxLength: KEY_LIMITS.nameMax })
const Description = MultilineText({ maxLength: KEY_LIMITS.descriptionMax })
const AllowedIps = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: KEY_LIMITS.allowedIpsMax,
  description: 'IPv4/IPv6 addresses or CIDR ranges; empty means any IP',
})
const AllowedOrigins = Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
  maxItems: KEY_LIMITS.allowedOriginsMax,
  description: 'Origin URLs (stored, not enforced)',
})
const RequestLimit = Type.Integer({ minimum: 1, maximum: KEY_LIMITS.requestLimitMax })
const Period = StringEnum(TIME_PERIODS)

export const CreateKeyBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    expiresAt: Type.Optional(Nullable(Timestamp)),
    permissions: Type.Optional(Type.Array(ScopeString, { maxItems: 64 })),
    preset: Type.Optional(StringEnum(PRESET_NAMES)),
    requestLimit: Type.Optional(RequestLimit),
    timePeriod: Type.Optional(Period),
    allowedIps: Type.Optional(AllowedIps),
    allowedOrigins: Type.Optional(AllowedOrigins),
    environment: Type.Optional(StringEnum(KEY_ENVIRONMENTS)),
  },
  { additionalProperties: false },
)
export type CreateKeyBody = Static<typeof CreateKeyBody>

export const UpdateKeyBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Nullable(Description)),
    expiresAt: Type.Optional(Nullable(Timestamp)),
    permissions: Type.Optional(Type.Array(ScopeString, { maxItems: 64 })),
    requestLimit: Type.Optional(RequestLimit),
    timePeriod: Type.Optional(Period),
    allowedIps: Type.Optional(AllowedIps),
    allowedOrigins: Type.Optional(AllowedOrigins),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateKeyBody = Static<typeof UpdateKeyBody>

export const ApiKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    memberId: Type.String({ description: 'The team member the key belongs to (mem_…)' }),
    environment: StringEnum(KEY_ENVIRONMENTS),
    permissions: Type.Array(Type.String()),
    requestLimit: Type.Integer(),
    timePeriod: Period,
    allowedIps: Type.Array(Type.String()),
    allowedOrigins: Type.Array(Type.String()),
    expiresAt: Nullable(Timestamp),
    status: StringEnum(KEY_STATUSES),
    preview: Type.String({ description: 'Masked preview: lk_••• and the last four characters' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    lastUsedAt: Nullable(Timestamp),
    lastUsedIp: Nullable(Type.String()),
    revokedAt: Nullable(Timestamp),
    usage: Type.Object({
      totalRequests: Type.Integer(),
      requestsToday: Type.Integer({ description: 'Requests in the current UTC day' }),
      requestsThisMonth: Type.Integer({ description: 'Requests in the current UTC month' }),
    }),
  },
  { $id: 'ApiKey', title: 'ApiKey' },
)
export type ApiKey = Static<typeof ApiKey>

/** Create and regenerate responses: the key object plus the full value, shown once. */
export const ApiKeyWithSecret = Type.Object(
  { ...ApiKey.properties, key: Type.String({ description: 'The full key; shown only in this response' }) },
  { $id: 'ApiKeyWithSecret', title: 'ApiKeyWithSecret' },
)
export type ApiKeyWithSecret = Static<typeof ApiKeyWithSecret>

export const ListKeysQuery = Type.Object(
  {
    ...PageQuery.properties,
    status: Type.Optional(StringEnum(KEY_STATUSES)),
    search: Type.Optional(Type.String({ maxLength: 200, description: 'Matches name or description' })),
  },
  { additionalProperties: false },
)
export type ListKeysQuery = Static<typeof ListKeysQuery>

export const KeyActivity = Type.Object(
  {
    id: Type.String(),
    timestamp: Timestamp,
    endpoint: Type.String(),
    method: Type.String(),
    statusCode: Type.Integer(),
    responseTimeMs: Type.Number(),
    ip: Nullable(Type.String()),
    userAgent: Nullable(Type.String()),
    referrer: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2 country of the IP, when known' })),
    error: Nullable(Type.String()),
  },
  { $id: 'KeyActivity', title: 'KeyActivity' },
)
export type KeyActivity = Static<typeof KeyActivity>

export const KeyTestBody = Type.Object(
  { key: Type.String({ maxLength: 200 }) },
  { additionalProperties: false },
)
export type KeyTestBody = Static<typeof KeyTestBody>

export const RateLimitInfo = Type.Object({
  limit: Type.Integer(),
  period: Period,
  remaining: Type.Integer(),
  reset: Type.Integer({ description: 'Unix seconds when the window resets' }),
})
export type RateLimitInfo = Static<typeof RateLimitInfo>

export const KeyTestResult = Type.Object(
  {
    valid: Type.Boolean(),
    reason: Type.Optional(StringEnum(KEY_TEST_REASONS)),
    key: Type.Optional(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        status: StringEnum(KEY_STATUSES),
        permissions: Type.Array(Type.String()),
        preview: Type.String(),
        expiresAt: Nullable(Timestamp),
        organization: Type.Object({ id: Type.String(), name: Type.String(), plan: Type.String() }),
      }),
    ),
    rateLimit: Type.Optional(RateLimitInfo),
  },
  { $id: 'KeyTestResult', title: 'KeyTestResult' },
)
export type KeyTestResult = Static<typeof KeyTestResult>
