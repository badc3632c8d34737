/**
 * Gaming Intelligence: games, ingestion and the storage layers, and the four modules each game
 * has (analytics, fraud, SKAN, GDPR). The composition root wires it once through `createGaming`.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../clock.js'
import { AppError, validation } from '../../http/errors.js'
import type { SecretBox } from '../../crypto.js'
import type { Db } from '../../db/open.js'
import type { ChangeFeed } from '../../db/notify.js'
import type { RateLimitStore } from '../../http/rate-limit.js'
import type { Module } from '../module.js'
import {
  createGamingAnalyticsService,
  gamingAnalyticsModule,
  type GamingAnalyticsService,
  type LinkShortUrls,
} from './analytics/index.js'
import {
  createFraud,
  fraudModule,
  type FraudEventsService,
  type FraudService,
  type StateSaver,
} from './fraud/index.js'
import { createGames, gamesModule, type GameService } from './games/index.js'
import { createGdpr, gdprModule, type GdprService } from './gdpr/index.js'
import { createIngest, ingestModule, type ClickLookup, type IngestService } from './ingest/index.js'
import { createSkan, skanModule, type OptimizeService, type SkanService } from './skan/index.js'
import { createStorage, storageModule, type StorageService } from './storage/index.js'
import { GAMING_OFF_MESSAGE, gamingOffModule } from './off.js'
import { createTurns, INGEST_TURN_MS } from '../../turns.js'

export { GAMING_OFF_MESSAGE } from './off.js'

/** Builds every gaming part and wires them together: pipeline stages, purgers, expirers, hooks. */
export function createGaming(deps: GamingDeps): Gaming {
  const { db, clock, log, feed } = deps
  const games = createGames({ db, clock, secrets: deps.secrets, feed })
  // Parsing batches and writing their groups take turns of the event loop together, so that the
  // redirects and reads that arrive meanwhile wait for one short slice at most.
  const turn = createTurns(INGEST_TURN_MS)
  const storage = createStorage({ db, clock, games, queueMax: deps.ingestQueueMax, turn })
  const ingest = createIngest({
    db,
    clock,
    games,
    storage,
    turn,
    limiter: deps.limiter,
    perClientPerMinute: deps.ingestRates.perClient,
    perGamePerMinute: deps.ingestRates.perGame,
    countryOf: deps.countryOf,
    ...(deps.clickLookup ? { clicks: deps.clickLookup } : {}),
  })
  const fraud = createFraud({ db, clock, log, games, ingest, storage, feed })
  const skan = createSkan({
    db,
    clock,
    log,
    games,
    storage,
    limiter: deps.limiter,
    held: deps.skanHeld,
    ...(deps.skanPublicKeys ? { publicKeys: deps.skanPublicKeys } : {}),
  })
  const analytics = createGamingAnalyticsService({
    clock,
    games,
    aggregates: storage.aggregates,
    acquisition: storage.acquisition,
    players: storage.players,
    funnels: storage.funnels,
    rawEvents: storage.rawEvents,
    ...(deps.linkShortUrls ? { linkRefs: deps.linkShortUrls } : {}),
  })
  const gdpr = createGdpr({ db, clock, games, storage, forgetResponsesNaming: deps.forgetResponsesNaming })

  const parts: Module[] = [
    gamesModule({ games }),
    ingestModule({ ingest }),
    storageModule({ storage }),
    gamingAnalyticsModule({ analytics }),
    gdprModule({ gdpr }),
    fraudModule({ fraud: fraud.service, fraudEvents: fraud.events }),
    skanModule({
      skan: skan.service,
      optimizer: skan.optimizer,
      organizationOfHost: deps.organizationOfHost,
      organizationOfKey: deps.organizationOfKey,
    }),
  ]

  // Turned off: the services exist (nothing calls them) but no route, hook or job is installed,
  // nothing loads or runs, and every gaming path answers 404 (off.ts). The data stays.
  const enabled = deps.enabled ?? true
  const modules = enabled ? parts : [gamingOffModule(parts)]

  let reload: NodeJS.Timeout | undefined
  return {
    enabled,
    /** A game of the organization, for other modules (smart links); 400 while gaming is off. */
    async gameExists(organizationId: string, gameId: string): Promise<boolean> {
      if (!enabled) throw validation('gameId', GAMING_OFF_MESSAGE)
      try {
        await games.get(organizationId, gameId)
        return true
      } catch (err) {
        if (err instanceof AppError && err.type === 'NotFound') return false
        throw err
      }
    },
    games,
    ingest,
    storage,
    analytics,
    gdpr,
    fraud: fraud.service,
    fraudEvents: fraud.events,
    fraudStateSaver: fraud.saver,
    skan: skan.service,
    skanOptimizer: skan.optimizer,
    modules,
    async load(): Promise<void> {
      if (!enabled) return
      await fraud.service.load()
      await fraud.saver.load()
    },
    start(): void {
      if (!enabled) return
      fraud.saver.start((err) => log.error({ err }, 'fraud detector state save failed'))
      reload = setInterval(() => {
        fraud.service.load().catch((err: unknown) => log.error({ err }, 'fraud rules refresh failed'))
      }, 30_000).unref()
    },
    async stop(): Promise<void> {
      if (enabled) {
        if (reload) clearInterval(reload)
        await fraud.saver.stop()
      }
      await storage.close()
    },
  }
}

