import { createRequire } from 'node:module'
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify'
import { ErrorBody } from '../../src/contract/common.js'
import { AppError } from './errors.js'
import { lazyCompilers } from './lazy-compilers.js'

const require = createRequire(import.meta.url)

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Validation error (see details)',
  '401': 'API key missing, malformed, invalid, inactive, expired or revoked',
  '403': 'The key lacks the permission, or the client IP is not in its allowlist',
  '404': 'Not found, or it belongs to another organization',
  '429': 'Rate limit exceeded; see Retry-After',
}

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed in the current window' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the current window' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Unix seconds when the window resets' },
}

type Json = Record<string, unknown>

type DocRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>

/** Response headers of the docs instance that describe its own connection, not the content. */
const HOP_HEADERS = new Set(['transfer-encoding', 'connection', 'keep-alive', 'date'])

/**
 * OpenAPI 3.0 generated from the route schemas that also validate requests, served at
 * /api/docs/openapi.json, with the docs UI at /api/docs and a Postman collection at
 * /docs/postman/collection.json.
 *
 * The generator and the UI live in a second Fastify instance built on the first documentation
 * request from the route definitions recorded here: most daemons never serve their docs, and
 * loading them up front cost ~7 MB of resident memory and ~35 ms of start-up.
 */
export function installOpenApi(app: FastifyInstance, opts: { version: string; publicUrl: string }): void {
  app.addSchema(ErrorBody)
  const routes: DocRoute[] = []
  app.addHook('onRoute', (r) => {
    // HEAD routes are Fastify's automatic twins of GET ones; the docs instance makes its own.
    const method = (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD')
    if (method.length && !(r.schema as { hide?: boolean } | undefined)?.hide)
      routes.push({ method, url: r.url, schema: r.schema, config: r.config })
  })
  let docs: Promise<FastifyInstance> | undefined
  const docsApp = () => (docs ??= buildDocsApp(routes, opts))

  app.get('/api/docs/openapi.json', { schema: { hide: true } }, async () => (await docsApp()).swagger())

  let postman: Promise<unknown> | undefined
  app.get('/docs/postman/collection.json', { schema: { hide: true } }, async () => {
    const spec = (await docsApp()).swagger() as unknown as Json
    postman ??= toPostman(spec).catch((err: unknown) => {
      postman = undefined
      throw err
    })
    return postman
  })

  // The docs UI: its HTML, scripts and configuration, answered by the docs instance.
  const ui = async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = { ...request.headers }
    delete headers.host
    const res = await (await docsApp()).inject({ method: request.method as 'GET', url: request.url, headers })
    if (res.statusCode === 404)
      throw new AppError('NotFound', `no route ${request.method} ${request.url.split('?')[0] ?? ''}`)
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value)
    return reply.code(res.statusCode).send(res.rawPayload)
  }
  app.get('/api/docs', { schema: { hide: true } }, ui)
  app.get('/api/docs/*', { schema: { hide: true } }, ui)
}

async function buildDocsApp(routes: DocRoute[], opts: { version: string; publicUrl: string }) {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ])
  const docs = Fastify({ schemaController: lazyCompilers() })
  docs.addSchema(ErrorBody)
  await docs.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'linkd API',
        version: opts.version,
        description:
          'Short links, custom domains, API keys, webhooks and game analytics. Authenticate with `Authorization: Bearer <key>` or `X-API-Key: <key>`. Every error carries the error body; every response carries X-RateLimit-* headers.',
      },
      servers: [{ url: opts.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'lk_live_… or lk_test_… API key' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const s = { ...(schema as Json) } as Json & { response?: Json; hide?: boolean }
      const auth = route.config?.auth
      const response: Json = { ...(s.response ?? {}) }
      for (const [code, description] of Object.entries(ERROR_RESPONSES)) {
        if (!auth && (code === '401' || code === '403')) continue
        if (!(code in response)) response[code] = { description, ...ErrorBodyRef }
      }
      for (const [code, r] of Object.entries(response)) {
        if (code.startsWith('2') && r && typeof r === 'object')
          response[code] = { ...(r as Json), headers: RATE_LIMIT_HEADERS }
      }
      s.response = response
      if (auth) {
        s.security = [{ bearerAuth: [] }, { apiKeyHeader: [] }]
        if (auth !== true)
          s.description = `${typeof s.description === 'string' ? `${s.description}\n\n` : ''}Permission: \`${auth}\``
      }
      return { schema: s, url }
    },
  })
  await docs.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true })
  const noop = async () => null
  for (const r of routes) docs.route({ ...r, handler: noop } as RouteOptions)
  await docs.ready()
  return docs
}

const ErrorBodyRef = { content: { 'application/json': { schema: { $ref: 'ErrorBody#' } } } }

/** A documented error answer of a route schema (the spec's error body). */
export function errorRef(description: string) {
  return { description, ...ErrorBodyRef }
}

interface PostmanConverter {
  convert(
    input: { type: 'json'; data: Json },
    options: Json,
    cb: (
      err: Error | null,
      result: { result: boolean; reason?: string; output?: Array<{ data: unknown }> },
    ) => void,
  ): void
}

function toPostman(spec: Json): Promise<unknown> {
  const converter = require('openapi-to-postmanv2') as PostmanConverter
  return new Promise((resolve, reject) => {
    converter.convert(
      { type: 'json', data: spec },
      { folderStrategy: 'Paths', requestParametersResolution: 'Example' },
      (err, res) => {
        if (err) return reject(err)
        if (!res.result || !res.output?.[0])
          return reject(
            new AppError('InternalError', `Postman conversion failed: ${res.reason ?? 'unknown'}`),
          )
        resolve(res.output[0].data)
      },
    )
  })
}
