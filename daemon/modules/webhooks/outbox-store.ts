/**
 * The delivery outbox (`webhook_deliveries`): rows written before the first attempt, claimed by a
 * sender for one attempt at a time, the attempt's result, the delivery log and its statistics.
 * Part of the webhooks store (createWebhookStore spreads it in); SQL only, portable to PostgreSQL.
 */
import { PostgresAdapter, type Kysely, type Selectable } from 'kysely'
import type { Database, WebhookDeliveriesTable } from '../../db/schema.js'
import type { DeliveryStatus, RetryPolicy } from '../../../src/contract/limits.js'
import { newestFirstPage } from '../../db/paginate.js'

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

/** How much a claim may take: the caller's free slots and each organization's and webhook's share. */
export interface ClaimLimits {
  /** Deliveries to claim at most (the sender's free slots). */
  limit: number
  /** Attempts in flight at most per organization and per webhook, counting every sender's claims. */
  perOrganization: number
  perWebhook: number
  /** A claim lasts the webhook's timeout plus this; a sender that died releases it by expiry. */
  graceMs: number
}

const n = (v: number | string | bigint | null): number | null => (v === null ? null : Number(v))

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

const bump = (m: Map<string, number>, key: string, by = 1) => m.set(key, (m.get(key) ?? 0) + by)

/**
 * Orders a window of due rows round-robin across organizations: each organization's i-th row
 * comes before any organization's (i+1)-th, counting the attempts it already has in flight, so an
 * organization with a backlog cannot take every free slot; ties keep the due order.
 */
function fairOrder<T extends { organization_id: string }>(rows: T[], inFlight: Map<string, number>): T[] {
  const seen = new Map<string, number>()
  return rows
    .map((row, i) => {
      const rank = (inFlight.get(row.organization_id) ?? 0) + (seen.get(row.organization_id) ?? 0)
      bump(seen, row.organization_id)
      return { row, rank, i }
    })
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.row)
}

/** Per status and event of one webhook's deliveries: count, and the sum and count of response times. */
export interface DeliveryStatsRow {
  status: DeliveryStatus
  event: string
  count: number
  durationSum: number
  timed: number
}

/** The delivery outbox (webhook_deliveries): part of the webhook store port. */
export interface OutboxStore {
  insertDeliveries(rows: NewDelivery[]): Promise<void>
  /** Claims up to `c.limit` due deliveries for one attempt each, fairly (see the implementation). */
  claimDue(now: number, c: ClaimLimits): Promise<DueDelivery[]>
  /** Claims one due delivery by id, outside the shares; undefined when it is not due or taken. */
  claimById(id: string, now: number, graceMs: number): Promise<DueDelivery | undefined>
  /** Gives a claimed delivery back untried: due again at once. */
  release(id: string): Promise<void>
  recordAttempt(id: string, a: AttemptResult): Promise<void>
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
  /** PostgreSQL: due rows another sender is claiming right now are skipped, not waited for. */
  const skipLocked = db.getExecutor().adapter instanceof PostgresAdapter
  /** Claimed rows with their webhook's sending settings, in the order of `ids`. */
  async function withWebhooks(trx: Kysely<Database>, ids: string[]): Promise<DueDelivery[]> {
    if (ids.length === 0) return []
    const rows = await trx
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
      .where('d.id', 'in', ids)
      .execute()
    const byId = new Map(rows.map((r) => [r.id, r]))
    return ids.flatMap((id) => {
      const r = byId.get(id)
      if (!r) return []
      return [
        {
          ...toDelivery(r),
          url: r.w_url,
          headers: openHeaders(r.w_headers),
          secretSealed: r.w_secret,
          timeoutSeconds: Number(r.w_timeout),
          retryPolicy: r.w_policy as RetryPolicy,
        },
      ]
    })
  }

