import { sql, type Kysely, type Selectable } from 'kysely'
import type { SecretBox } from '../../crypto.js'
import type { Database, WebhooksTable } from '../../db/schema.js'
import type { RetryPolicy, WebhookEvent, WebhookFormat, WebhookStatus } from '../../../src/contract/limits.js'
import { createOutboxStore, type OutboxStore } from './outbox-store.js'
import { newestFirstPage } from '../../db/paginate.js'

export type {
  AttemptResult,
  ClaimLimits,
  DeliveryRecord,
  DeliveryStatsRow,
  DueDelivery,
  NewDelivery,
} from './outbox-store.js'

/** A webhook as stored (secret still sealed). */
export interface WebhookRecord {
  id: string
  organizationId: string
  name: string
  description: string | null
  url: string
  events: WebhookEvent[]
  retryPolicy: RetryPolicy
  maxRetries: number
  timeoutSeconds: number
  headers: Record<string, string>
  /** What the endpoint is posted: the envelope (json) or a chat message (slack, discord). */
  format: WebhookFormat
  secretSealed: string
  status: WebhookStatus
  consecutiveFailures: number
  /** Failed attempts in a row to the endpoint, of any delivery (tests included). */
  failedAttempts: number
  createdAt: number
  updatedAt: number
}

export interface WebhookPatch {
  name?: string
  description?: string | null
  url?: string
  events?: WebhookEvent[]
  retryPolicy?: RetryPolicy
  maxRetries?: number
  timeoutSeconds?: number
  headers?: Record<string, string>
  format?: WebhookFormat
  secretSealed?: string
  updatedAt: number
}

function toWebhook(r: Selectable<WebhooksTable>, headers: Record<string, string>): WebhookRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    description: r.description,
    url: r.url,
    events: JSON.parse(r.events) as WebhookEvent[],
    retryPolicy: r.retry_policy as RetryPolicy,
    maxRetries: Number(r.max_retries),
    timeoutSeconds: Number(r.timeout_seconds),
    headers,
    format: (r.format ?? 'json') as WebhookFormat,
    secretSealed: r.secret_sealed,
    status: r.status as WebhookStatus,
    consecutiveFailures: Number(r.consecutive_failures),
    failedAttempts: Number(r.failed_attempts),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }
}

/**
 * The events column (a JSON array) holds `event`: a LIKE pattern with its wildcards escaped, and
 * the escape character named (SQLite has no default one: without ESCAPE, `qr\_code` matched
 * nothing there, while PostgreSQL's default is the backslash).
 */
const holdsEvent = (event: string) =>
  sql<boolean>`events LIKE ${`%"${event.replace(/[\\%_]/g, (c) => `\\${c}`)}"%`} ESCAPE '\\'`

/** The webhook tables (webhooks and their delivery outbox): the port the webhook service depends on. */
export interface WebhookStore extends OutboxStore {
  insert(w: WebhookRecord): Promise<void>
  byId(organizationId: string, id: string): Promise<WebhookRecord | undefined>
  /** One page newest first and the total matching the filter. */
  list(
    organizationId: string,
    q: { status?: WebhookStatus | undefined; event?: string | undefined; limit: number; offset: number },
  ): Promise<{ rows: WebhookRecord[]; total: number }>
  /** Event types at least one active webhook subscribes to, across organizations. */
  subscribedTypes(): Promise<string[]>
  /** Across organizations (metrics): deliveries pending (due or waiting to retry), webhooks suspended. */
  totals(): Promise<{ backlog: number; suspended: number }>
  /** Active webhooks of an organization (the dispatcher's subscription list). */
  active(organizationId: string): Promise<WebhookRecord[]>
  update(id: string, p: WebhookPatch): Promise<void>
  /** Sets the status of the organization's webhooks among `ids` not in it yet; returns the ids changed. */
  setStatus(organizationId: string, ids: string[], status: WebhookStatus, now: number): Promise<string[]>
  /** Deletes the organization's webhooks among `ids` and their delivery logs; returns the ids deleted. */
  delete(organizationId: string, ids: string[]): Promise<string[]>
  /** A failed delivery: +1 consecutive failure; suspends an active webhook at `suspendAfter`. */
  recordFailure(webhookId: string, suspendAfter: number, now: number): Promise<{ suspended: boolean }>
  /** A delivered attempt: resets the failed deliveries and attempts in a row and ends any backoff. */
  recordSuccess(webhookId: string): Promise<void>
  /** A delivered test: resets the failed attempts in a row and ends any backoff (not the failed deliveries). */
  recordTestSuccess(webhookId: string): Promise<void>
}

/**
 * The SQLite (Kysely) implementation. Custom headers often carry credentials (`Authorization: Bearer …`), so they
 * are stored encrypted like the signing secret.
 */
