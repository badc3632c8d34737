import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { PageQuery } from '../../../../src/contract/common.js'
import {
  CreateRuleBody,
  FraudGameParams,
  FraudRule,
  RuleList,
  RuleParams,
  UpdateRuleBody,
} from '../../../../src/contract/fraud.js'
import { principalOf } from '../../../http/auth.js'
import type { FraudService } from './api.js'
import { base, off } from './routes.js'

const tags = ['Fraud']

/** A game's fraud rules: list, create, update, delete. */
export function fraudRuleRoutes(deps: { fraud: FraudService }) {
  const { fraud } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    const org = (req: Parameters<typeof principalOf>[0]) => principalOf(req).organizationId

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
  }
}
