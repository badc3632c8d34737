import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { GameService } from '../games/index.js'
import type { IngestService } from '../ingest/index.js'
import type { Module } from '../../module.js'
import { createAcquisitionStore } from './acquisition-store.js'
import { createAggregatesStore } from './aggregates-store.js'
import { gamingCompactionJob, gamingRawRetentionJob } from './jobs.js'
import { lockPlayer } from './locks-store-postgres.js'
import { createGamedataMaintenanceStore } from './maintenance-store.js'
import { createPlayersStore } from './players-store.js'
import { createGamedataService, type GamedataService } from './service.js'
import { createPostgresGamedataStore } from './store-postgres.js'
import { createGamedataStore } from './store.js'

export type { GamedataAggregates, GamedataPlayers, GamedataService } from './service.js'
export type { PlayerFilter, PlayerRow } from './players-store.js'
export type { CohortCell } from './breakdowns-store.js'
export {
  CUSTOM_BIT,
  EVENT_TYPE_BY_BIT,
  TYPE_BIT,
  type AcceptedEvent,
  type Attribution,
  type GameEvent,
} from './types.js'

/** The gaming storage layers on this database's engine; it asks games whether a game has data. */
export function createStorage(deps: { db: Db; clock: Clock; games: GameService }): GamedataService {
  const { db } = deps
  const gamedata = createGamedataService({
    store:
      db.dialect === 'sqlite'
        ? createGamedataStore(db.sqlite, db.kysely)
        : createPostgresGamedataStore(db.kysely),
    maintenance: createGamedataMaintenanceStore(db.kysely, db.dialect === 'postgres' ? { lockPlayer } : {}),
    aggregates: createAggregatesStore(db.kysely),
    acquisition: createAcquisitionStore(db.kysely),
    players: createPlayersStore(db.kysely),
    clock: deps.clock,
    games: deps.games,
  })
  deps.games.useDataCheck((gameId) => gamedata.players.hasPlayers(gameId))
  return gamedata
}

/** The storage layers have no routes of their own (ingest writes, analytics reads): their retention jobs. */
export function gamedataModule(deps: {
  gamedata: GamedataService
  ingest: Pick<IngestService, 'pruneBatches'>
}): Module {
  return {
    name: 'gaming/storage',
    jobs: [gamingRawRetentionJob(deps.gamedata, deps.ingest), gamingCompactionJob(deps.gamedata)],
  }
}
