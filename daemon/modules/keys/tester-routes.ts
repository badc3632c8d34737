import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { KeyTestBody, KeyTestResult } from '../../../src/contract/keys.js'
import { keyLimitState } from '../../http/auth.js'
import type { RateLimitStore } from '../../http/rate-limit.js'
import type { Clock } from '../../clock.js'
import type { KeyService } from './api.js'

const tags = ['API keys']

/** The key tester: any key value, no key needed to ask. */
export function keyTesterRoutes(deps: { keys: KeyService; limiter: RateLimitStore; clock: Clock }) {
  const { keys } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/keys/test',
      {
        schema: {
          tags,
          summary:
            'Key tester: validity, reason, name, permissions, status and rate limit of a key (no key needed)',
          body: KeyTestBody,
          response: { 200: KeyTestResult },
        },
      },
      async (req) =>
        keys.test(req.body.key, async (k) => {
          const s = await keyLimitState(deps.limiter, k, deps.clock.now())
          return { limit: s.limit, period: k.timePeriod, remaining: s.remaining, reset: s.reset }
        }),
    )
  }
}
