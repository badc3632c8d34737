/**
 * Claims on the delivery outbox (`webhook_deliveries`): a sender takes due deliveries for one
 * attempt each, records the attempt only while it still holds the claim, and keeps each
 * endpoint's backoff (`webhooks.failed_attempts`, `paused_until`). Part of the webhooks store
 * (the outbox store spreads it in); SQL only, portable to PostgreSQL.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import type { RetryPolicy } from '../../../src/contract/limits.js'
import { toDelivery, type AttemptResult, type DueDelivery } from './delivery-record.js'

/** How much a claim may take: the caller's free slots and each organization's and webhook's share. */
export interface ClaimLimits {
  /** Deliveries to claim at most (the sender's free slots). */
  limit: number
  /** Attempts in flight at most per organization and per webhook, counting every sender's claims. */
  perOrganization: number
  perWebhook: number
  /** A claim lasts the webhook's timeout plus this; a sender that died releases it by expiry. */
  graceMs: number
  /**
   * An endpoint with this many failed attempts in a row is probed: a delivery not yet tried starts
   * only when nothing else is in flight to it and its pause has ended. Retries keep their schedule
   * and the webhook's share.
   */
  probeAfter: number
}

/** The claim side of the outbox port. */
export interface ClaimStore {
  /** Claims up to `c.limit` due deliveries for one attempt each, fairly (see the implementation). */
  claimDue(now: number, c: ClaimLimits): Promise<DueDelivery[]>
  /** Claims one due delivery by id, outside the shares; undefined when it is not due or taken. */
  claimById(id: string, now: number, graceMs: number): Promise<DueDelivery | undefined>
  /**
   * The earliest time after `now` when a delivery may fall due: a retry's, an endpoint's pause
   * ending, a claim expiring (its sender died). Null when nothing waits.
   */
  nextDue(now: number): Promise<number | null>
  /** Gives a claimed delivery back untried (due again at once) if the claim still holds. */
  release(id: string, claimedUntil: number): Promise<void>
  /**
   * Records an attempt if its claim (`claimedUntil`) still holds; false when it expired and another
   * sender claimed the delivery since: the late result is not recorded.
   */
  recordAttempt(id: string, claimedUntil: number, a: AttemptResult): Promise<boolean>
  /** A failed attempt of the webhook's endpoint: +1 in a row, and the pause from `pauseMs` of that count. */
  recordFailedAttempt(
    webhookId: string,
    now: number,
    pauseMs: (failedAttempts: number) => number,
  ): Promise<void>
}

const bump = (m: Map<string, number>, key: string, by = 1) => m.set(key, (m.get(key) ?? 0) + by)

/**
 * Orders due rows round-robin across organizations: each organization's i-th row comes before any
 * organization's (i+1)-th, counting the attempts it already has in flight, so an organization
 * with a backlog cannot take every free slot; ties keep the given (due) order.
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

/** A due row with what deciding whether to claim it needs of its webhook. */
interface Candidate {
  id: string
  organization_id: string
  webhook_id: string
  is_test: number
  attempts: number
  w_status: string
  timeout_seconds: number
  failed_attempts: number
  paused_until: number
}

