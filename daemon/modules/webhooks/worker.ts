/**
 * The sender: claims due deliveries from the outbox and POSTs them (undici, one pool per webhook,
 * pinned to the vetted address; redirects not followed). Woken by outbox writes, ended attempts and
 * one timer set for the next delivery to fall due. See docs/decisions/webhook-delivery.md.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Agent } from 'undici'
import type { Clock } from '../../clock.js'
import type { SecretBox } from '../../crypto.js'
import { unreachableText } from '../../socket-errors.js'
import { deliveryHeaders } from '../../../src/contract/webhook-signature.js'
import { WEBHOOK_LIMITS, type RetryPolicy } from '../../../src/contract/limits.js'
import {
  isFetchTimeout,
  pinnedLookup,
  SsrfError,
  vetTarget,
  type GuardPolicy,
  type ResolvedAddress,
  type Resolver,
} from './ssrf.js'
import type { DueDelivery, WebhookStore } from './store.js'

/** Milliseconds until retry `attempt` (1 = the first): exponential 2^attempt s, linear 5 s, immediate 1 s. */
export function retryDelayMs(policy: RetryPolicy, attempt: number): number {
  if (policy === 'exponential') return 2 ** Math.min(attempt, 20) * 1000
  if (policy === 'linear') return 5000
  return 1000
}

/** Default shares of the attempts in flight (LINKD_WEBHOOK_CONCURRENCY, LINKD_WEBHOOK_CONCURRENCY_PER_ORG). */
export const SENDER_DEFAULTS = { concurrency: 64, perOrganization: 16, perWebhook: 8 } as const

/** A claim lasts the webhook's timeout plus this, so that a sender that died releases it by expiry. */
const CLAIM_GRACE_MS = 30_000

/** A claim that failed (the database locked or down) is tried again after this. */
const RETRY_AFTER_FAILURE_MS = 1000

/**
 * A failing endpoint backs off as a whole: from `probeAfter` failed attempts in a row (any
 * delivery, any sender) its deliveries not yet tried start one at a time (nothing else in flight
 * to it), none during a pause doubling from `firstPauseMs` to `maxPauseMs`; the first success
 * ends it. They stay pending meanwhile, attempts unspent. Retries are not held back: they keep the
 * policy's schedule, so the webhook is suspended when that schedule runs out.
 */
export const ENDPOINT_BACKOFF = { probeAfter: 5, firstPauseMs: 1000, maxPauseMs: 60_000 } as const

/** The pause of an endpoint after `failedAttempts` failed attempts in a row (0: none). */
export function endpointPauseMs(failedAttempts: number): number {
  const { probeAfter, firstPauseMs, maxPauseMs } = ENDPOINT_BACKOFF
  if (failedAttempts < probeAfter) return 0
  return Math.min(firstPauseMs * 2 ** Math.min(failedAttempts - probeAfter, 20), maxPauseMs)
}

export interface WorkerOptions {
  store: WebhookStore
  clock: Clock
  secrets: SecretBox
  resolve: Resolver
  guard: GuardPolicy
  log: FastifyBaseLogger
  /** Attempts in flight at once in this sender, per organization and per webhook (all senders). */
  concurrency?: number
  perOrganization?: number
  perWebhook?: number
  /**
   * How often to look for what other processes on the database left due (a dead one's claims and
   * retries, rows it wrote but never sent); their own timers cover the rest. None by default: one
   * process on SQLite.
   */
  sweepMs?: number
  /** How long stop() lets attempts in flight finish before cutting them. */
  stopGraceMs?: number
  /** A webhook was suspended after consecutive failed deliveries. */
  onSuspended?(organizationId: string, webhookId: string): void
}

interface Outcome {
  statusCode: number | null
  error: string | null
  durationMs: number
}

/** An attempt cut by stop(): not an outcome of the receiver, so not recorded. */
class Stopped extends Error {
  override name = 'Stopped'
}

function describe(err: unknown, timeoutSeconds: number): string {
  if (err instanceof SsrfError) return err.message
  const e = err as { name?: string; code?: string; message?: string; cause?: unknown }
  if (isFetchTimeout(err)) return `timed out after ${timeoutSeconds} s`
  const unreachable = unreachableText(err)
  if (unreachable) return unreachable
  const cause = e.cause as { code?: string; message?: string } | undefined
  const detail = cause?.code ?? e.code ?? e.name ?? 'Error'
  return `connection failed: ${detail}${e.message ? ` (${e.message})` : ''}`.slice(0, 500)
}

