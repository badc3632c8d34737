import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Page } from '../../../../src/contract/common.js'
import {
  CreateGameBody,
  Game,
  GameParams,
  GameWithSecrets,
  ListGamesQuery,
  UpdateGameBody,
} from '../../../../src/contract/games.js'
import { principalOf } from '../../../http/auth.js'
import { errorRef } from '../../../http/openapi.js'
import type { GameService } from './api.js'

const tags = ['Games']

export function gameRoutes(deps: { games: GameService }) {
  const { games } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/v1/admin/games',
      {
        config: { auth: 'games:write' },
        schema: {
          tags,
          summary: 'Register a game (the SDK key and signing secret are in this response only)',
          description:
            'id (slug) is generated from the name when blank (suffixed -2, -3… when taken) and cannot change; an explicit slug that is taken is 409. Defaults: status active, modules {analytics: true, fraud: false, skan: false}, rawRetentionDays 30, compactedRetentionMonths 12, hmacRequired false, replayWindowSeconds 300, attributionWindowDays 7.',
          body: CreateGameBody,
          response: { 201: GameWithSecrets, 409: errorRef('A game with this id (slug) already exists') },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await games.create(principalOf(req).organizationId, req.body)),
    )

    app.get(
      '/api/v1/admin/games',
      {
        config: { auth: 'games:read' },
        schema: {
          tags,
          summary: 'List games (newest first)',
          querystring: ListGamesQuery,
          response: { 200: Page(Game) },
        },
      },
      async (req) => games.list(principalOf(req).organizationId, req.query),
    )

    app.get(
      '/api/v1/admin/games/:gameId',
      {
        config: { auth: 'games:read' },
        schema: { tags, summary: 'Get a game', params: GameParams, response: { 200: Game } },
      },
      async (req) => games.get(principalOf(req).organizationId, req.params.gameId),
    )

    app.patch(
      '/api/v1/admin/games/:gameId',
      {
        config: { auth: 'games:write' },
        schema: {
          tags,
          summary: 'Update a game',
          description:
            'id (slug) and platform are read-only (400 when a different value is sent). Paused and archived games refuse ingestion with 403. Extending a retention does not bring back data the shorter one already expired.',
          params: GameParams,
          body: UpdateGameBody,
          response: { 200: Game },
        },
      },
      async (req) => games.update(principalOf(req).organizationId, req.params.gameId, req.body),
    )

    app.post(
      '/api/v1/admin/games/:gameId/sdk-key',
      {
        config: { auth: 'games:write' },
        schema: {
          tags,
          summary: 'Regenerate the SDK key and signing secret (the old key is refused at once)',
          params: GameParams,
          response: { 200: GameWithSecrets },
        },
      },
      async (req) => games.regenerateKey(principalOf(req).organizationId, req.params.gameId),
    )
  }
}
