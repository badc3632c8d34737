/** API keys, request authentication, usage and activity; owns `api_keys` and `api_key_activity`. */
export type * from './api.js'
import type { KeyService } from './api.js'
import type { Clock } from '../../clock.js'
import type { RateLimitStore } from '../../http/rate-limit.js'
import type { Module } from '../module.js'
import { expireKeysJob, pruneKeyActivityJob } from './jobs.js'
import { keyActionRoutes } from './action-routes.js'
import { keyRoutes } from './routes.js'
import { keyTesterRoutes } from './tester-routes.js'
export { createKeyStore, type KeyRecord } from './store.js'
export { createKeyService } from './service.js'
export { type AuthFailure, type AuthResult } from './authentication.js'
export { type KeyCaller } from './guards.js'
export { type RequestUsage, type UsageRecorder } from './usage.js'
export { keyAccess } from './access.js'

export function keysModule(deps: { keys: KeyService; limiter: RateLimitStore; clock: Clock }): Module {
  const plugins = [keyRoutes, keyActionRoutes, keyTesterRoutes].map((p) => p(deps))
  return {
    name: 'keys',
    routes: async (app) => {
      for (const plugin of plugins) await plugin(app)
    },
    jobs: [expireKeysJob(deps.keys), pruneKeyActivityJob(deps.keys)],
  }
}
