import Type, { type Static } from 'typebox'
import { Nullable, PageQuery, StringEnum, Timestamp } from './common.js'
import { MultilineText, VisibleText } from './text.js'
import {
  DELIVERY_STATUSES,
  HEALTH_BANDS,
  RETRY_POLICIES,
  SIGNATURE_REASONS,
  WEBHOOK_BULK_ACTIONS,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMATS,
  WEBHOOK_LIMITS,
  WEBHOOK_STATUSES,
  WEBHOOK_TEMPLATE_IDS,
} from './limits.js'

export {
  DELIVERY_STATUSES,
  RETRY_POLICIES,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMATS,
  WEBHOOK_LIMITS,
  WEBHOOK_STATUSES,
  WEBHOOK_TEMPLATE_IDS,
} from './limits.js'

const L = WEBHOOK_LIMITS
const EventType = StringEnum(WEBHOOK_EVENTS, { description: 'Event type' })
const Name = VisibleText({ minLength: 1, maxLength: L.nameMax })
const Description = MultilineText({ maxLength: L.descriptionMax })
const Url = Type.String({
  minLength: 1,
  maxLength: L.urlMax,
  description: 'HTTPS URL (HTTP only for localhost and 127.0.0.1)',
})
const Events = Type.Array(EventType, {
  minItems: 1,
  maxItems: 50,
  description: 'Event types (duplicates are dropped)',
})
const Policy = StringEnum(RETRY_POLICIES, {
  description: 'exponential (2, 4, 8 s…), linear (5 s), immediate (1 s) or none',
})
const Format = StringEnum(WEBHOOK_FORMATS, {
  description:
    'json: the event envelope; slack: {text, blocks} for a Slack incoming webhook; discord: {content, embeds} for a Discord webhook URL (same signature headers)',
})
const MaxRetries = Type.Integer({ minimum: 0, maximum: L.maxRetriesMax })
const Timeout = Type.Integer({ minimum: L.timeoutMin, maximum: L.timeoutMax, description: 'Seconds' })
const Headers = Type.Record(Type.String(), Type.String({ maxLength: L.headerValueMax }), {
  description: `Up to ${L.headersMax} custom headers; Content-Type, User-Agent, X-Webhook-* and hop-by-hop names are reserved`,
})

export const CreateWebhookBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    url: Url,
    events: Type.Optional(Events),
    template: Type.Optional(
      StringEnum(WEBHOOK_TEMPLATE_IDS, {
        description: 'Built-in template: its events when `events` is left out',
      }),
    ),
    retryPolicy: Type.Optional(Policy),
    maxRetries: Type.Optional(MaxRetries),
    timeoutSeconds: Type.Optional(Timeout),
    headers: Type.Optional(Headers),
    format: Type.Optional({ ...Format, default: 'json' }),
  },
  { additionalProperties: false },
)
export type CreateWebhookBody = Static<typeof CreateWebhookBody>

export const UpdateWebhookBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Nullable(Description)),
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    retryPolicy: Type.Optional(Policy),
    maxRetries: Type.Optional(MaxRetries),
    timeoutSeconds: Type.Optional(Timeout),
    headers: Type.Optional(Headers),
    format: Type.Optional(Format),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>

export const Webhook = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    url: Type.String(),
    events: Type.Array(Type.String()),
    retryPolicy: Policy,
    maxRetries: Type.Integer(),
    timeoutSeconds: Type.Integer(),
    headers: Type.Record(Type.String(), Type.String()),
    format: Format,
    status: StringEnum(WEBHOOK_STATUSES),
    consecutiveFailures: Type.Integer({
      description: 'Failed deliveries in a row (retries exhausted; tests excluded): 5 suspends the webhook',
    }),
    failedAttempts: Type.Integer({
      description:
        'Failed attempts in a row to the URL, of any delivery (tests included), since its last success or enabling: above 0, the latest attempt failed',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Webhook', title: 'Webhook' },
)
export type Webhook = Static<typeof Webhook>

export const WebhookWithSecret = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({ description: 'Signing secret; shown only in this response' }),
  },
  { $id: 'WebhookWithSecret', title: 'WebhookWithSecret' },
)
export type WebhookWithSecret = Static<typeof WebhookWithSecret>

export const ListWebhooksQuery = Type.Object(
  {
    ...PageQuery.properties,
    status: Type.Optional(StringEnum(WEBHOOK_STATUSES)),
    event: Type.Optional(EventType),
  },
  { additionalProperties: false },
)
export type ListWebhooksQuery = Static<typeof ListWebhooksQuery>