  /** Takes a due, unclaimed delivery until `until`; false when it is not (another sender has it). */
  async function take(trx: Kysely<Database>, id: string, now: number, until: number): Promise<boolean> {
    const r = await trx
      .updateTable('webhook_deliveries')
      .set({ locked_until: until })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('locked_until', '<=', now)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) === 1
  }

  return {
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
     * Claims up to `limit` due deliveries for one attempt each, fairly: pending rows due at `now`,
     * not claimed, of active webhooks (test deliveries whatever the status); an organization or a
     * webhook that already has its share of attempts in flight (claims of every sender on this
     * database) is skipped, so other organizations' due rows are taken at once; among the rest,
     * round-robin across organizations, oldest due first within each.
     *
     * One transaction; each row is taken by a guarded update, so two senders never claim the same
     * row. On PostgreSQL the window is read FOR UPDATE SKIP LOCKED: rows in another sender's claim
     * transaction are skipped (no waiting, no deadlock between two claims locking rows in different
     * orders). With several processes the shares may be overshot by a concurrent claim.
     */
    async claimDue(now: number, c: ClaimLimits): Promise<DueDelivery[]> {
      if (c.limit <= 0) return []
      return db.transaction().execute(async (trx) => {
        // In flight: claimed and not yet recorded. A claimed row is due (next_attempt_at <= now), so
        // this reads the same index range as the due rows.
        const busy = await trx
          .selectFrom('webhook_deliveries')
          .select((eb) => ['organization_id', 'webhook_id', eb.fn.countAll<number>().as('n')])
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where('locked_until', '>', now)
          .groupBy(['organization_id', 'webhook_id'])
          .execute()
        const perOrg = new Map<string, number>()
        const perHook = new Map<string, number>()
        for (const b of busy) {
          bump(perOrg, b.organization_id, Number(b.n))
          bump(perHook, b.webhook_id, Number(b.n))
        }
        const full = (m: Map<string, number>, cap: number) =>
          [...m].filter(([, count]) => count >= cap).map(([key]) => key)
        const claimed: string[] = []
        const window = Math.max(4 * c.limit, 64)
        // A window filled by organizations that reach their share in it is read again without them.
        for (let round = 0; round <= c.limit && claimed.length < c.limit; round++) {
          const fullOrgs = full(perOrg, c.perOrganization)
          const fullHooks = full(perHook, c.perWebhook)
          const rows = await trx
            .selectFrom('webhook_deliveries as d')
            .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
            .select(['d.id', 'd.organization_id', 'd.webhook_id', 'w.timeout_seconds'])
            .where('d.status', '=', 'pending')
            .where('d.next_attempt_at', '<=', now)
            .where('d.locked_until', '<=', now)
            .where((eb) => eb.or([eb('w.status', '=', 'active'), eb('d.is_test', '=', 1)]))
            .$if(fullOrgs.length > 0, (qb) => qb.where('d.organization_id', 'not in', fullOrgs))
            .$if(fullHooks.length > 0, (qb) => qb.where('d.webhook_id', 'not in', fullHooks))
            .orderBy('d.next_attempt_at')
            .limit(window)
            .$if(skipLocked, (qb) => qb.forUpdate('d').skipLocked())
            .execute()
          for (const r of fairOrder(rows, perOrg)) {
            if (claimed.length >= c.limit) break
            if ((perOrg.get(r.organization_id) ?? 0) >= c.perOrganization) continue
            if ((perHook.get(r.webhook_id) ?? 0) >= c.perWebhook) continue
            const until = now + Number(r.timeout_seconds) * 1000 + c.graceMs
            if (!(await take(trx, r.id, now, until))) continue
            claimed.push(r.id)
            bump(perOrg, r.organization_id)
            bump(perHook, r.webhook_id)
          }
          if (rows.length < window) break // every due row was seen
        }
        return withWebhooks(trx, claimed)
      })
    },

    /**
     * Claims one due delivery by id, outside the shares (the test action and a manual retry: one
     * attempt each, bounded by the API's own limits). Undefined when it is not due or taken.
     */
    async claimById(id: string, now: number, graceMs: number): Promise<DueDelivery | undefined> {
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
          .select(['d.id', 'w.timeout_seconds'])
          .where('d.id', '=', id)
          .where('d.next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('w.status', '=', 'active'), eb('d.is_test', '=', 1)]))
          .executeTakeFirst()
        if (!r || !(await take(trx, r.id, now, now + Number(r.timeout_seconds) * 1000 + graceMs)))
          return undefined
        return (await withWebhooks(trx, [r.id]))[0]
      })
    },

    /** Gives a claimed delivery back untried (its attempt was cut by shutdown): due again at once. */
    async release(id: string): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ locked_until: 0 })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute()
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
