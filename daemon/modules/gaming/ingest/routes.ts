import type { FastifyInstance, FastifyRequest } from 'fastify'
import { IngestResult } from '../../../../src/contract/gaming.js'
import { INGEST_LIMITS as L } from '../../../../src/contract/limits.js'
import { AppError } from '../../../http/errors.js'
import { errorRef } from '../../../http/openapi.js'
import { setRateLimitHeaders } from '../../../http/rate-limit.js'
import type { GameRecord } from '../games/index.js'
import type { Admission, IngestService } from './api.js'
import { gunzipCapped, tooLarge } from './service.js'
import { installIngestCors } from './cors.js'

declare module 'fastify' {
  interface FastifyRequest {
    game?: GameRecord
    /** The game's windows the request counted in (a game without HMAC: at `admit`). */
    admission?: Admission
  }
  interface FastifyContextConfig {
    /** Authenticated by a game SDK key (not an API key): listed as such by discovery. */
    sdkKey?: boolean
  }
}

interface RawBody {
  wire: Buffer
  body: Buffer
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name]
  return typeof v === 'string' && v.length > 0 ? v : undefined
}

/**
 * POST /api/v1/gaming/events. Its own authentication (SDK key, X-Game-ID and X-Organization-ID, not API
 * keys: the route declares no `auth`, so the API-key hook only applies the per-IP window), in an
 * encapsulated plugin whose JSON parser keeps the raw bytes for the HMAC and inflates gzip with
 * a hard cap (1 MB applies after decompression too). A request counts in the game's window only
 * once authenticated: after the SDK key, or after the signature when the game requires one
 * (failures count in the per-IP window only).
 */
export function ingestRoutes(deps: { ingest: IngestService }) {
  const { ingest } = deps
  return async function (app: FastifyInstance) {
    app.decorateRequest('game', undefined)
    app.decorateRequest('admission', undefined)
    app.removeAllContentTypeParsers()
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: L.batchBytes },
      (req, wire: Buffer, done) => {
        const encoding = (header(req, 'content-encoding') ?? 'identity').toLowerCase()
        try {
          if (encoding === 'gzip' || encoding === 'x-gzip') done(null, { wire, body: gunzipCapped(wire) })
          else if (encoding === 'identity') done(null, { wire, body: wire })
          else
            throw new AppError(
              'UnsupportedMediaType',
              `Content-Encoding ${encoding} is not supported; use gzip`,
            )
        } catch (err) {
          done(err as Error, undefined)
        }
      },
    )

    installIngestCors(app)

    app.post(
      '/api/v1/gaming/events',
      {
        config: { sdkKey: true },
        schema: {
          tags: ['Gaming ingestion'],
          summary: 'Send a batch of game events (SDK key, not an API key)',
          description: [
            'Headers: `Authorization: Bearer <SDK_KEY>`, `X-Game-ID`, `X-Organization-ID`, `Content-Type: application/json`; optional `Content-Encoding: gzip`.',
            'When the game requires HMAC: `X-Timestamp` (Unix ms) and `X-Signature: sha256=<hex>` = HMAC-SHA256 with the signing secret over `<X-Timestamp>.<body as sent>`.',
            `Limits: ${L.eventsPerBatch} events and ${L.batchBytes} bytes per batch (after decompression; 413), ${L.eventBytes} bytes per event, events at most 24 h old and 5 min ahead, ${L.requestsPerMinute} requests per minute per game and client address and a game-wide ceiling (429; the message says which refused).`,
            '401: missing headers, unknown game or organization, wrong SDK key, bad or missing signature. 403 GamePaused / GameArchived: nothing stored. 400 StaleBatch: batch_timestamp (or X-Timestamp) outside the replay window.',
            '202 once every accepted event is committed: counts and per-event errors. A repeated batch_id within 24 h returns the first response; a repeated event_id counts in duplicates.',
          ].join('\n\n'),
          response: {
            202: IngestResult,
            400: errorRef('Malformed batch (ValidationError) or outside the replay window (StaleBatch)'),
            401: errorRef('Missing headers, unknown game or organization, wrong SDK key, bad signature'),
            403: errorRef('GamePaused or GameArchived: nothing stored'),
            413: errorRef('Over 1,000 events or 1 MB (after decompression)'),
            415: errorRef('Not application/json, or an encoding other than gzip'),
            429: errorRef(
              'Over the rate per game and client address, or the game-wide ceiling (the message and details name which); see Retry-After',
            ),
            503: errorRef(
              'PostgreSQL: concurrent batches of the same players kept getting in the way; nothing stored, send it again after Retry-After',
            ),
          },
        },
        onRequest: async (req, reply) => {
          const game = await ingest.authenticate({
            authorization: header(req, 'authorization'),
            gameId: header(req, 'x-game-id'),
            organizationId: header(req, 'x-organization-id'),
          })
          const counted = await ingest.admit(game, req.ip)
          if (counted) setRateLimitHeaders(reply, counted.state)
          ingest.assertOpen(game)
          const length = Number(req.headers['content-length'])
          if (Number.isFinite(length) && length > L.batchBytes) throw tooLarge()
          req.game = game
          req.admission = counted
        },
      },
      async (req, reply) => {
        const raw = req.body as RawBody | undefined
        if (!raw || !req.game)
          throw new AppError('ValidationError', 'a JSON batch body is required', [
            { field: 'body', message: 'is required' },
          ])
        const counted = await ingest.verify(
          req.game,
          {
            wire: raw.wire,
            signature: header(req, 'x-signature'),
            timestamp: header(req, 'x-timestamp'),
          },
          req.ip,
        )
        if (counted) setRateLimitHeaders(reply, counted.state)
        const admission = counted ?? req.admission
        const r = await ingest.ingest({
          game: req.game,
          body: raw.body,
          ip: req.ip,
          userAgent: header(req, 'user-agent')?.slice(0, 512) ?? null,
          ...(admission ? { admission } : {}),
        })
        return reply
          .code(r.status)
          .type('application/json; charset=utf-8')
          .serializer((p: unknown) => p as string)
          .send(r.text)
      },
    )
  }
}
