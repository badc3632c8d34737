/** API keys, request authentication, usage and activity; owns `api_keys` and `api_key_activity`. */
export type * from './api.js'
import type { KeyService } from './api.js'
import type { Clock } from '../../clock.js'
import type { RateLimitStore } from '../../http/rate-limit.js'
import type { Module } from '../module.js'
import { expireKeysJob, pruneKeyActivityJob } from './jobs.js'
import { keyRoutes } from './routes.js'
export { createKeyStore, type KeyRecord } from './store.js'
export { createKeyService } from './service.js'
export { type RequestUsage, type UsageRecorder } from './usage.js'
export { keyAccess } from './access.js'

export function keysModule(deps: { keys: KeyService; limiter: RateLimitStore; clock: Clock }): Module {
  return {
    name: 'keys',
    routes: keyRoutes(deps),
    jobs: [expireKeysJob(deps.keys), pruneKeyActivityJob(deps.keys)],
  }
}
