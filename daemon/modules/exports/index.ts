/** Scheduled raw exports to object storage; owns `export_destinations`. */
export type * from './api.js'
import type { ExportsService } from './api.js'
import type { Module } from '../module.js'
import { scheduledExportsJob } from './jobs.js'
import { exportRoutes } from './routes.js'
export { createExportsService } from './service.js'
export { createExportDestinationStore } from './store.js'

export function exportsModule(deps: { exports: ExportsService }): Module {
  return { name: 'exports', routes: exportRoutes(deps), jobs: [scheduledExportsJob(deps.exports)] }
}
