import type { Module } from '../module.js'
import { ingestRoutes } from './routes.js'
import type { IngestService } from './service.js'

export function ingestModule(deps: { ingest: IngestService }): Module {
  return { name: 'ingest', routes: ingestRoutes(deps) }
}