export function createClaimStore(
  db: Kysely<Database>,
  openHeaders: (sealed: string) => Record<string, string>,
): ClaimStore {
  /** PostgreSQL: due rows another sender is claiming right now are skipped, not waited for. */
  const skipLocked = db.getExecutor().adapter instanceof PostgresAdapter
  /** Where the webhook-by-webhook reading of a claim starts (round-robin over the webhooks). */
  let rotation = 0

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
    // A claim often takes several deliveries of one webhook: its headers are decrypted once.
    const headersOf = new Map<string, Record<string, string>>()
    const headers = (r: (typeof rows)[number]) => {
      let open = headersOf.get(r.webhook_id)
      if (!open) headersOf.set(r.webhook_id, (open = openHeaders(r.w_headers)))
      return open
    }
    return ids.flatMap((id) => {
      const r = byId.get(id)
      if (!r) return []
      return [
        {
          ...toDelivery(r),
          url: r.w_url,
          headers: headers(r),
          secretSealed: r.w_secret,
          timeoutSeconds: Number(r.w_timeout),
          retryPolicy: r.w_policy as RetryPolicy,
          claimedUntil: Number(r.locked_until),
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

  /** Due, unclaimed rows oldest due first, with their webhook's state (a window or one webhook's). */
  function dueRows(trx: Kysely<Database>, now: number) {
    return trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select([
        'd.id',
        'd.organization_id',
        'd.webhook_id',
        'd.is_test',
        'd.attempts',
        'w.status as w_status',
        'w.timeout_seconds',
        'w.failed_attempts',
        'w.paused_until',
      ])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where('d.locked_until', '<=', now)
      .orderBy('d.next_attempt_at')
  }

  return {
    /**
     * Claims up to `limit` due deliveries, one attempt each: skips organizations and webhooks at
     * their share of attempts in flight, round-robin across organizations, holds back untried rows of
     * a backing-off endpoint, and reads from indexes so a backlog is never scanned. One transaction of
     * guarded updates (FOR UPDATE SKIP LOCKED on PostgreSQL). See docs/decisions/webhook-delivery.md.
     */
    async claimDue(now: number, c: ClaimLimits): Promise<DueDelivery[]> {
      if (c.limit <= 0) return []
      return db.transaction().execute(async (trx) => {
        // In flight: claimed and not yet recorded (recording, releasing and requeueing clear the
        // claim), read from the claimed-rows index alone.
        const busy = await trx
          .selectFrom('webhook_deliveries')
          .select((eb) => ['organization_id', 'webhook_id', eb.fn.countAll<number>().as('n')])
          .where('locked_until', '>', now)
          .groupBy(['organization_id', 'webhook_id'])
          .execute()
        const perOrg = new Map<string, number>()
        const perHook = new Map<string, number>()
        for (const b of busy) {
          bump(perOrg, b.organization_id, Number(b.n))
          bump(perHook, b.webhook_id, Number(b.n))
        }
        const backingOff = (failedAttempts: number) => Number(failedAttempts) >= c.probeAfter
        /** An untried delivery of a backing-off endpoint is its probe: one in flight, nothing else. */
        const shareOf = (r: Candidate) =>
          Number(r.attempts) === 0 && backingOff(r.failed_attempts) ? 1 : c.perWebhook
        const claimed: string[] = []
        async function claimFrom(rows: Candidate[]): Promise<void> {
          for (const r of fairOrder(rows, perOrg)) {
            if (claimed.length >= c.limit) return
            const test = Number(r.is_test) === 1
            if (!test && r.w_status !== 'active') continue
            // The pause holds back the deliveries not yet tried, never a retry.
            if (!test && Number(r.attempts) === 0 && Number(r.paused_until) > now) continue
            if ((perOrg.get(r.organization_id) ?? 0) >= c.perOrganization) continue
            if ((perHook.get(r.webhook_id) ?? 0) >= shareOf(r)) continue
            const until = now + Number(r.timeout_seconds) * 1000 + c.graceMs
            if (!(await take(trx, r.id, now, until))) continue
            claimed.push(r.id)
            bump(perOrg, r.organization_id)
            bump(perHook, r.webhook_id)
          }
        }

        const window = Math.max(2 * c.limit, 16)
        const head = await dueRows(trx, now)
          .limit(window)
          .$if(skipLocked, (qb) => qb.forUpdate('d').skipLocked())
          .execute()
        await claimFrom(head)
        if (claimed.length >= c.limit || head.length < window) return withWebhooks(trx, claimed)

        // The head is held by webhooks that cannot take more: every active one, one by one (a
        // pausing one for its retries, which may sit behind its own untried backlog).
        const hooks = await trx
          .selectFrom('webhooks')
          .select(['id', 'organization_id', 'failed_attempts', 'paused_until'])
          .where('status', '=', 'active')
          .orderBy('id')
          .execute()
        const start = hooks.length ? rotation++ % hooks.length : 0
        const turn = [...hooks.slice(start), ...hooks.slice(0, start)].sort(
          (a, b) => (perOrg.get(a.organization_id) ?? 0) - (perOrg.get(b.organization_id) ?? 0),
        )
        for (const h of turn) {
          if (claimed.length >= c.limit) break
          if ((perOrg.get(h.organization_id) ?? 0) >= c.perOrganization) continue
          const room = Math.min(c.perWebhook - (perHook.get(h.id) ?? 0), c.limit - claimed.length)
          if (room <= 0) continue
          const ofHook = () => dueRows(trx, now).where('d.webhook_id', '=', h.id)
          const lock = <Q extends ReturnType<typeof ofHook>>(qb: Q) =>
            skipLocked ? (qb.forUpdate('d').skipLocked() as Q) : qb
          if (!backingOff(h.failed_attempts)) {
            await claimFrom(await lock(ofHook().limit(room)).execute())
            continue
          }
          // Backing off: its retries, from the started-deliveries index (literal terms: SQLite uses
          // a partial index only when the query repeats its condition), then maybe its probe.
          const retries = ofHook().where(sql<boolean>`d.status = 'pending' AND d.attempts > 0`)
          await claimFrom(await lock(retries.limit(room)).execute())
          const probeFree = Number(h.paused_until) <= now && (perHook.get(h.id) ?? 0) === 0
          if (probeFree && claimed.length < c.limit) await claimFrom(await lock(ofHook().limit(1)).execute())
        }
        return withWebhooks(trx, claimed)
      })
    },

    /**
     * Claims one due delivery by id, outside the shares and the endpoint's pause (the test action
     * and a manual retry: one attempt each, bounded by the API's own limits). Undefined when it is
     * not due or taken.
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

    async nextDue(now: number): Promise<number | null> {
      // Each minimum reads one index (the due, claimed and webhooks' rows), never the backlog.
      const [retry, claim, pause] = await Promise.all([
        db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.min('next_attempt_at').as('at'))
          .where('status', '=', 'pending')
          .where('next_attempt_at', '>', now)
          .executeTakeFirst(),
        db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.min('locked_until').as('at'))
          .where('locked_until', '>', now)
          .executeTakeFirst(),
        db
          .selectFrom('webhooks')
          .select((eb) => eb.fn.min('paused_until').as('at'))
          .where('status', '=', 'active')
          .where('paused_until', '>', now)
          .executeTakeFirst(),
      ])
      const times = [retry?.at, claim?.at, pause?.at].filter((t) => t != null).map(Number)
      return times.length ? Math.min(...times) : null
    },

    /** Gives a claimed delivery back untried (its attempt was cut by shutdown): due again at once. */
    async release(id: string, claimedUntil: number): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ locked_until: 0 })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('locked_until', '=', claimedUntil)
        .execute()
    },

    /**
     * The claim is the row's locked_until: a re-claim after expiry sets a later one, so a sender
     * paused past its claim finds another value and records nothing.
     */
    async recordAttempt(id: string, claimedUntil: number, a: AttemptResult): Promise<boolean> {
      const r = await db
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
        .where('status', '=', 'pending')
        .where('locked_until', '=', claimedUntil)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },

    async recordFailedAttempt(
      webhookId: string,
      now: number,
      pauseMs: (failedAttempts: number) => number,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('webhooks')
          .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
          .where('id', '=', webhookId)
          .returning('failed_attempts')
          .executeTakeFirst()
        if (!r) return
        const pause = pauseMs(Number(r.failed_attempts))
        if (pause > 0)
          await trx
            .updateTable('webhooks')
            .set({ paused_until: now + pause })
            .where('id', '=', webhookId)
            .execute()
      })
    },
  }
}
