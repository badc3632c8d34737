import { createHmac } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import type { Clock } from '../../clock.js'
import { safeEqual } from '../../crypto.js'
import { AppError } from '../../http/errors.js'
import { evaluate, type LimitState, type RateLimitStore } from '../../http/rate-limit.js'
import { INGEST_LIMITS as L } from '../../../src/contract/limits.js'
import type { IngestError, IngestResult } from '../../../src/contract/gaming.js'
import type { GameRecord, GameService } from '../games/service.js'
import { createPipeline, type Judged, type Pipeline } from './pipeline.js'
import { checkEvent, parseBatch } from './validate.js'
import { createEventWriter } from './store.js'
import { createGamingMaintenance } from './maintenance.js'
import { compactedCutoffDay } from '../games/service.js'

export interface IngestRequest {
  /** A game authenticated by `admit` and `verify`. */
  game: GameRecord
  /** The decompressed body. */
  body: Buffer
  ip: string
  userAgent: string | null
}

/** What the signature of a game requiring HMAC covers. */
export interface SignedRequest {
  /** The body as sent (gzip bytes when compressed). */
  wire: Buffer
  signature: string | undefined
  timestamp: string | undefined
}

export interface IngestDeps {
  sqlite: SQLite.Database
  db: Kysely<Database>
  clock: Clock
  games: GameService
  limiter: RateLimitStore
  /** Requests per minute per game (spec 8: 1,000). */
  requestsPerMinute: number
  countryOf(ip: string): string | null
  pipeline?: Pipeline
}

const unauthorized = (message: string) => new AppError('Unauthorized', message)

/** Decompresses a gzip body, refusing (413) anything that inflates beyond the batch limit. */
export function gunzipCapped(wire: Buffer, limit = L.batchBytes): Buffer {
  try {
    return gunzipSync(wire, { maxOutputLength: limit })
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
      throw tooLarge(limit)
    throw new AppError('ValidationError', 'the body is not valid gzip data', [
      { field: 'body', message: 'Content-Encoding is gzip but the body is not valid gzip data' },
    ])
  }
}

export const tooLarge = (limit = L.batchBytes) =>
  new AppError('PayloadTooLarge', `a batch body is at most ${limit} bytes (after decompression)`)

/**
 * Gaming ingestion: SDK authentication, HMAC and replay window, the per-game rate limit (counting
 * authenticated requests only), batch and event validation, the pipeline, and the
 * one-transaction write (202 only after the commit, synced to disk: daemon/db/raw-writes.ts).
 */
