import type { Module } from '../module.js'
import { gameRoutes } from './routes.js'
import type { GameService } from './service.js'

export function gamesModule(deps: { games: GameService }): Module {
  return { name: 'games', routes: gameRoutes(deps) }
}
