/** Fraud detection: rules, the blocklist, the detectors and the fraud events (the `fraud_*` tables). */
export type * from './api.js'
import type { Fraud, FraudService, FraudEventsService } from './api.js'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import { EVERYTHING, type ChangeFeed } from '../../../db/notify.js'
import type { GameService } from '../games/index.js'
import type { IngestService } from '../ingest/index.js'
import type { StorageService } from '../storage/index.js'
import type { Module } from '../../module.js'
import { createDetectorState } from './detectors/state.js'
import { createDetectorStateStore, createStateSaver } from './detectors/state-store.js'
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
  storage: StorageService
  /** Other linkd processes on the same database: rule and blocklist changes travel both ways. */
  feed: ChangeFeed
}): Fraud {
  const { db, clock, log, games, storage } = deps
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
  storage.addPlayerPurger('fraudEvents', (gameId, playerId) => eventsStore.purgePlayer(gameId, playerId))
  storage.addPlayerPurger('fraudDetectorState', (gameId, playerId) => saver.forgetPlayer(gameId, playerId))
  // Fraud events expire with the raw events.
  storage.addRawExpirer('fraudEvents', (gameId, cutoff) => eventsStore.expireBefore(gameId, cutoff))
  const events = createFraudEventsService({
    events: eventsStore,
    blocks: store,
    fraudGame: fraud.fraudGame,
    clock,
  })
  return { service: fraud, events, saver }
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
