/**
 * The read side of fraud detection: the fraud events the pipeline stored (list, review) and the
 * dashboard over a date range. The pipeline writes through events-store `record()`; this service
 * only reads, reviews, and deletes (GDPR purge, raw retention).
 */
import type { Clock } from '../../../clock.js'
import { DAY_MS, dateOfDay, iso } from '../../../clock.js'
import { round } from '../../../../src/contract/numbers.js'
import { notFound } from '../../../http/errors.js'
import { pageOf } from '../../../http/pagination.js'
import type { PageOf } from '../../../../src/contract/common.js'
import {
  THREAT_TYPES,
  type DashboardQuery,
  type FraudDashboard,
  type FraudEvent,
  type FraudEventsQuery,
  type ThreatType,
} from '../../../../src/contract/fraud.js'
import { DEFAULT_PAGE_SIZE } from '../../../../src/contract/limits.js'
import type { GameRecord } from '../games/index.js'
import { dayRange, optionalDays } from '../analytics/index.js'
import type { FraudEventRecord, FraudEventsStore } from './events-store.js'
import type { FraudStore } from './store.js'
import type { FraudEventsService } from './api.js'

export interface FraudEventsServiceDeps {
  events: Pick<FraudEventsStore, 'page' | 'get' | 'setReview' | 'countsBetween' | 'dailyTotals'>
  blocks: Pick<FraudStore, 'liveBlockCounts'>
  /** The game of a fraud route (the fraud service's: 404 in another organization, 409 when off). */
  fraudGame(organizationId: string, slug: string): Promise<GameRecord>
  clock: Clock
}

export function presentFraudEvent(e: FraudEventRecord): FraudEvent {
  return {
    id: e.id,
    receivedAt: iso(e.receivedAt),
    playerId: e.playerId,
    eventId: e.eventId,
    eventType: e.eventType,
    threatType: e.threatType,
    riskScore: e.riskScore,
    status: e.status,
    triggeredRules: e.triggeredRules,
    triggeredRuleCount: e.triggeredCount,
    reasons: e.reasons,
    ip: e.ip,
    deviceFingerprint: e.deviceFingerprint,
    review: e.review,
    reviewedAt: e.reviewedAt === null ? null : iso(e.reviewedAt),
  }
}

const share = (part: number, whole: number) => round(part / whole, 6)

/** The Unix-ms bounds [from, to) of the list's startDate/endDate (each optional, whole UTC days). */
function listBounds(q: FraudEventsQuery): { from?: number; to?: number } {
  const { start, end } = optionalDays(q.startDate, q.endDate, 'startDate', 'endDate')
  return {
    ...(start !== undefined ? { from: start * DAY_MS } : {}),
    ...(end !== undefined ? { to: (end + 1) * DAY_MS } : {}),
  }
}

export function createFraudEventsService(deps: FraudEventsServiceDeps): FraudEventsService {
  const { events } = deps
  return {
    /** A game's fraud events, newest first, filtered; pages of 10-200. */
    async list(organizationId: string, slug: string, q: FraudEventsQuery): Promise<PageOf<FraudEvent>> {
      const game = await deps.fraudGame(organizationId, slug)
      const page = q.page ?? 1
      const perPage = q.limit ?? q.perPage ?? DEFAULT_PAGE_SIZE
      const p = { page, perPage, offset: (page - 1) * perPage }
      const { rows, total } = await events.page(
        game.id,
        {
          ...(q.threatType !== undefined ? { threatType: q.threatType } : {}),
          ...(q.status !== undefined ? { status: q.status } : {}),
          ...(q.playerId !== undefined ? { playerId: q.playerId } : {}),
          ...listBounds(q),
        },
        { limit: perPage, offset: p.offset },
      )
      return pageOf(rows.map(presentFraudEvent), total, p)
    },

    /** Marks a fraud event legitimate or fraud (pending clears the review). */
    async review(
      organizationId: string,
      slug: string,
      eventId: string,
      review: FraudEvent['review'],
    ): Promise<FraudEvent> {
      const game = await deps.fraudGame(organizationId, slug)
      const at = review === 'pending' ? null : deps.clock.now()
      if (!(await events.setReview(game.id, eventId, review, at))) throw notFound(`fraud event ${eventId}`)
      const e = await events.get(game.id, eventId)
      if (!e) throw notFound(`fraud event ${eventId}`)
      return presentFraudEvent(e)
    },

    /** The dashboard of a UTC day range (the analytics range rules); definitions in docs/reference/fraud.md. */
    async dashboard(organizationId: string, slug: string, q: DashboardQuery): Promise<FraudDashboard> {
      const game = await deps.fraudGame(organizationId, slug)
      const now = deps.clock.now()
      const { start, end } = dayRange(q, now)
      const [daily, counts, blocked] = await Promise.all([
        events.dailyTotals(game.id, start, end),
        events.countsBetween(game.id, start * DAY_MS, (end + 1) * DAY_MS),
        deps.blocks.liveBlockCounts(game.id, now),
      ])
      const byThreatType = Object.fromEntries(THREAT_TYPES.map((t) => [t, 0])) as Record<ThreatType, number>
      let threats = 0
      let reviewedFlags = 0
      let legitimateFlags = 0
      for (const c of counts) {
        // A Log rule's record is not a threat: only in `logged` (the counter).
        if (c.status === 'logged') continue
        threats += c.count
        if (c.threatType !== null) byThreatType[c.threatType] += c.count
        if (c.status === 'detected' && c.review !== 'pending') {
          reviewedFlags += c.count
          if (c.review === 'legitimate') legitimateFlags += c.count
        }
      }
      return {
        range: { startDate: dateOfDay(start), endDate: dateOfDay(end) },
        eventsAnalyzed: daily.analyzed,
        threatsDetected: threats,
        blocked: daily.blocked,
        flagged: daily.flagged,
        logged: daily.logged,
        fraudRate: daily.analyzed ? share(threats, daily.analyzed) : 0,
        falsePositiveRate: reviewedFlags ? share(legitimateFlags, reviewedFlags) : null,
        blockedIps: blocked.ip,
        blockedDevices: blocked.device,
        avgDetectionLatencyUs: daily.analyzed
          ? Math.round((daily.latencyNs / daily.analyzed) * 1000) / 1e6
          : null,
        byThreatType,
      }
    },
  }
}
