import { createRequire } from 'node:module'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { ErrorBody } from '../../src/contract/common.js'
import { AppError } from './errors.js'

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

/**
 * OpenAPI 3.0 generated from the route schemas that also validate requests, served at
 * /api/docs/openapi.json, with the docs UI at /api/docs and a Postman collection at
 * /docs/postman/collection.json.
 */
export async function installOpenApi(
  app: FastifyInstance,
  opts: { version: string; publicUrl: string },
): Promise<void> {
  app.addSchema(ErrorBody)
  await app.register(swagger, {
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
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true })

  app.get('/api/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  let postman: unknown
  app.get('/docs/postman/collection.json', { schema: { hide: true } }, async () => {
    postman ??= await toPostman(app.swagger() as unknown as Json)
    return postman
  })
}

const ErrorBodyRef = { content: { 'application/json': { schema: { $ref: 'ErrorBody#' } } } }

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
