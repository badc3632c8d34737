/**
 * The sender: takes due deliveries from the outbox and POSTs them with undici. Woken as soon as
 * the dispatcher writes rows (an idle queue sends within milliseconds), plus a poll timer for
 * retries coming due and for rows left pending by a restart. Bounded concurrency overall and per
 * webhook; one keep-alive connection pool per webhook, pinned to the address the SSRF guard
 * vetted. Redirects are not followed: only a 2xx answer succeeds.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Agent } from 'undici'
import type { Clock } from '../../clock.js'
import type { SecretBox } from '../../crypto.js'
import { deliveryHeaders } from '../../../src/contract/webhook-signature.js'
import { WEBHOOK_LIMITS, type RetryPolicy } from '../../../src/contract/limits.js'
import {
  pinnedLookup,
  SsrfError,
  vetTarget,
  type GuardPolicy,
  type ResolvedAddress,
  type Resolver,
} from './ssrf.js'
import type { DueDelivery, WebhookStore } from './store.js'

/** Seconds until retry number `attempt` (1 = the first retry) under a policy (spec 6.4.2). */
export function retryDelayMs(policy: RetryPolicy, attempt: number): number {
  if (policy === 'exponential') return 2 ** Math.min(attempt, 20) * 1000
  if (policy === 'linear') return 5000
  return 1000
}

export interface WorkerOptions {
  store: WebhookStore
  clock: Clock
  secrets: SecretBox
  resolve: Resolver
  guard: GuardPolicy
  log: FastifyBaseLogger
  /** Attempts in flight at once, overall and per webhook. */
  concurrency?: number
  perWebhook?: number
  pollMs?: number
  /** A webhook was suspended after consecutive failed deliveries. */
  onSuspended?(organizationId: string, webhookId: string): void
}

interface Outcome {
  statusCode: number | null
  error: string | null
  durationMs: number
}

function describe(err: unknown, timeoutSeconds: number): string {
  if (err instanceof SsrfError) return err.message
  const e = err as { name?: string; code?: string; message?: string; cause?: unknown }
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT' ||
    e.code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return `timed out after ${timeoutSeconds} s`
  const cause = e.cause as { code?: string; message?: string } | undefined
  const detail = cause?.code ?? e.code ?? e.name ?? 'Error'
  return `connection failed: ${detail}${e.message ? ` (${e.message})` : ''}`.slice(0, 500)
}

export function createWorker(opts: WorkerOptions) {
  const concurrency = opts.concurrency ?? 32
  const perWebhook = opts.perWebhook ?? 8
  const pollMs = opts.pollMs ?? 1000
  const inflight = new Map<string, Promise<void>>()
  const perHook = new Map<string, number>()
  const agents = new Map<string, { key: string; agent: Agent }>()
  let started = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let again = false

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
        signal: AbortSignal.timeout(d.timeoutSeconds * 1000),
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
      return { statusCode: null, error: describe(err, d.timeoutSeconds), durationMs: elapsed() }
    }
  }

  /** One attempt of a claimed delivery, and its consequences. */
  async function attempt(d: DueDelivery): Promise<void> {
    const n = d.attempts + 1
    const outcome = await post(d, n)
    const at = opts.clock.now()
    const success = outcome.error === null
    const retry = !success && n < d.maxAttempts
    await opts.store.recordAttempt(d.id, {
      status: success ? 'success' : retry ? 'pending' : 'failed',
      attempts: n,
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs: outcome.durationMs,
      at,
      nextAttemptAt: retry ? at + retryDelayMs(d.retryPolicy, n) : null,
    })
    if (d.isTest) return
    if (success) await opts.store.recordSuccess(d.webhookId)
    else if (!retry) {
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

  function start(d: DueDelivery): Promise<void> {
    perHook.set(d.webhookId, (perHook.get(d.webhookId) ?? 0) + 1)
    const p = attempt(d)
      .catch((err: unknown) => opts.log.error({ err, deliveryId: d.id }, 'webhook delivery attempt failed'))
      .finally(() => {
        inflight.delete(d.id)
        const left = (perHook.get(d.webhookId) ?? 1) - 1
        if (left > 0) perHook.set(d.webhookId, left)
        else perHook.delete(d.webhookId)
        wake()
      })
    inflight.set(d.id, p)
    return p
  }

  /** Claims and starts as many due deliveries as the limits allow; returns how many. */
  async function fill(): Promise<number> {
    const room = concurrency - inflight.size
    if (room <= 0) return 0
    const now = opts.clock.now()
    const rows = await opts.store.due(now, room * 2)
    let startedNow = 0
    for (const d of rows) {
      if (inflight.size >= concurrency) break
      if (inflight.has(d.id) || (perHook.get(d.webhookId) ?? 0) >= perWebhook) continue
      if (!(await opts.store.claim(d.id, now, now + d.timeoutSeconds * 1000 + 30_000))) continue
      void start(d)
      startedNow++
    }
    return startedNow
  }

  /** Sends everything due now, retries included once due, until nothing is due or in flight. */
  async function runDue(): Promise<void> {
    for (;;) {
      await fill()
      if (inflight.size === 0) return
      await Promise.race(inflight.values())
    }
  }

  function wake(): void {
    if (!started) return
    if (running) {
      again = true
      return
    }
    running = runDue()
      .catch((err: unknown) => opts.log.error({ err }, 'webhook sender failed'))
      .finally(() => {
        running = undefined
        if (again) {
          again = false
          setImmediate(wake)
        }
      })
  }

  return {
    /** Background mode: wake on new rows, poll for retries and rows left by a restart. */
    start(): void {
      if (started) return
      started = true
      timer = setInterval(wake, pollMs)
      timer.unref()
      wake()
    },
    wake,
    /** Sends what is due now and waits for it (tests drive the sender with this and a fake clock). */
    runDue,
    /** One attempt of one pending delivery right now (test action, manual retry). */
    async sendNow(id: string): Promise<void> {
      const now = opts.clock.now()
      const [d] = await opts.store.due(now, 1, id)
      if (!d || !(await opts.store.claim(d.id, now, now + d.timeoutSeconds * 1000 + 30_000))) return
      await start(d)
    },
    /** Stops polling, waits for attempts in flight, closes the connection pools. */
    async stop(): Promise<void> {
      started = false
      if (timer) clearInterval(timer)
      timer = undefined
      await Promise.allSettled([...inflight.values()])
      await Promise.allSettled([...agents.values()].map((a) => a.agent.close()))
      agents.clear()
    },
  }
}
export type Worker = ReturnType<typeof createWorker>