export const Delivery = Type.Object(
  {
    id: Type.String(),
    webhookId: Type.String(),
    eventId: Type.String({ description: 'The payload id (evt_…): receivers dedupe on it' }),
    event: Type.String(),
    status: StringEnum(DELIVERY_STATUSES),
    attempt: Type.Integer({ description: 'Attempts made so far (1 = first try)' }),
    maxAttempts: Type.Integer(),
    responseStatusCode: Nullable(Type.Integer()),
    durationMs: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    test: Type.Boolean({ description: 'Sent by the test action' }),
    createdAt: Timestamp,
    sentAt: Nullable(Timestamp),
    nextAttemptAt: Nullable(Timestamp),
    completedAt: Nullable(Timestamp),
    payload: Type.Unknown({ description: 'The JSON body as sent' }),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
)
export type Delivery = Static<typeof Delivery>

export const DeliveryTotals = Type.Object({
  total: Type.Integer(),
  success: Type.Integer(),
  failed: Type.Integer(),
  pending: Type.Integer(),
})
export type DeliveryTotals = Static<typeof DeliveryTotals>

export const ListDeliveriesQuery = Type.Object(
  {
    ...PageQuery.properties,
    status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
    event: Type.Optional(EventType),
  },
  { additionalProperties: false },
)
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>

export const DeliveriesPage = Type.Object({
  data: Type.Array(Delivery),
  total: Type.Integer(),
  page: Type.Integer(),
  perPage: Type.Integer(),
  hasMore: Type.Boolean(),
  totals: DeliveryTotals,
})
export type DeliveriesPage = Static<typeof DeliveriesPage>

export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 100 }),
})

export const TestWebhookBody = Type.Object(
  { event: Type.Optional(EventType) },
  { additionalProperties: false },
)
export type TestWebhookBody = Static<typeof TestWebhookBody>

export const BulkWebhookBody = Type.Object(
  {
    action: StringEnum(WEBHOOK_BULK_ACTIONS),
    ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: L.bulkMax }),
  },
  { additionalProperties: false },
)
export type BulkWebhookBody = Static<typeof BulkWebhookBody>
export const BulkWebhookResult = Type.Object({
  updated: Type.Integer({ description: 'Webhooks whose status changed (or that were deleted)' }),
})
export type BulkWebhookResult = Static<typeof BulkWebhookResult>

export const WebhookAnalytics = Type.Object(
  {
    webhookId: Type.String(),
    status: StringEnum(WEBHOOK_STATUSES),
    healthScore: Nullable(Type.Integer({ description: 'Percent of finished deliveries that succeeded' })),
    band: Nullable(StringEnum(HEALTH_BANDS)),
    totalDeliveries: Type.Integer(),
    success: Type.Integer(),
    failed: Type.Integer(),
    pending: Type.Integer(),
    successRate: Nullable(Type.Number()),
    averageResponseMs: Nullable(Type.Number()),
    consecutiveFailures: Type.Integer(),
    events: Type.Array(Type.Object({ event: Type.String(), count: Type.Integer(), percent: Type.Number() })),
  },
  { $id: 'WebhookAnalytics', title: 'WebhookAnalytics' },
)
export type WebhookAnalytics = Static<typeof WebhookAnalytics>

export const WebhookTemplate = Type.Object(
  {
    id: StringEnum(WEBHOOK_TEMPLATE_IDS),
    name: Type.String(),
    description: Type.String(),
    events: Type.Array(Type.String()),
    retryPolicy: Policy,
    maxRetries: Type.Integer(),
    timeoutSeconds: Type.Integer(),
  },
  { $id: 'WebhookTemplate', title: 'WebhookTemplate' },
)
export type WebhookTemplate = Static<typeof WebhookTemplate>

export const ValidateUrlBody = Type.Object(
  { url: Type.String({ maxLength: L.urlMax }) },
  { additionalProperties: false },
)
export const ValidateUrlResult = Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(Type.String()),
  warnings: Type.Array(Type.String()),
  suggestions: Type.Array(Type.String()),
  securityScore: Type.Integer({ minimum: 0, maximum: 100 }),
})
export type ValidateUrlResult = Static<typeof ValidateUrlResult>

const Payload = Type.String({ maxLength: 1_000_000, description: 'The raw body, exactly as sent' })
const Secret = Type.String({ minLength: 1, maxLength: 500 })
/** Unix ms up to 9999-12-31T23:59:59.999Z: a time, and exact when printed in the signed string. */
const UnixMs = Type.Integer({ minimum: 0, maximum: 253_402_300_799_999 })
const TimestampMs = Type.Union([Type.String({ maxLength: 32 }), UnixMs], {
  description: 'Unix milliseconds (X-Webhook-Timestamp)',
})

export const GenerateSignatureBody = Type.Object(
  { secret: Secret, payload: Payload, timestamp: Type.Optional(UnixMs) },
  { additionalProperties: false },
)
export const GenerateSignatureResult = Type.Object({
  signature: Type.String(),
  timestamp: Type.Integer(),
  signedString: Type.String({ description: '<timestamp>.<payload>' }),
  headers: Type.Record(Type.String(), Type.String()),
})
export type GenerateSignatureResult = Static<typeof GenerateSignatureResult>

export const VerifySignatureBody = Type.Object(
  { secret: Secret, payload: Payload, signature: Type.String({ maxLength: 200 }), timestamp: TimestampMs },
  { additionalProperties: false },
)
export const VerifySignatureResult = Type.Object({
  valid: Type.Boolean(),
  reason: Type.Optional(StringEnum(SIGNATURE_REASONS)),
})
export type VerifySignatureResult = Static<typeof VerifySignatureResult>
