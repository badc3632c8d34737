/** Destination safety lists and the flags they set on links; owns `safety_lists`, `safety_list_hosts`. */
export type * from './api.js'
import type { SafetyService } from './api.js'
import type { Module } from '../module.js'
import { recheckSafetyJob } from './jobs.js'
import { safetyRoutes } from './routes.js'
export { createSafetyService } from './service.js'
export { createSafetyStore } from './store.js'
export { RECHECK_SAFETY_JOB } from './jobs.js'

export function safetyModule(deps: { safety: SafetyService }): Module {
  return { name: 'safety', routes: safetyRoutes(deps), jobs: [recheckSafetyJob(deps.safety)] }
}