export function createWebhookStore(db: Kysely<Database>, secrets: SecretBox): WebhookStore {
  const sealHeaders = (h: Record<string, string>) => secrets.encrypt(JSON.stringify(h))
  const openHeaders = (v: string) => JSON.parse(secrets.decrypt(v)) as Record<string, string>
  const webhook = (r: Selectable<WebhooksTable>) => toWebhook(r, openHeaders(r.headers))
  return {
    async totals() {
      const [backlog, suspended] = await Promise.all([
        db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('webhooks')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('status', '=', 'suspended')
          .executeTakeFirstOrThrow(),
      ])
      return { backlog: Number(backlog.n), suspended: Number(suspended.n) }
    },
    async insert(w: WebhookRecord): Promise<void> {
      await db
        .insertInto('webhooks')
        .values({
          id: w.id,
          organization_id: w.organizationId,
          name: w.name,
          description: w.description,
          url: w.url,
          events: JSON.stringify(w.events),
          retry_policy: w.retryPolicy,
          max_retries: w.maxRetries,
          timeout_seconds: w.timeoutSeconds,
          headers: sealHeaders(w.headers),
          format: w.format,
          secret_sealed: w.secretSealed,
          status: w.status,
          consecutive_failures: w.consecutiveFailures,
          created_at: w.createdAt,
          updated_at: w.updatedAt,
        })
        .execute()
    },

    async byId(organizationId: string, id: string): Promise<WebhookRecord | undefined> {
      const r = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
      return r && webhook(r)
    },

    async list(
      organizationId: string,
      q: { status?: WebhookStatus | undefined; event?: string | undefined; limit: number; offset: number },
    ): Promise<{ rows: WebhookRecord[]; total: number }> {
      let base = db.selectFrom('webhooks').where('organization_id', '=', organizationId)
      if (q.status) base = base.where('status', '=', q.status)
      if (q.event) base = base.where(holdsEvent(q.event))
      const { rows, total } = await newestFirstPage(base, q)
      return { rows: rows.map(webhook), total }
    },

    /** Event types at least one active webhook subscribes to, across organizations. */
    async subscribedTypes(): Promise<string[]> {
      const rows = await db
        .selectFrom('webhooks')
        .select('events')
        .distinct()
        .where('status', '=', 'active')
        .execute()
      return [...new Set(rows.flatMap((r) => JSON.parse(r.events) as string[]))]
    },

    /** Active webhooks of an organization (the dispatcher's subscription list). */
    async active(organizationId: string): Promise<WebhookRecord[]> {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('status', '=', 'active')
        .execute()
      return rows.map(webhook)
    },

    async update(id: string, p: WebhookPatch): Promise<void> {
      await db
        .updateTable('webhooks')
        .set({
          ...(p.name !== undefined && { name: p.name }),
          ...(p.description !== undefined && { description: p.description }),
          ...(p.url !== undefined && { url: p.url }),
          ...(p.events !== undefined && { events: JSON.stringify(p.events) }),
          ...(p.retryPolicy !== undefined && { retry_policy: p.retryPolicy }),
          ...(p.maxRetries !== undefined && { max_retries: p.maxRetries }),
          ...(p.timeoutSeconds !== undefined && { timeout_seconds: p.timeoutSeconds }),
          ...(p.format !== undefined && { format: p.format }),
          ...(p.headers !== undefined && { headers: sealHeaders(p.headers) }),
          ...(p.secretSealed !== undefined && { secret_sealed: p.secretSealed }),
          updated_at: p.updatedAt,
        })
        .where('id', '=', id)
        .execute()
    },

    /**
     * Sets the status of the organization's webhooks among `ids` that are not in it already;
     * enabling resets the consecutive failures. Returns the ids changed.
     */
    async setStatus(
      organizationId: string,
      ids: string[],
      status: WebhookStatus,
      now: number,
    ): Promise<string[]> {
      return db.transaction().execute(async (trx) => {
        const changed = await trx
          .selectFrom('webhooks')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('id', 'in', ids)
          .where('status', '!=', status)
          .execute()
        const list = changed.map((r) => r.id)
        if (list.length)
          await trx
            .updateTable('webhooks')
            .set({
              status,
              updated_at: now,
              // Enabling also ends the endpoint's backoff: the next due delivery goes at once.
              ...(status === 'active' && { consecutive_failures: 0, failed_attempts: 0, paused_until: 0 }),
            })
            .where('id', 'in', list)
            .execute()
        return list
      })
    },

    /** Deletes the organization's webhooks among `ids` and their delivery logs; returns the ids deleted. */
    async delete(organizationId: string, ids: string[]): Promise<string[]> {
      return db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom('webhooks')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('id', 'in', ids)
          .execute()
        const list = found.map((r) => r.id)
        if (list.length) {
          await trx.deleteFrom('webhook_deliveries').where('webhook_id', 'in', list).execute()
          await trx.deleteFrom('webhooks').where('id', 'in', list).execute()
        }
        return list
      })
    },

    /** A failed delivery: +1 consecutive failure; suspends an active webhook at `suspendAfter`. */
    async recordFailure(
      webhookId: string,
      suspendAfter: number,
      now: number,
    ): Promise<{ suspended: boolean }> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('webhooks')
          .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
          .where('id', '=', webhookId)
          .execute()
        const r = await trx
          .updateTable('webhooks')
          .set({ status: 'suspended', updated_at: now })
          .where('id', '=', webhookId)
          .where('status', '=', 'active')
          .where('consecutive_failures', '>=', suspendAfter)
          .executeTakeFirst()
        return { suspended: Number(r.numUpdatedRows) === 1 }
      })
    },

    async recordSuccess(webhookId: string): Promise<void> {
      await db
        .updateTable('webhooks')
        .set({ consecutive_failures: 0, failed_attempts: 0, paused_until: 0 })
        .where('id', '=', webhookId)
        .where((eb) => eb.or([eb('consecutive_failures', '>', 0), eb('failed_attempts', '>', 0)]))
        .execute()
    },
    async recordTestSuccess(webhookId: string): Promise<void> {
      await db
        .updateTable('webhooks')
        .set({ failed_attempts: 0, paused_until: 0 })
        .where('id', '=', webhookId)
        .where('failed_attempts', '>', 0)
        .execute()
    },
    ...createOutboxStore(db, openHeaders),
  }
}
