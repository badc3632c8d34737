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
import { DOCUMENTED_BODIES } from './openapi-examples.js'
import {
  finalizeDocument,
  finishCollection,
  IDEMPOTENCY_HEADER,
  operationIdOf,
  responsesOf,
  SDK_KEY_HEADERS,
  securityOf,
  TAGS,
} from './openapi-doc.js'

const require = createRequire(import.meta.url)

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed in the current window' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the current window' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Unix seconds when the window resets' },
}

type Json = Record<string, unknown>

type DocRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>

interface DocsOptions {
  version: string
  publicUrl: string
}

/**
 * The docs UI's Content-Security-Policy: @fastify/swagger-ui's static one without
 * `upgrade-insecure-requests`, which made browsers fetch the UI's scripts over HTTPS when the page
 * was reached over plain HTTP by a host name (a daemon on a LAN, a port without TLS).
 */
const DOCS_CSP =
  "default-src 'self'; base-uri 'self'; font-src 'self' https: data:; frame-ancestors 'self'; img-src 'self' data: validator.swagger.io; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' https:"

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
export function installOpenApi(app: FastifyInstance, opts: DocsOptions): void {
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

  const served = async () => finalizeDocument((await docsApp()).swagger() as unknown as Json)
  app.get('/api/docs/openapi.json', { schema: { hide: true } }, () => served())

  // The conversion takes about a second, and its result never changes: it is built once (again
  // after a failure). The converter changes the object it is given, so it gets its own copy.
  let postman: Promise<unknown> | undefined
  app.get('/docs/postman/collection.json', { schema: { hide: true } }, async () => {
    if (!postman) {
      const collection = served().then(async (doc) =>
        finishCollection((await toPostman(structuredClone(doc))) as never, doc),
      )
      postman = collection
      collection.catch(() => {
        if (postman === collection) postman = undefined
      })
    }
    return postman
  })

  // The docs UI: its HTML, scripts and configuration, answered by the docs instance. Static files
  // take no query, so none is passed on: with one, swagger-ui's redirect of static/index.html
  // kept it and pointed at itself (a redirect loop).
  const ui = async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = { ...request.headers }
    delete headers.host
    const path = request.url.split('?')[0] ?? ''
    const res = await (await docsApp()).inject({ method: request.method as 'GET', url: path, headers })
    if (res.statusCode === 404) throw new AppError('NotFound', `no route ${request.method} ${path}`)
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value)
    return reply.code(res.statusCode).send(res.rawPayload)
  }
  app.get('/api/docs', { schema: { hide: true } }, ui)
  app.get('/api/docs/*', { schema: { hide: true } }, ui)
}

async function buildDocsApp(routes: DocRoute[], opts: DocsOptions) {
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
        contact: { name: 'The operator of this linkd server', url: opts.publicUrl },
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      servers: [{ url: opts.publicUrl }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'lk_live_… or lk_test_… API key' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          sdkKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'SDK key',
            description:
              "A game's SDK key (`Authorization: Bearer <SDK_KEY>`), with the X-Game-ID and X-Organization-ID headers",
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const s = { ...(schema as Json) } as Json & { response?: Json; headers?: Json }
      const method = (Array.isArray(route.method) ? route.method : [route.method]).find((m) => m !== 'HEAD')!
      const auth = route.config?.auth
      const facts = { method, url, auth: auth !== undefined, sdkKey: route.config?.sdkKey === true }
      const response = responsesOf(s.response ?? {}, facts)
      for (const [code, r] of Object.entries(response)) {
        if (code.startsWith('2') && r && typeof r === 'object')
          response[code] = { ...(r as Json), headers: RATE_LIMIT_HEADERS }
      }
      s.response = response
      s.operationId ??= operationIdOf(method, url)
      s.security = securityOf(facts)
      const extra: Record<string, unknown> = {}
      const documented = DOCUMENTED_BODIES[`${method} ${url}`]
      if (documented) {
        s.body ??= documented.body
        Object.assign(extra, documented.headers)
      }
      if (facts.sdkKey) Object.assign(extra, SDK_KEY_HEADERS.properties)
      if (facts.auth && ['POST', 'PATCH', 'PUT', 'DELETE'].includes(method))
        Object.assign(extra, IDEMPOTENCY_HEADER)
      if (Object.keys(extra).length) {
        const own = (s.headers ?? {}) as { properties?: Json; required?: string[] }
        s.headers = {
          type: 'object',
          properties: { ...own.properties, ...extra },
          required: [...(own.required ?? []), ...(facts.sdkKey ? SDK_KEY_HEADERS.required : [])],
        }
      }
      const access = facts.auth
        ? auth === true
          ? 'Any valid API key.'
          : `Permission: \`${auth}\``
        : facts.sdkKey
          ? "Authenticated with the game's SDK key, not an API key."
          : 'Public: no key needed.'
      s.description = `${typeof s.description === 'string' ? `${s.description}\n\n` : ''}${access}`
      return { schema: s, url }
    },
  })
  await docs.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: DOCS_CSP,
    // The UI shows the document as served at /api/docs/openapi.json.
    transformSpecificationClone: false,
    transformSpecification: (spec) => finalizeDocument(spec as Json),
  })
  const noop = async () => null
  for (const r of routes) docs.route({ ...r, handler: noop } as RouteOptions)
  await docs.ready()
  return docs
}

/** A documented error answer of a route schema (the error body, ErrorBody in src/contract/common.ts). */
export function errorRef(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: 'ErrorBody#' } } } }
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
      // Optional parameters are left disabled: the collection runs as is.
      { folderStrategy: 'Paths', requestParametersResolution: 'Example', enableOptionalParameters: false },
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
