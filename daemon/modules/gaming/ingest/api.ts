/** The ingest module's interfaces, imported by its own files (other modules import its index.ts). */
import type { GameRecord } from '../games/index.js'
import type { Pipeline } from './pipeline.js'
import type { LimitState, QuotaTier } from '../../../http/rate-limit.js'

/** The ingestion of a batch, step by step as its route calls them, and the pipeline others join. */
export interface IngestService {
  /** The stages every accepted event passes (fraud detection adds itself). */
  pipeline: Pipeline
  /** Totals of this process since start (metrics); `rejected` by the events' error code. */
  counts(): {
    batches: number
    accepted: number
    flagged: number
    blocked: number
    duplicates: number
    rejected: ReadonlyMap<string, number>
  }
  /** Deletes batch_id records older than the 24 h idempotency window; how many. */
  pruneBatches(): Promise<number>
  /** The game of the SDK key and headers; 401 for missing headers, an unknown game or a wrong key. */
  authenticate(headers: {
    authorization: string | undefined
    gameId: string | undefined
    organizationId: string | undefined
  }): Promise<GameRecord>
  /** Counts a game without HMAC in its windows (429 beyond); a game with HMAC only if its window is full. */
  admit(game: GameRecord, ip: string): Promise<Admission | undefined>
  /** Checks the signature and X-Timestamp of a game requiring HMAC, then counts it (401, 400, 429). */
  verify(game: GameRecord, req: SignedRequest, ip: string): Promise<Admission | undefined>
  /** Paused and archived games take nothing (their own errors). */
  assertOpen(game: GameRecord): void
  /** Parses, judges and stores a batch that passed `admit` and `verify`: 202 and the result text. */
  ingest(req: IngestRequest): Promise<{ status: 202; text: string }>
}

export interface IngestRequest {
  /** A game authenticated by `admit` and `verify`. */
  game: GameRecord
  /** The decompressed body. */
  body: Buffer
  ip: string
  userAgent: string | null
  /** The windows `admit` or `verify` counted the request in: given back if it is a replay. */
  admission?: Admission
}

/** A request counted in its game's windows: which, and when. */
export interface Admission {
  tiers: QuotaTier[]
  at: number
  /** The state of the window with the fewest requests left: the X-RateLimit-* headers. */
  state: LimitState
}

/** What the signature of a game requiring HMAC covers. */
export interface SignedRequest {
  /** The body as sent (gzip bytes when compressed). */
  wire: Buffer
  signature: string | undefined
  timestamp: string | undefined
}
