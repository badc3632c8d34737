/** Fraud detection: rules, the blocklist, the detectors and the fraud events (the `fraud_*` tables). */
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import { EVERYTHING, type ChangeFeed } from '../../../db/notify.js'
import type { GameRecord, GameService } from '../games/index.js'
import type { IngestService } from '../ingest/index.js'
import type { GamedataService } from '../storage/index.js'
import type { PageOf, PageQuery } from '../../../../src/contract/common.js'
import type {
  BlockType,
  BlocklistEntry,
  CreateBlocklistBody,
  CreateRuleBody,
  DashboardQuery,
  FraudDashboard,
  FraudEvent,
  FraudEventsQuery,
  FraudRule,
  UpdateRuleBody,
} from '../../../../src/contract/fraud.js'
import type { Module } from '../../module.js'
import { createDetectorState } from './detectors/state.js'
import { createDetectorStateStore, createStateSaver, type StateSaver } from './detectors/state-store.js'
import type { CooldownStore, CompiledRule } from './evaluate.js'
import { createFraudEventsService } from './events-service.js'
import { createPostgresFraudEventsStore } from './events-store-postgres.js'
import { createFraudEventsStore } from './events-store.js'
import { fraudBlocklistExpiryJob } from './jobs.js'
import { blocklistRoutes } from './blocklist-routes.js'
import { fraudRuleRoutes } from './rule-routes.js'
import { fraudRoutes } from './routes.js'
import { BLOCKLIST_CHANGED, createFraudService } from './service.js'
import { createFraudStage } from './stage.js'
import { createFraudStore } from './store.js'

export type { StateSaver } from './detectors/state-store.js'

/** Other processes' notices: one game's rules changed (its id), the blocklist, or all (a lost notice). */
export function followFraudNotices(
  feed: Pick<ChangeFeed, 'on'>,
  fraud: Pick<FraudService, 'load' | 'reloadRules' | 'reloadBlocks'>,
  log: FastifyBaseLogger,
): void {
  feed.on('fraud', (what) => {
    const reload =
      what === EVERYTHING
        ? fraud.load()
        : what === BLOCKLIST_CHANGED
          ? fraud.reloadBlocks()
          : fraud.reloadRules(what)
    reload.catch((err: unknown) => log.error({ err }, 'fraud rules refresh failed'))
  })
}

/**
 * Fraud detection: rules and the blocklist (`service`), the ingestion stage that judges each
 * event, the detector windows kept in memory and saved (`saver`), and the events' read side.
 * It plugs itself into ingestion's pipeline and the storage layers' purge and retention.
 */
export function createFraud(deps: {
  db: Db
  clock: Clock
  log: FastifyBaseLogger
  games: GameService
  ingest: IngestService
  gamedata: GamedataService
  /** Other linkd processes on the same database: rule and blocklist changes travel both ways. */
  feed: ChangeFeed
}): Fraud {
  const { db, clock, log, games, gamedata } = deps
  const store = createFraudStore(db.kysely)
  const fraud = createFraudService({
    store,
    clock,
    games,
    announce: (what) => deps.feed.publish('fraud', what),
  })
  followFraudNotices(deps.feed, fraud, log)
  games.onFraudEnabled((game) => fraud.enableFor(game))
  // Detector windows live in memory, bounded, saved every 10 s and at stop (survive a restart).
  const state = createDetectorState()
  const saver = createStateSaver(state, createDetectorStateStore(db.kysely), clock, {
    onSkipped: ({ gameId, kind }, err) =>
      log.warn({ err, gameId, kind }, 'fraud detector state: an entry the database refused was skipped'),
  })
  const eventsStore =
    db.dialect === 'sqlite'
      ? createFraudEventsStore(db.sqlite, db.kysely)
      : createPostgresFraudEventsStore(db.kysely)
  deps.ingest.pipeline.use(
    createFraudStage({
      rulesOf: fraud.rulesOf,
      cooldowns: fraud.cooldowns,
      listed: fraud.listed,
      state,
      events: eventsStore,
    }),
  )
  gamedata.addPlayerPurger('fraudEvents', (gameId, playerId) => eventsStore.purgePlayer(gameId, playerId))
  gamedata.addPlayerPurger('fraudDetectorState', (gameId, playerId) => saver.forgetPlayer(gameId, playerId))
  // Fraud events expire with the raw events.
  gamedata.addRawExpirer('fraudEvents', (gameId, cutoff) => eventsStore.expireBefore(gameId, cutoff))
  const events = createFraudEventsService({
    events: eventsStore,
    blocks: store,
    fraudGame: fraud.fraudGame,
    clock,
  })
  return { service: fraud, events, saver }
}

