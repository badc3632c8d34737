/** How the gamedata module plugs in: its SQLite stores and its service (no routes of its own). */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.js'
import type { Database } from '../../db/schema.js'
import type { GameService } from '../games/service.js'
import { createAggregatesStore } from './aggregates-store.js'
import { createGamedataMaintenanceStore } from './maintenance-store.js'
import { createGamedataService } from './service.js'
import { createGamedataStore } from './store.js'

export function createGamedata(deps: {
  sqlite: SQLite.Database
  db: Kysely<Database>
  clock: Clock
  games: Pick<GameService, 'all'>
}) {
  return createGamedataService({
    store: createGamedataStore(deps.sqlite, deps.db),
    maintenance: createGamedataMaintenanceStore(deps.db),
    aggregates: createAggregatesStore(deps.db),
    clock: deps.clock,
    games: deps.games,
  })
}
