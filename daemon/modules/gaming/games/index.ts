import type { Clock } from '../../../clock.js'
import type { SecretBox } from '../../../crypto.js'
import type { Db } from '../../../db/open.js'
import type { Module } from '../../module.js'
import { gameRoutes } from './routes.js'
import { createGameService, type GameService } from './service.js'
import { createGameStore } from './store.js'

export { compactedCutoffDay, type GameService } from './service.js'
export type { GameRecord } from './store.js'

/** Games, their SDK keys and signing secrets (table `games`). */
export function createGames(deps: { db: Db; clock: Clock; secrets: SecretBox }): GameService {
  return createGameService({
    store: createGameStore(deps.db.kysely),
    clock: deps.clock,
    secrets: deps.secrets,
  })
}

export function gamesModule(deps: { games: GameService }): Module {
  return { name: 'gaming/games', routes: gameRoutes(deps) }
}
