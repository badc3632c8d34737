import { gdprDeletionsJob, gdprRecordsPurgeJob } from '../../jobs/gaming.js'
import type { Module } from '../module.js'
import { gdprRoutes } from './routes.js'
import type { GdprService } from './service.js'

export function gdprModule(deps: { gdpr: GdprService }): Module {
  return {
    name: 'gdpr',
    routes: gdprRoutes(deps),
    jobs: [gdprDeletionsJob(deps.gdpr), gdprRecordsPurgeJob(deps.gdpr)],
  }
}
