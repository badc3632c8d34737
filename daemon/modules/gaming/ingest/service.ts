import { createHmac } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import { clientKey } from '../../../addresses.js'
import type { Clock } from '../../../clock.js'
import { safeEqual } from '../../../crypto.js'
import { AppError } from '../../../http/errors.js'
import {
  evaluate,
  type LimitState,
  type QuotaTier,
  type RateLimitHit,
  type RateLimitStore,
} from '../../../http/rate-limit.js'
import { INGEST_LIMITS as L } from '../../../../src/contract/limits.js'
import type { IngestError, IngestResult } from '../../../../src/contract/gaming.js'
import type { GameRecord, GameService } from '../games/index.js'
import { attachClicks, type ClickLookup } from './attribution.js'
import { createPipeline, type Judged, type Pipeline } from './pipeline.js'
import { createTurns, INGEST_TURN_MS } from '../../../turns.js'
import { checkEvent, parseBatch, type ParsedBatch } from './validate.js'
import type { IngestStore } from './store.js'
import type { IngestService } from './api.js'
import type { StorageService } from '../storage/index.js'
import type { AcceptedEvent } from '../storage/index.js'
import type { IngestRequest, Admission, SignedRequest } from './api.js'

export interface IngestDeps {
  /** The batch_id records (game_batches). */
  batches: IngestStore
  /** The owner of the storage layers, which stores the accepted events. */
  storage: Pick<StorageService, 'storeBatch' | 'admit' | 'durable'>
  clock: Clock
  games: GameService
  limiter: RateLimitStore
  /** Requests per minute per game and client address (LINKD_INGEST_RATE_LIMIT_PER_CLIENT, 1,000). */
  perClientPerMinute: number
  /** Requests per minute per game, all addresses (LINKD_INGEST_RATE_LIMIT_PER_GAME, 60,000). */
  perGamePerMinute: number
  countryOf(ip: string): string | null
  pipeline?: Pipeline
  /** Install attribution: smart-link clicks of an organization by click id. */
  clicks?: ClickLookup
  /** The turns of the event loop parsing and judging take (daemon/turns.ts; default: their own). */
  turn?: () => Promise<void>
}

/** The per-event error of a blocked event (counted in `blocked`, not in `rejected`). */
const blockedError = (j: Judged): IngestError => ({
  index: j.event.index,
  eventId: j.event.eventId,
  error: 'Blocked',
  message: j.reasons.length ? `blocked: ${j.reasons.join('; ')}` : 'blocked by a fraud rule',
})

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
 * authenticated requests only), batch and event validation, batch_id dedupe, the pipeline, and
 * the hand-over of the accepted events to the storage module, which stores them in one
 * transaction with the batch_id record (202 only after the commit, synced to disk).
 */