export function createIngestService(deps: IngestDeps) {
  const writer = createEventWriter(deps.sqlite, deps.db)
  const pipeline = deps.pipeline ?? createPipeline()
  const maintenance = createGamingMaintenance(deps.db)
  const purgers = new Map<string, (gameId: string, playerId: string) => Promise<number>>()
  const DAY_MS = 86_400_000
  const gameBucket = (game: GameRecord) => `game:${game.id}`
  const rateLimited = (state: LimitState) =>
    new AppError(
      'RateLimitExceeded',
      `rate limit exceeded (per game: ${state.limit} requests per minute); retry after ${state.retryAfter} s`,
      undefined,
      {
        'retry-after': String(state.retryAfter),
        'x-ratelimit-limit': String(state.limit),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(state.reset),
      },
    )
  /** Counts an authenticated request in its game's window; 429 beyond the limit. */
  const countIn = (game: GameRecord, now: number): LimitState => {
    const state = evaluate(deps.limiter.hit(gameBucket(game), 60_000, now), deps.requestsPerMinute, now)
    if (state.exceeded) throw rateLimited(state)
    return state
  }

  return {
    pipeline,

    /** Raw events and sessions older than each game's raw retention (or its floor) are deleted. */
    async expireRaw(): Promise<{ events: number; sessions: number }> {
      const now = deps.clock.now()
      const total = { events: 0, sessions: 0 }
      for (const g of await deps.games.all()) {
        const cutoff = Math.max(now - g.rawRetentionDays * DAY_MS, g.rawFloor)
        const r = await maintenance.deleteRawBefore(g.id, cutoff)
        total.events += r.events
        total.sessions += r.sessions
      }
      return total
    },

    /** Aggregate days beyond each game's compacted retention (or its floor) are deleted. */
    async compact(): Promise<number> {
      const now = deps.clock.now()
      let n = 0
      for (const g of await deps.games.all()) {
        const cutoff = Math.max(compactedCutoffDay(now, g.compactedRetentionMonths), g.compactedFloorDay)
        n += await maintenance.deleteAggregatesBefore(g.id, cutoff)
      }
      return n
    },

    /** batch_id records older than the 24 h idempotency window. */
    pruneBatches: () => maintenance.pruneBatches(deps.clock.now() - L.batchIdempotencyMs),

    /**
     * Irreversibly deletes one player's rows from every per-player layer (raw events with their IP
     * and device data, sessions, profile with attribution and fingerprint, devices, player-days).
     * Anonymous daily totals stay. Extra purgers (fraud records) run in the same call.
     */
    async purgePlayer(gameId: string, playerId: string): Promise<Record<string, number>> {
      const out: Record<string, number> = await maintenance.purgePlayer(gameId, playerId)
      for (const [name, purge] of purgers) out[name] = await purge(gameId, playerId)
      return out
    },

    /** Registers another per-player store for the GDPR purge (the fraud issue adds its records). */
    addPlayerPurger(name: string, purge: (gameId: string, playerId: string) => Promise<number>): void {
      purgers.set(name, purge)
    },

    /** 401 for missing headers, an unknown game, another organization or a wrong key. */
    async authenticate(headers: {
      authorization: string | undefined
      gameId: string | undefined
      organizationId: string | undefined
    }): Promise<GameRecord> {
      const m = headers.authorization ? /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization) : null
      if (!m) throw unauthorized('an SDK key is required: Authorization: Bearer <SDK_KEY>')
      if (!headers.gameId) throw unauthorized('the X-Game-ID header is required')
      if (!headers.organizationId) throw unauthorized('the X-Organization-ID header is required')
      const game = await deps.games.authenticateSdk(headers.organizationId, headers.gameId, m[1]!)
      if (!game) throw unauthorized('invalid SDK key, game or organization')
      return game
    },

    /**
     * Right after the SDK key: a game without HMAC is now authenticated, so the request counts in
     * the game's window (returned; 429 beyond the limit). A game requiring HMAC is authenticated
     * only once `verify` passes: here nothing is counted (the SDK key ships in every game client,
     * so unsigned requests must not use up the game's window); a window already full is refused
     * at once (429), before the body is read.
     */
    admit(game: GameRecord): LimitState | undefined {
      const now = deps.clock.now()
      if (!game.hmacRequired) return countIn(game, now)
      const state = evaluate(deps.limiter.peek(gameBucket(game), 60_000, now), deps.requestsPerMinute, now)
      if (state.remaining === 0) throw rateLimited({ ...state, exceeded: true })
      return undefined
    },

    /**
     * The signature and X-Timestamp of a game requiring HMAC (401, 400 StaleBatch); once they pass
     * the request counts in the game's window (returned; 429 beyond the limit). Undefined for a
     * game without HMAC (counted by `admit`).
     */
    verify(game: GameRecord, req: SignedRequest): LimitState | undefined {
      if (!game.hmacRequired) return undefined
      const now = deps.clock.now()
      if (!req.signature || !req.timestamp)
        throw unauthorized('this game requires signed batches: send X-Signature and X-Timestamp')
      const expected = `sha256=${createHmac('sha256', deps.games.signingSecretOf(game))
        .update(`${req.timestamp}.`)
        .update(req.wire)
        .digest('hex')}`
      if (!safeEqual(req.signature, expected)) throw unauthorized('invalid X-Signature')
      const ts = /^\d{1,15}$/.test(req.timestamp) ? Number(req.timestamp) : NaN
      if (!Number.isFinite(ts) || Math.abs(now - ts) > game.replayWindowSeconds * 1000)
        throw new AppError(
          'StaleBatch',
          `X-Timestamp is outside the replay window of ${game.replayWindowSeconds} s`,
          [
            {
              field: 'X-Timestamp',
              message: `must be within ${game.replayWindowSeconds} s of server time (Unix ms)`,
            },
          ],
        )
      return countIn(game, now)
    },

    /** Paused and archived games take nothing. */
    assertOpen(game: GameRecord): void {
      if (game.status === 'paused')
        throw new AppError('GamePaused', `game ${game.slug} is paused: events are not accepted`)
      if (game.status === 'archived')
        throw new AppError('GameArchived', `game ${game.slug} is archived: events are not accepted`)
    },

    /** Parses, judges and stores a batch of a game that passed `admit` and `verify`. */
    async ingest(req: IngestRequest): Promise<{ status: 202; text: string }> {
      const now = deps.clock.now()
      const { game } = req
      const windowMs = game.replayWindowSeconds * 1000
      const signed = game.hmacRequired
      const batch = parseBatch(req.body)
      if (Math.abs(now - batch.batchTimestamp) > windowMs)
        throw new AppError(
          'StaleBatch',
          `batch_timestamp is outside the replay window of ${game.replayWindowSeconds} s`,
          [
            {
              field: 'batch_timestamp',
              message: `must be within ${game.replayWindowSeconds} s of server time`,
            },
          ],
        )
      const since = now - L.batchIdempotencyMs
      const prior = writer.priorResponse(game.id, batch.batchId, since)
      if (prior) return { status: 202, text: prior }

      const errors: IngestError[] = []
      const judged: Judged[] = []
      const ctx = {
        game,
        ip: req.ip,
        userAgent: req.userAgent,
        receivedAt: now,
        batchId: batch.batchId,
        signed,
      }
      const checkCtx = { now, gamePlatform: game.platform, countryOf: deps.countryOf, ip: req.ip }
      batch.events.forEach((raw, index) => {
        const c = checkEvent(raw, index, checkCtx)
        if (!c.ok) errors.push(c.error)
        else judged.push(pipeline.judge(c.event, ctx))
      })
      const blocked = judged.filter((j) => j.verdict === 'block').length
      const out = await writer.write(
        { gameId: game.id, batchId: batch.batchId, receivedAt: now, ip: req.ip },
        judged,
        since,
        ({ stored, duplicates, flagged }) => {
          const body: IngestResult = {
            batchId: batch.batchId,
            accepted: stored,
            flagged,
            blocked,
            duplicates,
            rejected: errors.length,
            errors,
          }
          return { body, text: JSON.stringify(body) }
        },
      )
      return { status: 202, text: out.replayed ?? JSON.stringify(out.result) }
    },
  }
}
export type IngestService = ReturnType<typeof createIngestService>
