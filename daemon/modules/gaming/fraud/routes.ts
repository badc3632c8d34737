import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Page } from '../../../../src/contract/common.js'
import {
  DashboardQuery,
  FraudDashboard,
  FraudEvent,
  FraudEventParams,
  FraudEventsQuery,
  FraudGameParams,
  ReviewBody,
} from '../../../../src/contract/fraud.js'
import { principalOf } from '../../../http/auth.js'
import { errorRef } from '../../../http/openapi.js'
import type { FraudEventsService } from './api.js'

const tags = ['Fraud']
export const base = '/api/v1/admin/fraud/games/:gameId'
export const off = errorRef('Fraud detection is off for this game (modules.fraud)')

/** A game's fraud dashboard and its fraud events (list, get, review). */
export function fraudRoutes(deps: { fraudEvents: FraudEventsService }) {
  const { fraudEvents } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    const org = (req: Parameters<typeof principalOf>[0]) => principalOf(req).organizationId

    app.get(
      `${base}/dashboard`,
      {
        config: { auth: 'fraud:read' },
        schema: {
          tags,
          summary: 'Fraud dashboard of a date range',
          description:
            'startDate and endDate: UTC days, both included; default the last 30 days up to today; at most 366 days. eventsAnalyzed, blocked, flagged, logged: the pipeline counters of the range; threatsDetected: fraud events of the range; fraudRate = threatsDetected / eventsAnalyzed (0 when none analyzed); falsePositiveRate: the share of the reviewed flagged (detected) events marked legitimate (null when none reviewed); blockedIps/blockedDevices: live blocklist entries now; avgDetectionLatencyUs: pipeline time per analyzed event (null when none); byThreatType: fraud events per threat type.',
          params: FraudGameParams,
          querystring: DashboardQuery,
          response: { 200: FraudDashboard, 409: off },
        },
      },
      async (req) => fraudEvents.dashboard(org(req), req.params.gameId, req.query),
    )

    app.get(
      `${base}/events`,
      {
        config: { auth: 'fraud:read' },
        schema: {
          tags,
          summary: "List a game's fraud events (newest first)",
          description:
            'Blocked and flagged (detected) events, newest first by receivedAt then id. Filters threatType, status, playerId, startDate/endDate (UTC days, both included; no bound when absent). limit (alias perPage): 10, 20, 50, 100 or 200.',
          params: FraudGameParams,
          querystring: FraudEventsQuery,
          response: { 200: Page(FraudEvent), 409: off },
        },
      },
      async (req) => fraudEvents.list(org(req), req.params.gameId, req.query),
    )

    app.patch(
      `${base}/events/:eventId`,
      {
        config: { auth: 'fraud:write' },
        schema: {
          tags,
          summary: 'Review a fraud event: legitimate (a false positive), fraud, or pending again',
          params: FraudEventParams,
          body: ReviewBody,
          response: { 200: FraudEvent, 409: off },
        },
      },
      async (req) => fraudEvents.review(org(req), req.params.gameId, req.params.eventId, req.body.review),
    )
  }
}