export function createIngestService(deps: IngestDeps): IngestService {
  const { counts, count } = createCounts()
  const pipeline = deps.pipeline ?? createPipeline()
  const turn = deps.turn ?? createTurns(INGEST_TURN_MS)
  /**
   * The two windows of a game's ingestion, in the order they count: the game and client address
   * (the budget of one sender), then the whole game (the ceiling guarding the server). A
   * request its address's window refuses does not count in the game's.
   */
  const TIER_NAMES = ['per game and client address', 'game-wide ceiling'] as const
  const tiersOf = (game: GameRecord, ip: string): QuotaTier[] => [
    { bucket: `game-ip:${game.id}:${clientKey(ip)}`, windowMs: 60_000, limit: deps.perClientPerMinute },
    { bucket: `game:${game.id}`, windowMs: 60_000, limit: deps.perGamePerMinute },
  ]
  const rateLimited = (state: LimitState, tier: string) =>
    new AppError(
      'RateLimitExceeded',
      `rate limit exceeded (${tier}: ${state.limit} requests per minute); retry after ${state.retryAfter} s`,
      [{ field: 'rateLimit', message: tier }],
      {
        'retry-after': String(state.retryAfter),
        'x-ratelimit-limit': String(state.limit),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(state.reset),
      },
    )
  /** The states of the windows, or a 429 naming the first one over its limit. */
  const judge = (tiers: readonly QuotaTier[], hits: readonly RateLimitHit[], now: number): LimitState => {
    const states = hits.map((hit, i) => evaluate(hit, tiers[i]!.limit, now))
    states.forEach((state, i) => {
      if (state.exceeded) throw rateLimited(state, TIER_NAMES[i]!)
    })
    return states.reduce((a, b) => (b.remaining < a.remaining ? b : a))
  }
  /** Counts an authenticated request in its game's windows; 429 beyond either limit. */
  const countIn = async (game: GameRecord, ip: string, now: number): Promise<Admission> => {
    const tiers = tiersOf(game, ip)
    const state = judge(tiers, await deps.limiter.hitTiers(tiers, now), now)
    return { tiers, at: now, state }
  }

  /** Judges a batch that has its places in the queue and stores it (`ingest`). */
  async function storeJudged(
    req: IngestRequest,
    batch: ParsedBatch,
    now: number,
    since: number,
  ): Promise<{ status: 202; text: string }> {
    const { game } = req
    const signed = game.hmacRequired
    const errors: IngestError[] = []
    const judged: Judged[] = []
    let result: IngestResult | undefined
    const ctx = {
      game,
      ip: req.ip,
      userAgent: req.userAgent,
      receivedAt: now,
      batchId: batch.batchId,
      signed,
    }
    // Every event of a batch comes from the request's address: it is located once.
    let country: string | null | undefined
    const checkCtx = {
      now,
      gamePlatform: game.platform,
      reportingCurrency: game.reportingCurrency,
      countryOf: (ip: string) => (country === undefined ? (country = deps.countryOf(ip)) : country),
      ip: req.ip,
    }
    batch.events.forEach((raw, index) => {
      const c = checkEvent(raw, index, checkCtx)
      if (!c.ok) errors.push(c.error)
      else judged.push(pipeline.judge(c.event, ctx))
    })
    const events: AcceptedEvent[] = []
    const rejected = errors.length
    for (const j of judged)
      if (j.verdict !== 'block') events.push({ event: j.event, verdict: j.verdict })
      else errors.push(blockedError(j))
    const blocked = judged.length - events.length
    if (blocked) errors.sort((a, b) => a.index - b.index)
    await attachClicks(
      deps.clicks,
      game,
      events.map((a) => a.event),
    )
    // The batch_id record commits with the events (one transaction): a repeat sent while the
    // first is being written finds it, and a crash leaves neither.
    // What the stages found (fraud events) is recorded in the same transaction.
    const text = await deps.storage
      .storeBatch(
        {
          gameId: game.id,
          organizationId: game.organizationId,
          batchId: batch.batchId,
          receivedAt: now,
          ip: req.ip,
          events,
        },
        {
          before: (unit) => deps.batches.responseOf(game.id, batch.batchId, since, unit),
          after: async ({ stored, duplicates, flagged }, unit) => {
            await pipeline.record(ctx, unit)
            const body: IngestResult = {
              batchId: batch.batchId,
              accepted: stored,
              flagged,
              blocked,
              duplicates,
              rejected,
              errors,
            }
            result = body
            const response = JSON.stringify(body)
            await deps.batches.record(game.id, batch.batchId, response, now, unit)
            return response
          },
        },
      )
      .finally(() => pipeline.discard(ctx))
    // Counted once committed; a batch whose batch_id another request stored meanwhile is not.
    if (result) count(result)
    return { status: 202, text }
  }

  return {
    counts: () => ({ ...counts, rejected: new Map(counts.rejected) }),
    pipeline,

    /** batch_id records older than the 24 h idempotency window. */
    pruneBatches: () => deps.batches.pruneBatches(deps.clock.now() - L.batchIdempotencyMs),

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
    async admit(game: GameRecord, ip: string): Promise<Admission | undefined> {
      const now = deps.clock.now()
      if (!game.hmacRequired) return countIn(game, ip, now)
      const tiers = tiersOf(game, ip)
      const hits = await Promise.all(tiers.map((tier) => deps.limiter.peek(tier.bucket, tier.windowMs, now)))
      // A full window: what one more request would make of it.
      judge(
        tiers,
        hits.map((hit) => ({ ...hit, count: hit.count + 1 })),
        now,
      )
      return undefined
    },

    /**
     * The signature and X-Timestamp of a game requiring HMAC (401, 400 StaleBatch); once they pass
     * the request counts in the game's window (returned; 429 beyond the limit). Undefined for a
     * game without HMAC (counted by `admit`).
     */
    async verify(game: GameRecord, req: SignedRequest, ip: string): Promise<Admission | undefined> {
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
      return countIn(game, ip, now)
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
      // Parsing and judging take turns (daemon/turns.ts): a burst of batches does not hold back
      // the redirects and reads that arrived with it.
      await turn()
      const now = deps.clock.now()
      const { game } = req
      const windowMs = game.replayWindowSeconds * 1000
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
      const prior = await deps.batches.responseOf(game.id, batch.batchId, since)
      // A replay (a retry, or a captured request sent again) uses none of the game's budget: it
      // stored nothing; nor does a batch refused because the queue is full. Both still counted in
      // the per-IP window.
      const giveBack = async () => {
        if (req.admission) await deps.limiter.release(req.admission.tiers, req.admission.at)
      }
      if (prior) {
        // Found committed: answered once it is durable, as its first answer was.
        await deps.storage.durable()
        await giveBack()
        return { status: 202, text: prior }
      }
      let release: () => void
      try {
        release = deps.storage.admit(batch.events.length)
      } catch (err) {
        await giveBack()
        throw err
      }
      try {
        return await storeJudged(req, batch, now, since)
      } finally {
        release()
      }
    },
  }
}

/** Ingestion totals of this process since start (metrics): increments only. */
function createCounts() {
  const counts = {
    batches: 0,
    accepted: 0,
    flagged: 0,
    blocked: 0,
    duplicates: 0,
    /** Events refused by the checks, by error code (a fixed set: validate.ts). */
    rejected: new Map<string, number>(),
  }
  function count(result: IngestResult): void {
    counts.batches++
    counts.accepted += result.accepted
    counts.flagged += result.flagged
    counts.blocked += result.blocked
    counts.duplicates += result.duplicates
    for (const e of result.errors)
      if (e.error !== 'Blocked') counts.rejected.set(e.error, (counts.rejected.get(e.error) ?? 0) + 1)
  }
  return { counts, count }
}
