import type { Module } from '../module.js'
import { skanRoutes } from './routes.js'
import type { SkanService } from './service.js'

export function skanModule(deps: { skan: SkanService }): Module {
  return { name: 'skan', routes: skanRoutes(deps) }
}