/** The fraud part as wired: the rules and blocklist, the events' read side, the detector windows' saver. */
export interface Fraud {
  /** Rules, the blocklist and the in-memory state the fraud stage reads. */
  service: FraudService
  /** Fraud events: list, review, dashboard. */
  events: FraudEventsService
  /** The detector windows: loaded at start, saved every 10 s and at stop. */
  saver: StateSaver
}

/** Fraud rules (with the six templates) and the blocklist of a game, cached in memory per game. */
export interface FraudService {
  /** Fills the caches from the database (start-up, every 30 s); seeds missing templates. */
  load(): Promise<void>
  /** The game of a fraud route: 404 in another organization, 409 while fraud is off. */
  fraudGame(organizationId: string, slug: string): Promise<GameRecord>
  /** One game's rules from the database again (another process changed them). */
  reloadRules(gameId: string): Promise<void>
  /** The live blocklist from the database again (another process changed it). */
  reloadBlocks(): Promise<void>
  /** The game's enabled rules, ordered and compiled (the stage's evaluation input). */
  rulesOf(gameId: string): readonly CompiledRule[]
  /** The bounded cooldown state (LRU of rule × player → last firing). */
  cooldowns: CooldownStore
  /** Creates the six templates for a game, once (a game that had them gets none). */
  enableFor(game: GameRecord): Promise<void>
  /** The game's rules. */
  listRules(organizationId: string, slug: string, q: PageQuery): Promise<PageOf<FraudRule>>
  /** Adds a rule (checked; 409 beyond the rules a game may have). */
  createRule(organizationId: string, slug: string, body: CreateRuleBody): Promise<FraudRule>
  /** Changes a rule (checked as a whole; a changed test starts a clean cooldown). */
  updateRule(organizationId: string, slug: string, ruleId: string, body: UpdateRuleBody): Promise<FraudRule>
  /** Deletes a rule (404 when unknown). */
  deleteRule(organizationId: string, slug: string, ruleId: string): Promise<void>
  /** A page of the game's blocklist. */
  listBlocklist(organizationId: string, slug: string, q: PageQuery): Promise<PageOf<BlocklistEntry>>
  /** Lists an IP or device for 30 days; 409 when it is listed already. */
  addBlock(organizationId: string, slug: string, body: CreateBlocklistBody): Promise<BlocklistEntry>
  /** Removes a blocklist entry (404 when unknown). */
  removeBlock(organizationId: string, slug: string, entryId: string): Promise<void>
  /** Removes the entries past their 30 days (the fraud-blocklist-expiry job); how many. */
  expireBlocklist(): Promise<number>
  /** Whether an IP or device of a game is on its live blocklist, from memory (the stage asks first). */
  listed(gameId: string, ip: string, fingerprint: string | null, at: number): BlockType | undefined
}

/** The read side of fraud detection: the stored fraud events and the dashboard. */
export interface FraudEventsService {
  /** A game's fraud events, newest first, filtered; pages of 10-200. */
  list(organizationId: string, slug: string, q: FraudEventsQuery): Promise<PageOf<FraudEvent>>
  /** Marks a fraud event legitimate or fraud (pending clears the review). */
  review(
    organizationId: string,
    slug: string,
    eventId: string,
    review: FraudEvent['review'],
  ): Promise<FraudEvent>
  /** The dashboard of a UTC day range (definitions in docs/reference/fraud.md). */
  dashboard(organizationId: string, slug: string, q: DashboardQuery): Promise<FraudDashboard>
}

export function fraudModule(deps: { fraud: FraudService; fraudEvents: FraudEventsService }): Module {
  const plugins = [fraudRoutes, fraudRuleRoutes, blocklistRoutes].map((p) => p(deps))
  return {
    name: 'gaming/fraud',
    routes: async (app) => {
      for (const plugin of plugins) await plugin(app)
    },
    jobs: [fraudBlocklistExpiryJob(deps.fraud)],
  }
}
