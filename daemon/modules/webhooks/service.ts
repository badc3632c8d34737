import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../clock.js'
import { DAY_MS, iso } from '../../clock.js'
import type { EventEnvelope, EventType } from '../../events.js'
import { newId, randomToken, type SecretBox } from '../../crypto.js'
import { AppError, collectProblems, notFound } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { PageOf, PageQuery } from '../../../src/contract/common.js'
import { WEBHOOK_LIMITS, type WebhookEvent, type WebhookStatus } from '../../../src/contract/limits.js'
import type {
  BulkWebhookBody,
  CreateWebhookBody,
  DeliveriesPage,
  Delivery,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookBody,
  ValidateUrlResult,
  Webhook,
  WebhookAnalytics,
  WebhookTemplate,
  WebhookWithSecret,
} from '../../../src/contract/webhooks.js'
import { deliveryBody } from './chat.js'
import { sampleData, TEMPLATES } from './catalog.js'
import { createDispatcher } from './dispatcher.js'
import { systemResolver, type GuardPolicy, type Resolver } from './ssrf.js'
import { healthBand, present, presentDelivery } from './present.js'
import type { WebhookRecord, WebhookStore } from './store.js'
import { checkWebhookUrl } from './url-rules.js'
import { checkChatFormat, checkHeaders, checkUrl } from './webhook-input.js'
import { createWorker } from './worker.js'
import type { WebhookService } from './api.js'

export { healthBand } from './present.js'

export interface WebhookServiceDeps {
  store: WebhookStore
  clock: Clock
  secrets: SecretBox
  orgName(organizationId: string): Promise<string>
  publicUrl: string
  /** What deliveries may reach besides public addresses (LINKD_WEBHOOK_ALLOW_*). */
  guard: GuardPolicy
  /**
   * Attempts in flight: overall, per organization, per webhook (defaults: SENDER_DEFAULTS); how
   * often to look for what other processes left due (several processes on PostgreSQL).
   */
  sender?: { concurrency?: number; perOrganization?: number; perWebhook?: number; sweepMs?: number }
  log: FastifyBaseLogger
  /** DNS resolution of delivery targets (tests pass their own). */
  resolve?: Resolver
  /** An organization's subscriptions changed here: tells the other linkd processes (db/notify.ts). */
  announce?(organizationId: string): void
}

const newSecret = () => `whsec_${randomToken()}`

