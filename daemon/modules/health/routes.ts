import type { FastifyInstance, RouteOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { Discovery, Health } from '../../../src/contract/health.js'
import { ErrorBody } from '../../../src/contract/common.js'
import type { HealthService } from './api.js'

/** Routes listed by discovery: every documented /api route. */
export interface RouteInfo {
  method: string
  path: string
  permission: string | null
}

export function collectRoutes(app: FastifyInstance): RouteInfo[] {
  const routes: RouteInfo[] = []
  app.addHook('onRoute', (r: RouteOptions) => {
    const methods = (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD')
    const hidden = (r.schema as { hide?: boolean } | undefined)?.hide
    if (hidden || !r.url.startsWith('/api/') || r.url.startsWith('/api/docs')) return
    const auth = r.config?.auth
    for (const method of methods)
      routes.push({
        method,
        path: r.url,
        permission:
          auth === undefined
            ? r.config?.sdkKey
              ? 'game SDK key'
              : null
            : auth === true
              ? 'any valid key'
              : auth,
      })
  })
  return routes
}

/** Code-unit order: stable across machines and free of ICU collation. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

export function healthRoutes(deps: {
  health: HealthService
  routes: RouteInfo[]
  publicUrl: string
  features: { gaming: boolean }
}) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    const tags = ['Health']

    app.get('/health', { schema: { tags, summary: 'Service health', response: { 200: Health } } }, async () =>
      deps.health.summary(),
    )

    app.get(
      '/health/live',
      {
        schema: {
          tags,
          summary: 'Liveness: the process answers',
          response: { 200: Type.Object({ status: Type.String() }) },
        },
      },
      async () => ({ status: 'ok' }),
    )

    app.get(
      '/health/ready',
      {
        schema: {
          tags,
          summary: 'Readiness: the database answers and migrations are applied; job runs',
          response: { 200: Health, 503: ErrorBody },
        },
      },
      async () => deps.health.ready(),
    )

    app.get(
      '/api/use',
      {
        schema: {
          tags: ['Discovery'],
          summary: 'Discovery: API version, routes and health (no key)',
          response: { 200: Discovery },
        },
      },
      async () => {
        const h = await deps.health.summary()
        return {
          name: 'linkd',
          version: 'v1',
          serverVersion: h.version,
          status: h.status,
          documentation: {
            openapi: `${deps.publicUrl}/api/docs/openapi.json`,
            ui: `${deps.publicUrl}/api/docs`,
            postman: `${deps.publicUrl}/docs/postman/collection.json`,
          },
          authentication: ['Authorization: Bearer <API_KEY>', 'X-API-Key: <API_KEY>'],
          features: deps.features,
          routes: [...deps.routes].sort((a, b) => compare(a.path, b.path) || compare(a.method, b.method)),
        }
      },
    )
  }
}
