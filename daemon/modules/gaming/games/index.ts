/** Games: their settings, SDK keys and signing secrets (table `games`), read by every gaming part. */
export type * from './api.js'
import type { GameService } from './api.js'
import type { Clock } from '../../../clock.js'
import type { SecretBox } from '../../../crypto.js'
import type { Db } from '../../../db/open.js'
import type { ChangeFeed } from '../../../db/notify.js'
import type { Module } from '../../module.js'
import { gameRoutes } from './routes.js'
import { createGameService } from './service.js'
import { createGameStore } from './store.js'

export { compactedCutoffDay } from './service.js'
export type { GameRecord } from './store.js'

/** Games, their SDK keys and signing secrets (table `games`). */
export function createGames(deps: {
  db: Db
  clock: Clock
  secrets: SecretBox
  feed: ChangeFeed
}): GameService {
  const games = createGameService({
    store: createGameStore(deps.db.kysely),
    clock: deps.clock,
    secrets: deps.secrets,
    announce: (key) => deps.feed.publish('games', key),
  })
  deps.feed.on('games', (key) => games.forget(key))
  return games
}

export function gamesModule(deps: { games: GameService }): Module {
  return { name: 'gaming/games', routes: gameRoutes(deps) }
}