export function createWorker(opts: WorkerOptions) {
  const attempts = { success: 0, retry: 0, failed: 0 }
  const concurrency = opts.concurrency ?? SENDER_DEFAULTS.concurrency
  const perOrganization = opts.perOrganization ?? SENDER_DEFAULTS.perOrganization
  const perWebhook = opts.perWebhook ?? SENDER_DEFAULTS.perWebhook
  const stopGraceMs = opts.stopGraceMs ?? 2000
  /** Attempts in flight: the claimed ones count toward `concurrency`, test and manual ones do not. */
  const inflight = new Map<string, { done: Promise<void>; claimed: boolean }>()
  let claimedInFlight = 0
  const agents = new Map<string, { key: string; agent: Agent }>()
  /** Aborted by stop(): cuts every attempt still in flight. */
  let halt = new AbortController()
  let started = false
  /** The timer for the next delivery to fall due (one, the earliest), and the sweep. */
  let alarm: { at: number; timer: NodeJS.Timeout } | undefined
  let sweep: NodeJS.Timeout | undefined
  let filling: Promise<void> | undefined
  let refill = false

  /** undici, loaded with the first delivery: most daemons never send one (~5 MB, ~40 ms). */
  let http: Promise<typeof import('undici')> | undefined
  // `default` is module.exports both in Node and in the esbuild bundle (named exports are not).
  const undici = () =>
    (http ??= import('undici').then((m) => m.default as unknown as typeof import('undici')))

  function agentFor(
    Agent: (typeof import('undici'))['Agent'],
    d: DueDelivery,
    url: URL,
    target: ResolvedAddress,
  ): Agent {
    const timeoutMs = d.timeoutSeconds * 1000
    const key = `${url.origin}|${target.address}|${timeoutMs}`
    const cached = agents.get(d.webhookId)
    if (cached?.key === key) return cached.agent
    if (cached) void cached.agent.close().catch(() => {})
    const agent = new Agent({
      connections: perWebhook,
      keepAliveTimeout: 30_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: timeoutMs, lookup: pinnedLookup(target) },
    })
    agents.set(d.webhookId, { key, agent })
    return agent
  }

  async function post(d: DueDelivery, attempt: number): Promise<Outcome> {
    const t0 = performance.now()
    const elapsed = () => Math.round(performance.now() - t0)
    const signal = AbortSignal.any([AbortSignal.timeout(d.timeoutSeconds * 1000), halt.signal])
    try {
      const url = new URL(d.url)
      const target = await vetTarget(url, { resolve: opts.resolve, ...opts.guard })
      const headers = {
        ...d.headers,
        ...deliveryHeaders({
          secret: opts.secrets.decrypt(d.secretSealed),
          rawBody: d.payload,
          event: d.event,
          deliveryId: `${d.id}-${attempt}`,
          attempt,
          timestamp: opts.clock.now(),
        }),
      }
      const { Agent, request } = await undici()
      const res = await request(url, {
        method: 'POST',
        headers,
        body: d.payload,
        dispatcher: agentFor(Agent, d, url, target),
        signal,
      })
      await res.body.dump({ limit: 65_536 }).catch(() => {})
      const ok = res.statusCode >= 200 && res.statusCode < 300
      const redirect = res.statusCode >= 300 && res.statusCode < 400
      return {
        statusCode: res.statusCode,
        error: ok ? null : `HTTP ${res.statusCode}${redirect ? ' (redirects are not followed)' : ''}`,
        durationMs: elapsed(),
      }
    } catch (err) {
      if (halt.signal.aborted) throw new Stopped()
      return { statusCode: null, error: describe(err, d.timeoutSeconds), durationMs: elapsed() }
    }
  }

  /** One attempt of a claimed delivery, and its consequences. */
  async function attempt(d: DueDelivery): Promise<void> {
    const n = d.attempts + 1
    let outcome: Outcome
    try {
      outcome = await post(d, n)
    } catch (err) {
      if (!(err instanceof Stopped)) throw err
      // Cut by stop(): no answer was judged, so the delivery is given back untried (at least once:
      // the receiver may have got it; the next start sends it again).
      await opts.store.release(d.id, d.claimedUntil)
      return
    }
    const at = opts.clock.now()
    const success = outcome.error === null
    const retry = !success && n < d.maxAttempts
    attempts[success ? 'success' : retry ? 'retry' : 'failed']++
    const nextAttemptAt = retry ? at + retryDelayMs(d.retryPolicy, n) : null
    const recorded = await opts.store.recordAttempt(d.id, d.claimedUntil, {
      status: success ? 'success' : retry ? 'pending' : 'failed',
      attempts: n,
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs: outcome.durationMs,
      at,
      nextAttemptAt,
    })
    if (!recorded) {
      // This sender was paused past its claim and another one re-claimed the delivery: the row is
      // that sender's now. The late result only goes to the log (the receiver may have got it).
      opts.log.warn(
        { deliveryId: d.id, attempt: n, statusCode: outcome.statusCode, error: outcome.error },
        'webhook attempt ended after its claim expired; result not recorded',
      )
      return
    }
    if (nextAttemptAt !== null) wakeAt(nextAttemptAt)
    // A test never counts toward suspension, but it is an attempt to the endpoint like any other:
    // its result is the webhook's latest (a failed test right after enabling shows), and a test
    // that gets through ends a backoff.
    if (d.isTest) {
      if (success) await opts.store.recordTestSuccess(d.webhookId)
      else await opts.store.recordFailedAttempt(d.webhookId, at, endpointPauseMs)
      return
    }
    if (success) await opts.store.recordSuccess(d.webhookId)
    else await opts.store.recordFailedAttempt(d.webhookId, at, endpointPauseMs)
    if (!success && !retry) {
      const { suspended } = await opts.store.recordFailure(d.webhookId, WEBHOOK_LIMITS.suspendAfter, at)
      if (suspended) {
        opts.log.warn(
          { webhookId: d.webhookId, after: WEBHOOK_LIMITS.suspendAfter },
          'webhook suspended after consecutive failed deliveries',
        )
        opts.onSuspended?.(d.organizationId, d.webhookId)
      }
    }
  }

  function start(d: DueDelivery, claimed: boolean): Promise<void> {
    if (claimed) claimedInFlight++
    const done = attempt(d)
      .catch((err: unknown) => opts.log.error({ err, deliveryId: d.id }, 'webhook delivery attempt failed'))
      .finally(() => {
        inflight.delete(d.id)
        if (claimed) claimedInFlight--
        wake() // a slot is free
      })
    inflight.set(d.id, { done, claimed })
    return done
  }

  /** Claims and starts as many due deliveries as the shares allow; returns how many. */
  async function fill(): Promise<number> {
    const room = concurrency - claimedInFlight
    if (room <= 0 || halt.signal.aborted) return 0
    const rows = await opts.store.claimDue(opts.clock.now(), {
      limit: room,
      perOrganization,
      perWebhook,
      graceMs: CLAIM_GRACE_MS,
      probeAfter: ENDPOINT_BACKOFF.probeAfter,
    })
    for (const d of rows) void start(d, true)
    return rows.length
  }

  /** One claim at a time; a request during a claim runs another right after it. */
  function pump(): Promise<void> {
    if (filling) {
      refill = true
      return filling
    }
    filling = (async () => {
      try {
        do {
          refill = false
          await fill()
        } while (refill)
        if (started) {
          const next = await opts.store.nextDue(opts.clock.now())
          if (next !== null) wakeAt(next)
        }
      } catch (err) {
        opts.log.error({ err }, 'webhook sender failed')
        // Nothing else may wake it for what is pending (no new event): it tries again itself.
        wakeAt(opts.clock.now() + RETRY_AFTER_FAILURE_MS)
      } finally {
        filling = undefined
      }
    })()
    return filling
  }

  function wake(): void {
    if (started) void pump()
  }

  /** Wakes the sender at `at` (clock time), unless it is already set to wake no later. */
  function wakeAt(at: number): void {
    if (!started || (alarm && alarm.at <= at)) return
    if (alarm) clearTimeout(alarm.timer)
    const delay = Math.min(Math.max(at - opts.clock.now(), 0), 2 ** 31 - 1)
    const timer = setTimeout(() => {
      alarm = undefined
      wake()
    }, delay)
    timer.unref()
    alarm = { at, timer }
  }

  return {
    /** Attempts judged in this process since start, by outcome (metrics). */
    attempts: attempts as Readonly<typeof attempts>,
    /**
     * Background mode: wake on new rows, freed slots and when the next delivery falls due (rows left
     * by a restart included: the first claim finds them).
     */
    start(): void {
      if (started) return
      started = true
      halt = new AbortController()
      if (opts.sweepMs) {
        sweep = setInterval(wake, opts.sweepMs)
        sweep.unref()
      }
      wake()
    },
    wake,
    /** Sends what is due now and waits for it (tests drive the sender with this and a fake clock). */
    async runDue(): Promise<void> {
      for (;;) {
        await pump()
        if (inflight.size === 0) return
        await Promise.race([...inflight.values()].map((a) => a.done))
      }
    },
    /** One attempt of one pending delivery right now (test action, manual retry). */
    async sendNow(id: string): Promise<void> {
      const d = await opts.store.claimById(id, opts.clock.now(), CLAIM_GRACE_MS)
      if (d) await start(d, false)
    },
    /**
     * Stops claiming, lets attempts in flight finish for the grace period, then cuts the rest
     * (their deliveries stay pending for the next start) and closes the connection pools.
     */
    async stop(): Promise<void> {
      started = false
      if (sweep) clearInterval(sweep)
      if (alarm) clearTimeout(alarm.timer)
      sweep = alarm = undefined
      await filling
      const all = () => Promise.allSettled([...inflight.values()].map((a) => a.done))
      let grace: NodeJS.Timeout | undefined
      await Promise.race([all(), new Promise((r) => (grace = setTimeout(r, stopGraceMs)))])
      clearTimeout(grace)
      halt.abort()
      await all()
      await Promise.allSettled([...agents.values()].map((a) => a.agent.close()))
      agents.clear()
    },
  }
}
export type Worker = ReturnType<typeof createWorker>
