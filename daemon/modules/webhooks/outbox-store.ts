/**
 * The delivery outbox (`webhook_deliveries`): rows written before the first attempt, claimed by a
 * sender for one attempt at a time, the attempt's result, the delivery log and its statistics.
 * Part of the webhooks store (createWebhookStore spreads it in); SQL only, portable to PostgreSQL.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import type { DeliveryStatus } from '../../../src/contract/limits.js'
import { newestFirstPage } from '../../db/paginate.js'
import { createClaimStore, type ClaimStore } from './claim-store.js'
import { toDelivery, type DeliveryRecord, type NewDelivery } from './delivery-record.js'

export type { ClaimLimits } from './claim-store.js'
export type { AttemptResult, DeliveryRecord, DueDelivery, NewDelivery } from './delivery-record.js'

/** Per status and event of one webhook's deliveries: count, and the sum and count of response times. */
export interface DeliveryStatsRow {
  status: DeliveryStatus
  event: string
  count: number
  durationSum: number
  timed: number
}

/** The delivery outbox (webhook_deliveries): part of the webhook store port. */
export interface OutboxStore extends ClaimStore {
  insertDeliveries(rows: NewDelivery[]): Promise<void>
  /** A failed delivery back to pending for one more attempt, due at once; false when not failed. */
  requeue(id: string, maxAttempts: number, now: number): Promise<boolean>
  delivery(webhookId: string, id: string): Promise<DeliveryRecord | undefined>
  /** One page of a webhook's delivery log, newest first, and the total matching the filter. */
  deliveries(
    webhookId: string,
    q: { status?: DeliveryStatus | undefined; event?: string | undefined; limit: number; offset: number },
  ): Promise<{ rows: DeliveryRecord[]; total: number }>
  stats(webhookId: string): Promise<DeliveryStatsRow[]>
  /** Deletes finished deliveries created before `before`; returns how many. */
  prune(before: number): Promise<number>
}

export function createOutboxStore(
  db: Kysely<Database>,
  openHeaders: (sealed: string) => Record<string, string>,
): OutboxStore {
  return {
    ...createClaimStore(db, openHeaders),

    async insertDeliveries(rows: NewDelivery[]): Promise<void> {
      for (let i = 0; i < rows.length; i += 100)
        await db
          .insertInto('webhook_deliveries')
          .values(
            rows.slice(i, i + 100).map((d) => ({
              id: d.id,
              webhook_id: d.webhookId,
              organization_id: d.organizationId,
              event_id: d.eventId,
              event: d.event,
              payload: d.payload,
              is_test: d.isTest ? 1 : 0,
              status: d.status,
              max_attempts: d.maxAttempts,
              next_attempt_at: d.nextAttemptAt,
              created_at: d.createdAt,
            })),
          )
          .execute()
    },

    /** A failed delivery back to pending for one more attempt, due at once. */
    async requeue(id: string, maxAttempts: number, now: number): Promise<boolean> {
      const r = await db
        .updateTable('webhook_deliveries')
        .set({
          status: 'pending',
          max_attempts: maxAttempts,
          next_attempt_at: now,
          completed_at: null,
          locked_until: 0,
        })
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },

    async delivery(webhookId: string, id: string): Promise<DeliveryRecord | undefined> {
      const r = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', id)
        .where('webhook_id', '=', webhookId)
        .executeTakeFirst()
      return r && toDelivery(r)
    },

    async deliveries(
      webhookId: string,
      q: { status?: DeliveryStatus | undefined; event?: string | undefined; limit: number; offset: number },
    ): Promise<{ rows: DeliveryRecord[]; total: number }> {
      let base = db.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId)
      if (q.status) base = base.where('status', '=', q.status)
      if (q.event) base = base.where('event', '=', q.event)
      const { rows, total } = await newestFirstPage(base, q)
      return { rows: rows.map(toDelivery), total }
    },

    /** Per status and event: delivery count and the sum and count of response times. */
    async stats(webhookId: string): Promise<DeliveryStatsRow[]> {
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [
          'status',
          'event',
          eb.fn.countAll<number>().as('n'),
          eb.fn.sum<number>('last_duration_ms').as('ms'),
          eb.fn.count<number>('last_duration_ms').as('timed'),
        ])
        .where('webhook_id', '=', webhookId)
        .groupBy(['status', 'event'])
        .execute()
      return rows.map((r) => ({
        status: r.status as DeliveryStatus,
        event: r.event,
        count: Number(r.n),
        durationSum: Number(r.ms ?? 0),
        timed: Number(r.timed),
      }))
    },

    /** Deletes finished deliveries created before `before`; returns how many. */
    async prune(before: number): Promise<number> {
      const r = await db
        .deleteFrom('webhook_deliveries')
        .where('created_at', '<', before)
        .where('status', '!=', 'pending')
        .executeTakeFirst()
      return Number(r.numDeletedRows)
    },
  }
}
