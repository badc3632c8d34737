import type { Kysely, Selectable } from 'kysely'
import type { SecretBox } from '../../crypto.js'
import type { Database, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.js'
import type {
  DeliveryStatus,
  RetryPolicy,
  WebhookEvent,
  WebhookStatus,
} from '../../../src/contract/limits.js'

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
  secretSealed: string
  status: WebhookStatus
  consecutiveFailures: number
  createdAt: number
  updatedAt: number
}

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

/** A due delivery with what sending it needs of its webhook. */
export interface DueDelivery extends DeliveryRecord {
  url: string
  headers: Record<string, string>
  secretSealed: string
  timeoutSeconds: number
  retryPolicy: RetryPolicy
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
  secretSealed?: string
  updatedAt: number
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
    secretSealed: r.secret_sealed,
    status: r.status as WebhookStatus,
    consecutiveFailures: Number(r.consecutive_failures),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }
}

function toDelivery(r: Selectable<WebhookDeliveriesTable>): DeliveryRecord {
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

const likeEvent = (event: string) => `%"${event.replace(/[\\%_]/g, (c) => `\\${c}`)}"%`

/**
 * The webhook tables. Custom headers often carry credentials (`Authorization: Bearer …`), so they
 * are stored encrypted like the signing secret.
 */
export function createWebhookStore(db: Kysely<Database>, secrets: SecretBox) {
  const sealHeaders = (h: Record<string, string>) => secrets.encrypt(JSON.stringify(h))
  const openHeaders = (v: string) => JSON.parse(secrets.decrypt(v)) as Record<string, string>
  const webhook = (r: Selectable<WebhooksTable>) => toWebhook(r, openHeaders(r.headers))
  return {
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
      if (q.event) base = base.where('events', 'like', likeEvent(q.event))
      const [rows, count] = await Promise.all([
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(q.limit)
          .offset(q.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows: rows.map(webhook), total: Number(count.n) }
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
            .set({ status, updated_at: now, ...(status === 'active' && { consecutive_failures: 0 }) })
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
        .set({ consecutive_failures: 0 })
        .where('id', '=', webhookId)
        .where('consecutive_failures', '>', 0)
        .execute()
    },

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

    /**
     * Pending deliveries due at `now`, not claimed by a sender, of active webhooks (test deliveries
     * go out whatever the webhook's status), oldest due first.
     */
    async due(now: number, limit: number, id?: string): Promise<DueDelivery[]> {
      const rows = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .selectAll('d')
        .select([
          'w.url as w_url',
          'w.headers as w_headers',
          'w.secret_sealed as w_secret',
          'w.timeout_seconds as w_timeout',
          'w.retry_policy as w_policy',
        ])
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', now)
        .where('d.locked_until', '<=', now)
        .where((eb) => eb.or([eb('w.status', '=', 'active'), eb('d.is_test', '=', 1)]))
        .$if(id !== undefined, (qb) => qb.where('d.id', '=', id!))
        .orderBy('d.next_attempt_at')
        .limit(limit)
        .execute()
      return rows.map((r) => ({
        ...toDelivery(r),
        url: r.w_url,
        headers: openHeaders(r.w_headers),
        secretSealed: r.w_secret,
        timeoutSeconds: Number(r.w_timeout),
        retryPolicy: r.w_policy as RetryPolicy,
      }))
    },

    /** Takes a pending delivery for one attempt until `until`; false when another sender has it. */
    async claim(id: string, now: number, until: number): Promise<boolean> {
      const r = await db
        .updateTable('webhook_deliveries')
        .set({ locked_until: until })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('locked_until', '<=', now)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },

    async recordAttempt(id: string, a: AttemptResult): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({
          status: a.status,
          attempts: a.attempts,
          last_status_code: a.statusCode,
          last_error: a.error,
          last_duration_ms: a.durationMs,
          last_attempt_at: a.at,
          next_attempt_at: a.nextAttemptAt,
          locked_until: 0,
          completed_at: a.status === 'pending' ? null : a.at,
        })
        .where('id', '=', id)
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
      const [rows, count] = await Promise.all([
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(q.limit)
          .offset(q.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows: rows.map(toDelivery), total: Number(count.n) }
    },

    /** Per status and event: delivery count and the sum and count of response times. */
    async stats(webhookId: string) {
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
export type WebhookStore = ReturnType<typeof createWebhookStore>
