/** The audit log: one entry per successful authenticated write, read back by the API; owns `audit_log`. */
export type * from './api.js'
import type { AuditService } from './api.js'
import type { Module } from '../module.js'
import { pruneAuditLogJob } from './jobs.js'
import { installAuditRecording } from './recording.js'
import { auditRoutes } from './routes.js'
export { createAuditStore, type AuditStore } from './store.js'
export { createAuditService } from './service.js'
export { auditName } from './names.js'

export function auditModule(deps: { audit: AuditService }): Module {
  return {
    name: 'audit',
    hooks: (app) => installAuditRecording(app, deps.audit),
    routes: auditRoutes(deps),
    jobs: [pruneAuditLogJob(deps.audit)],
  }
}
