/**
 * A delivery of the outbox (`webhook_deliveries`) as the webhook module sees it, and a claimed one
 * with what sending it needs; shared by the outbox and claim stores.
 */
import type { Selectable } from 'kysely'
import type { WebhookDeliveriesTable } from '../../db/schema.js'
import type { DeliveryStatus, RetryPolicy } from '../../../src/contract/limits.js'

export interface DeliveryRecord {
  id: string
  webhookId: string
  organizationId: string
  eventId: string
  event: string
  payload: string
  isTest: boolean
  status: DeliveryStatus
  attempts: number
  maxAttempts: number
  nextAttemptAt: number | null
  lastStatusCode: number | null
  lastError: string | null
  lastDurationMs: number | null
  lastAttemptAt: number | null
  createdAt: number
  completedAt: number | null
}

export type NewDelivery = Omit<
  DeliveryRecord,
  'attempts' | 'lastStatusCode' | 'lastError' | 'lastDurationMs' | 'lastAttemptAt' | 'completedAt'
>

/** A claimed delivery with what sending it needs of its webhook. */
export interface DueDelivery extends DeliveryRecord {
  url: string
  headers: Record<string, string>
  secretSealed: string
  timeoutSeconds: number
  retryPolicy: RetryPolicy
  /** The claim (the row's locked_until): recording the attempt needs it to still hold. */
  claimedUntil: number
}

export interface AttemptResult {
  status: DeliveryStatus
  attempts: number
  statusCode: number | null
  error: string | null
  durationMs: number
  at: number
  nextAttemptAt: number | null
}

const n = (v: number | string | bigint | null): number | null => (v === null ? null : Number(v))

export function toDelivery(r: Selectable<WebhookDeliveriesTable>): DeliveryRecord {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    organizationId: r.organization_id,
    eventId: r.event_id,
    event: r.event,
    payload: r.payload,
    isTest: Number(r.is_test) === 1,
    status: r.status as DeliveryStatus,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    nextAttemptAt: n(r.next_attempt_at),
    lastStatusCode: n(r.last_status_code),
    lastError: r.last_error,
    lastDurationMs: n(r.last_duration_ms),
    lastAttemptAt: n(r.last_attempt_at),
    createdAt: Number(r.created_at),
    completedAt: n(r.completed_at),
  }
}
