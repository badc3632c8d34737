import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { Page, PageQuery } from '../../../../src/contract/common.js'
import {
  BlocklistEntry,
  BlocklistParams,
  CreateBlocklistBody,
  CreateRuleBody,
  DashboardQuery,
  FraudDashboard,
  FraudEvent,
  FraudEventParams,
  FraudEventsQuery,
  FraudGameParams,
  FraudRule,
  RuleList,
  ReviewBody,
  RuleParams,
  UpdateRuleBody,
} from '../../../../src/contract/fraud.js'
import { principalOf } from '../../../http/auth.js'
import { errorRef } from '../../../http/openapi.js'
import type { FraudEventsService, FraudService } from './api.js'

const tags = ['Fraud']
const base = '/api/v1/admin/fraud/games/:gameId'
const off = errorRef('Fraud detection is off for this game (modules.fraud)')

export function fraudRoutes(deps: { fraud: FraudService; fraudEvents: FraudEventsService }) {
  const { fraud, fraudEvents } = deps
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

    app.get(
      `${base}/rules`,
      {
        config: { auth: 'fraud:read' },
        schema: {
          tags,
          summary: "List a game's fraud rules (priority high first, then creation order)",
          params: FraudGameParams,
          querystring: PageQuery,
          response: { 200: RuleList, 409: off },
        },
      },
      async (req) => fraud.listRules(org(req), req.params.gameId, req.query),
    )

    app.post(
      `${base}/rules`,
      {
        config: { auth: 'fraud:write' },
        schema: {
          tags,
          summary: 'Create a fraud rule',
          description:
            'field: event_type, player_id, session_id, platform, country, ip, user_agent, device_fingerprint, data.<key>[.<key>…], device.<model|manufacturer|hardware|product|fingerprint>, score.<threat type>, risk. gt/lt/gte/lte need a number, in a non-empty array, the others a single value of the field’s type (400 naming the field otherwise). priority 1-1000 (default 100, higher first), cooldownMinutes 0-1440 (default 0).',
          params: FraudGameParams,
          body: CreateRuleBody,
          response: { 201: FraudRule, 409: off },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await fraud.createRule(org(req), req.params.gameId, req.body)),
    )

    app.patch(
      `${base}/rules/:ruleId`,
      {
        config: { auth: 'fraud:write' },
        schema: {
          tags,
          summary: 'Update a fraud rule (templates included); the result is validated as a whole',
          params: RuleParams,
          body: UpdateRuleBody,
          response: { 200: FraudRule, 409: off },
        },
      },
      async (req) => fraud.updateRule(org(req), req.params.gameId, req.params.ruleId, req.body),
    )

    app.delete(
      `${base}/rules/:ruleId`,
      {
        config: { auth: 'fraud:write' },
        schema: {
          tags,
          summary: 'Delete a fraud rule',
          params: RuleParams,
          response: { 204: Type.Null({ description: 'Deleted' }), 409: off },
        },
      },
      async (req, reply) => {
        await fraud.deleteRule(org(req), req.params.gameId, req.params.ruleId)
        return reply.code(204).send(null)
      },
    )

    app.get(
      `${base}/blocklist`,
      {
        config: { auth: 'fraud:read' },
        schema: {
          tags,
          summary: "List a game's blocklist (newest first)",
          params: FraudGameParams,
          querystring: PageQuery,
          response: { 200: Page(BlocklistEntry), 409: off },
        },
      },
      async (req) => fraud.listBlocklist(org(req), req.params.gameId, req.query),
    )

    app.post(
      `${base}/blocklist`,
      {
        config: { auth: 'fraud:write' },
        schema: {
          tags,
          summary: 'Block an IP address or a device fingerprint for 30 days',
          description:
            'IPv4 and IPv6 are normalized (an IPv4-mapped IPv6 address is its IPv4 address). Every later event of the game from that IP or device is rejected (per-event error Blocked in the 202 body) before detection. 409 when already listed.',
          params: FraudGameParams,
          body: CreateBlocklistBody,
          response: { 201: BlocklistEntry, 409: errorRef('Already listed, or fraud detection is off') },
        },
      },
      async (req, reply) => reply.code(201).send(await fraud.addBlock(org(req), req.params.gameId, req.body)),
    )

    app.delete(
      `${base}/blocklist/:entryId`,
      {
        config: { auth: 'fraud:write' },
        schema: {
          tags,
          summary: 'Remove a blocklist entry',
          params: BlocklistParams,
          response: { 204: Type.Null({ description: 'Removed' }), 409: off },
        },
      },
      async (req, reply) => {
        await fraud.removeBlock(org(req), req.params.gameId, req.params.entryId)
        return reply.code(204).send(null)
      },
    )
  }
}
