/**
 * The outbox writer: on every domain event (EventBus.onAny, right after the cause's commit), one
 * delivery row per active webhook of the organization subscribed to the event type, written
 * before any attempt so that a restart resumes it. New event types need no change here.
 *
 * The subscription list of an organization is cached (10 s, dropped at once on any local change
 * to its webhooks), so the high-volume link.clicked costs no query when nobody listens. Rows
 * written in the same tick (a click flush announces hundreds) go in one insert.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../clock.js'
import { iso } from '../../clock.js'
import { newId } from '../../crypto.js'
import type { EventEnvelope } from '../../events.js'
import type { WebhookFormat } from '../../../src/contract/limits.js'
import { deliveryBody, type Envelope } from './chat.js'
import type { NewDelivery, WebhookStore } from './store.js'

interface Subscriptions {
  organization: { id: string; name: string }
  hooks: Array<{ id: string; events: ReadonlySet<string>; maxAttempts: number; format: WebhookFormat }>
}

const CACHE_MS = 10_000

/** Attempts a delivery gets: the first try plus the retries (none with the `none` policy). */
export function attemptsFor(w: { retryPolicy: string; maxRetries: number }): number {
  return 1 + (w.retryPolicy === 'none' ? 0 : w.maxRetries)
}

export function createDispatcher(deps: {
  store: WebhookStore
  clock: Clock
  orgName(id: string): Promise<string>
  /** Called after rows were written (wakes the sender). */
  onWritten(): void
  log: FastifyBaseLogger
}) {
  const cache = new Map<string, { until: number; subs: Promise<Subscriptions> }>()
  /**
   * Event types some active webhook (of any organization) subscribes to; undefined while unknown,
   * which means every type. Clicks are announced only when this says someone wants them.
   */
  let wanted: Set<string> | undefined
  let generation = 0
  async function refreshWanted(): Promise<void> {
    const g = ++generation
    const types = await deps.store.subscribedTypes()
    if (g === generation) wanted = new Set(types)
  }
  const refresh = () => {
    refreshWanted().catch((err: unknown) => deps.log.error({ err }, 'reading webhook subscriptions failed'))
  }
  refresh()
  let queue: NewDelivery[] = []
  let scheduled = false
  const inflight = new Set<Promise<unknown>>()
  let writing: Promise<void> = Promise.resolve()

  function subscriptions(organizationId: string): Promise<Subscriptions> {
    const hit = cache.get(organizationId)
    if (hit && hit.until > performance.now()) return hit.subs
    const subs = (async () => {
      const [name, hooks] = await Promise.all([
        deps.orgName(organizationId),
        deps.store.active(organizationId),
      ])
      return {
        organization: { id: organizationId, name },
        hooks: hooks.map((h) => ({
          id: h.id,
          events: new Set<string>(h.events),
          maxAttempts: attemptsFor(h),
          format: h.format,
        })),
      }
    })()
    cache.set(organizationId, { until: performance.now() + CACHE_MS, subs })
    subs.catch(() => cache.delete(organizationId))
    return subs
  }

  function flush(): Promise<void> {
    scheduled = false
    writing = writing.then(async () => {
      if (queue.length === 0) return
      const rows = queue
      queue = []
      try {
        await deps.store.insertDeliveries(rows)
        deps.onWritten()
      } catch (err) {
        deps.log.error({ err, deliveries: rows.length }, 'writing webhook deliveries failed')
      }
    })
    return writing
  }

  async function handle(event: EventEnvelope): Promise<void> {
    const subs = await subscriptions(event.organizationId)
    const hooks = subs.hooks.filter((h) => h.events.has(event.type))
    if (hooks.length === 0) return
    const eventId = newId('evt')
    const envelope: Envelope = {
      id: eventId,
      event: event.type,
      timestamp: iso(event.at),
      organizationId: event.organizationId,
      organization: subs.organization,
      data: event.data as Record<string, unknown>,
    }
    // One body per format (json endpoints share theirs).
    const bodies = new Map<WebhookFormat, string>()
    const payloadOf = (format: WebhookFormat) => {
      let body = bodies.get(format)
      if (body === undefined) bodies.set(format, (body = deliveryBody(format, envelope)))
      return body
    }
    const now = deps.clock.now()
    for (const h of hooks)
      queue.push({
        id: newId('dlv'),
        webhookId: h.id,
        organizationId: event.organizationId,
        eventId,
        event: event.type,
        payload: payloadOf(h.format),
        isTest: false,
        status: 'pending',
        maxAttempts: h.maxAttempts,
        nextAttemptAt: now,
        createdAt: now,
      })
    if (!scheduled) {
      scheduled = true
      setImmediate(() => void flush())
    }
  }

  return {
    /** The EventBus listener. */
    listener(event: EventEnvelope): Promise<void> {
      const p = handle(event)
      inflight.add(p)
      void p.finally(() => inflight.delete(p)).catch(() => {})
      return p
    },
    /** Whether any active webhook may want events of this type (EventBus.onAny's filter). */
    wants(type: string): boolean {
      return wanted === undefined || wanted.has(type)
    },
    /** Drops the cached subscriptions of an organization (its webhooks changed; '*': every one). */
    invalidate(organizationId: string): void {
      if (organizationId === '*') cache.clear()
      else cache.delete(organizationId)
      // Everything is wanted until the new subscription list is read: no event is missed.
      wanted = undefined
      refresh()
    },
    /** Re-reads which event types are wanted (other linkd processes' changes). */
    refreshWanted,
    /** Waits until every event received so far is written (tests, shutdown). */
    async settle(): Promise<void> {
      await Promise.allSettled([...inflight])
      await flush()
    },
  }
}
export type Dispatcher = ReturnType<typeof createDispatcher>
