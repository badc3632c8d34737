import type { Generated } from 'kysely'

/**
 * The webhooks module's tables: subscriptions and the delivery outbox.
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms; JSON columns are TEXT.
 */

export interface WebhooksTable {
  id: string
  organization_id: string
  name: string
  description: string | null
  url: string
  events: string
  retry_policy: string
  max_retries: number
  timeout_seconds: number
  headers: string
  secret_sealed: string
  status: string
  consecutive_failures: Generated<number>
  created_at: number
  updated_at: number
  /** Failed attempts in a row since the last success, and no untried delivery before paused_until (0018). */
  failed_attempts: Generated<number>
  paused_until: Generated<number>
  /** json | slack | discord: the body an endpoint is sent (0036). */
  format: Generated<string>
}

/** The webhook outbox (migration 0004): one row per event per subscribed webhook. */
export interface WebhookDeliveriesTable {
  id: string
  webhook_id: string
  organization_id: string
  event_id: string
  event: string
  payload: string
  is_test: Generated<number>
  status: string
  attempts: Generated<number>
  max_attempts: number
  next_attempt_at: number | null
  locked_until: Generated<number>
  last_status_code: number | null
  last_error: string | null
  last_duration_ms: number | null
  last_attempt_at: number | null
  created_at: number
  completed_at: number | null
}