/** What gaming needs from the daemon: the database, the clock, the log, and hooks into other modules. */
export interface GamingDeps {
  /** NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED (default true). */
  enabled?: boolean
  db: Db
  clock: Clock
  log: FastifyBaseLogger
  secrets: SecretBox
  /** The quotas' counters (ingestion's per-client and per-game rates). */
  limiter: RateLimitStore
  /** Other linkd processes on the same database: fraud rule and blocklist changes travel on it. */
  feed: ChangeFeed
  countryOf(ip: string): string | null
  /** LINKD_INGEST_RATE_LIMIT_PER_CLIENT and _PER_GAME (requests per minute). */
  ingestRates: { perClient: number; perGame: number }
  /** LINKD_INGEST_QUEUE_MAX: events of batches being stored beyond which ingestion answers 503. */
  ingestQueueMax: number
  /** LINKD_SKAN_HELD_MAX and _BYTES. */
  skanHeld: { maxRows: number; maxBytes: number }
  /** Keys SKAN postback signatures verify against (SPKI DER, base64); default Apple's alone. */
  skanPublicKeys?: string[]
  /** Install attribution: smart-link clicks by click id with their link's destination (clicks, links). */
  clickLookup?: ClickLookup
  /** Short URLs of an organization's links (attribution groupBy=link). */
  linkShortUrls?: LinkShortUrls
  /** Drops stored idempotent responses naming a GDPR deletion (they carry the player id). */
  forgetResponsesNaming(id: string): Promise<number>
  /** The organization of a verified custom domain (SKAN's public report). */
  organizationOfHost(host: string): string | undefined
  /** The organization of a presented API key holding skan:read, if any. */
  organizationOfKey(raw: string | undefined): Promise<string | undefined>
}

/** Gaming as the composition root sees it: each part's service, their modules, and the lifecycle. */
export interface Gaming {
  /** NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED: false leaves gaming out (off.ts). */
  enabled: boolean
  /** Whether a game is the organization's (smart links' gameId); a 400 while gaming is off. */
  gameExists(organizationId: string, gameId: string): Promise<boolean>
  /** Games, SDK keys and signing secrets. */
  games: GameService
  /** The ingestion of event batches. */
  ingest: IngestService
  /** The storage layers: batches stored, retention, the GDPR purge, the reads. */
  storage: StorageService
  /** The reports and exports. */
  analytics: GamingAnalyticsService
  /** GDPR deletions of a player. */
  gdpr: GdprService
  /** Fraud rules and the blocklist. */
  fraud: FraudService
  /** Fraud events and the dashboard. */
  fraudEvents: FraudEventsService
  /** The fraud detector windows' saver. */
  fraudStateSaver: StateSaver
  /** SKAN campaigns, postbacks and reports. */
  skan: SkanService
  /** The SKAN conversion-value optimizer. */
  skanOptimizer: OptimizeService
  /** The parts' routes and jobs, in registration order (also the OpenAPI document's); off: the 404s. */
  modules: Module[]
  /** Fills the in-memory state: fraud rules, the blocklist, the saved detector windows. */
  load(): Promise<void>
  /** The detector-state saver, and a 30 s reload of fraud rules (safety net for a lost notice). */
  start(): void
  /** After the last request: the detector windows it changed are saved. */
  stop(): Promise<void>
}