export function createWebhookService(deps: WebhookServiceDeps): WebhookService {
  const { store } = deps
  const now = () => deps.clock.now()
  const worker = createWorker({
    store,
    clock: deps.clock,
    secrets: deps.secrets,
    resolve: deps.resolve ?? systemResolver,
    guard: deps.guard,
    ...deps.sender,
    log: deps.log,
    onSuspended: (organizationId) => subscriptionsChanged(organizationId),
  })
  const dispatcher = createDispatcher({
    store,
    clock: deps.clock,
    orgName: deps.orgName,
    onWritten: () => worker.wake(),
    log: deps.log,
  })
  let refresher: NodeJS.Timeout | undefined
  function subscriptionsChanged(organizationId: string): void {
    dispatcher.invalidate(organizationId)
    deps.announce?.(organizationId)
  }

  async function load(organizationId: string, id: string): Promise<WebhookRecord> {
    const w = await store.byId(organizationId, id)
    if (!w) throw notFound(`webhook ${id}`)
    return w
  }

  async function setStatus(organizationId: string, ids: string[], status: WebhookStatus): Promise<number> {
    const changed = await store.setStatus(organizationId, [...new Set(ids)], status, now())
    subscriptionsChanged(organizationId)
    return changed.length
  }

  async function deliveryOf(organizationId: string, webhookId: string, deliveryId: string) {
    const d = await store.delivery(webhookId, deliveryId)
    if (!d || d.organizationId !== organizationId) throw notFound(`delivery ${deliveryId}`)
    return d
  }

  return {
    worker,
    /** Another linkd process changed an organization's webhooks ('*': any organization's). */
    forgetSubscriptions: (organizationId: string) => dispatcher.invalidate(organizationId),
    /** Every event received so far written to the outbox (tests). */
    settle: () => dispatcher.settle(),

    async create(organizationId: string, body: CreateWebhookBody): Promise<WebhookWithSecret> {
      const template = body.template ? TEMPLATES.find((t) => t.id === body.template) : undefined
      const events = body.events ?? (template?.events as WebhookEvent[] | undefined)
      const problems = collectProblems()
      if (!events) problems.add('events', 'is required: give at least one event type, or a template')
      const url = problems.check(() => checkUrl(body.url, deps.guard))
      if (url) problems.check(() => checkChatFormat(url, body.format ?? 'json'))
      const headers = problems.check(() => checkHeaders(body.headers ?? {}))
      problems.done()
      const t = now()
      const secret = newSecret()
      const w: WebhookRecord = {
        id: newId('wh'),
        organizationId,
        name: body.name.trim(),
        description: body.description?.trim() || null,
        url: url!,
        events: [...new Set(events!)],
        retryPolicy: body.retryPolicy ?? template?.retryPolicy ?? 'exponential',
        maxRetries: body.maxRetries ?? template?.maxRetries ?? WEBHOOK_LIMITS.maxRetriesDefault,
        timeoutSeconds: body.timeoutSeconds ?? template?.timeoutSeconds ?? WEBHOOK_LIMITS.timeoutDefault,
        headers: headers!,
        format: body.format ?? 'json',
        secretSealed: deps.secrets.encrypt(secret),
        status: 'active',
        consecutiveFailures: 0,
        failedAttempts: 0,
        createdAt: t,
        updatedAt: t,
      }
      await store.insert(w)
      subscriptionsChanged(organizationId)
      return { ...present(w), secret }
    },

    async list(organizationId: string, q: ListWebhooksQuery): Promise<PageOf<Webhook>> {
      const p = pageParams(q)
      const { rows, total } = await store.list(organizationId, {
        status: q.status,
        event: q.event,
        limit: p.perPage,
        offset: p.offset,
      })
      return pageOf(rows.map(present), total, p)
    },

    async get(organizationId: string, id: string): Promise<Webhook> {
      return present(await load(organizationId, id))
    },

    async update(organizationId: string, id: string, body: UpdateWebhookBody): Promise<Webhook> {
      const w = await load(organizationId, id)
      const problems = collectProblems()
      const url = body.url === undefined ? undefined : problems.check(() => checkUrl(body.url!, deps.guard))
      if ((body.url !== undefined && url !== undefined) || body.format !== undefined)
        problems.check(() => checkChatFormat(url ?? w.url, body.format ?? w.format))
      const headers =
        body.headers === undefined ? undefined : problems.check(() => checkHeaders(body.headers!))
      problems.done()
      await store.update(w.id, {
        ...(body.name !== undefined && { name: body.name.trim() }),
        ...(body.description !== undefined && { description: body.description?.trim() || null }),
        ...(url !== undefined && { url }),
        ...(body.events !== undefined && { events: [...new Set(body.events)] }),
        ...(body.retryPolicy !== undefined && { retryPolicy: body.retryPolicy }),
        ...(body.maxRetries !== undefined && { maxRetries: body.maxRetries }),
        ...(body.timeoutSeconds !== undefined && { timeoutSeconds: body.timeoutSeconds }),
        ...(headers !== undefined && { headers }),
        ...(body.format !== undefined && { format: body.format }),
        updatedAt: now(),
      })
      subscriptionsChanged(organizationId)
      return present(await load(organizationId, id))
    },

    async delete(organizationId: string, id: string): Promise<void> {
      if ((await store.delete(organizationId, [id])).length === 0) throw notFound(`webhook ${id}`)
      subscriptionsChanged(organizationId)
    },

    async enable(organizationId: string, id: string): Promise<Webhook> {
      await load(organizationId, id)
      await setStatus(organizationId, [id], 'active')
      worker.wake() // deliveries left pending while it was off
      return present(await load(organizationId, id))
    },

    async disable(organizationId: string, id: string): Promise<Webhook> {
      await load(organizationId, id)
      await setStatus(organizationId, [id], 'disabled')
      return present(await load(organizationId, id))
    },

    async suspend(organizationId: string, id: string): Promise<Webhook> {
      const w = await load(organizationId, id)
      if (w.status === 'disabled')
        throw new AppError(
          'Unprocessable',
          `webhook ${id} is disabled; only an active webhook can be suspended`,
        )
      await setStatus(organizationId, [id], 'suspended')
      return present(await load(organizationId, id))
    },

    async rotateSecret(organizationId: string, id: string): Promise<WebhookWithSecret> {
      const w = await load(organizationId, id)
      const secret = newSecret()
      await store.update(w.id, { secretSealed: deps.secrets.encrypt(secret), updatedAt: now() })
      return { ...present(await load(organizationId, id)), secret }
    },

    async bulk(organizationId: string, body: BulkWebhookBody): Promise<{ updated: number }> {
      if (body.action === 'delete') {
        const deleted = await store.delete(organizationId, [...new Set(body.ids)])
        subscriptionsChanged(organizationId)
        return { updated: deleted.length }
      }
      const updated = await setStatus(
        organizationId,
        body.ids,
        body.action === 'enable' ? 'active' : 'disabled',
      )
      if (body.action === 'enable') worker.wake()
      return { updated }
    },

    /** Sends a sample event of the chosen type now (whatever the webhook's status) and returns the delivery. */
    async test(organizationId: string, id: string, event: WebhookEvent = 'link.created'): Promise<Delivery> {
      const w = await load(organizationId, id)
      const t = now()
      const eventId = newId('evt')
      const deliveryId = newId('dlv')
      await store.insertDeliveries([
        {
          id: deliveryId,
          webhookId: w.id,
          organizationId,
          eventId,
          event,
          payload: deliveryBody(w.format, {
            id: eventId,
            event,
            timestamp: iso(t),
            organizationId,
            organization: { id: organizationId, name: await deps.orgName(organizationId) },
            data: sampleData(event, deps.publicUrl, t),
          }),
          isTest: true,
          status: 'pending',
          maxAttempts: 1,
          nextAttemptAt: t,
          createdAt: t,
        },
      ])
      await worker.sendNow(deliveryId)
      return presentDelivery(await deliveryOf(organizationId, w.id, deliveryId))
    },

    async deliveries(organizationId: string, id: string, q: ListDeliveriesQuery): Promise<DeliveriesPage> {
      const w = await load(organizationId, id)
      const p = pageParams(q)
      const [{ rows, total }, stats] = await Promise.all([
        store.deliveries(w.id, { status: q.status, event: q.event, limit: p.perPage, offset: p.offset }),
        store.stats(w.id),
      ])
      const totals = { total: 0, success: 0, failed: 0, pending: 0 }
      for (const s of stats) {
        totals.total += s.count
        totals[s.status] += s.count
      }
      return { ...pageOf(rows.map(presentDelivery), total, p), totals }
    },

    /** A failed delivery gets one more attempt, at once; returns it after that attempt. */
    async retry(organizationId: string, id: string, deliveryId: string): Promise<Delivery> {
      const w = await load(organizationId, id)
      const d = await deliveryOf(organizationId, w.id, deliveryId)
      if (d.status !== 'failed')
        throw new AppError(
          'Unprocessable',
          `delivery ${deliveryId} is ${d.status}; only a failed delivery can be retried`,
        )
      if (w.status !== 'active' && !d.isTest)
        throw new AppError(
          'Unprocessable',
          `webhook ${id} is ${w.status}; enable it before retrying deliveries`,
        )
      await store.requeue(d.id, d.attempts + 1, now())
      await worker.sendNow(d.id)
      return presentDelivery(await deliveryOf(organizationId, w.id, deliveryId))
    },

    /**
     * Health: score = percent of finished (success or failed) deliveries that succeeded, null
     * before any finished; bands Excellent >= 80, Good >= 60, Fair >= 40, Poor below.
     */
    async analytics(organizationId: string, id: string): Promise<WebhookAnalytics> {
      const w = await load(organizationId, id)
      const stats = await store.stats(w.id)
      const count = { success: 0, failed: 0, pending: 0 }
      const byEvent = new Map<string, number>()
      let durationSum = 0
      let timed = 0
      for (const s of stats) {
        count[s.status] += s.count
        byEvent.set(s.event, (byEvent.get(s.event) ?? 0) + s.count)
        durationSum += s.durationSum
        timed += s.timed
      }
      const total = count.success + count.failed + count.pending
      const finished = count.success + count.failed
      const rate = finished ? Math.round((count.success / finished) * 10_000) / 100 : null
      const score = rate === null ? null : Math.round(rate)
      return {
        webhookId: w.id,
        status: w.status,
        healthScore: score,
        band: score === null ? null : healthBand(score),
        totalDeliveries: total,
        ...count,
        successRate: rate,
        averageResponseMs: timed ? Math.round((durationSum / timed) * 10) / 10 : null,
        consecutiveFailures: w.consecutiveFailures,
        events: [...byEvent]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .map(([event, n]) => ({ event, count: n, percent: Math.round((n / total) * 10_000) / 100 })),
      }
    },

    /** validate-url: the URL rules under this server's settings. */
    totals: () => deps.store.totals(),
    validateUrl(url: string): ValidateUrlResult {
      return checkWebhookUrl(url, deps.guard)
    },

    templates(q: PageQuery): PageOf<WebhookTemplate> {
      const p = pageParams(q)
      return pageOf(TEMPLATES.slice(p.offset, p.offset + p.perPage), TEMPLATES.length, p)
    },

    /** Drops finished deliveries older than the retention (the prune-webhook-deliveries job). */
    async pruneDeliveries(retentionDays: number = WEBHOOK_LIMITS.deliveryRetentionDays): Promise<number> {
      return store.prune(now() - retentionDays * DAY_MS)
    },

    /** Writes the deliveries of an event to the outbox (the webhooks module subscribes it to the bus). */
    dispatch(event: EventEnvelope): Promise<void> {
      return dispatcher.listener(event)
    },
    /** Whether some active webhook subscribes to this event type (clicks are announced only then). */
    wants(type: EventType): boolean {
      return dispatcher.wants(type)
    },

    start(): void {
      worker.start()
      // Subscription changes made by other linkd processes on the same database.
      refresher ??= setInterval(() => {
        dispatcher
          .refreshWanted()
          .catch((err: unknown) => deps.log.error({ err }, 'reading webhook subscriptions failed'))
      }, 10_000).unref()
    },
    async stop(): Promise<void> {
      if (refresher) clearInterval(refresher)
      refresher = undefined
      await dispatcher.settle()
      await worker.stop()
    },
  }
}
