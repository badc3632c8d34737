/**
 * The rules that make the generated OpenAPI document a contract other tools can rely on: the
 * statuses every route can answer, operation ids, security requirements, tags, request examples,
 * and the Postman collection's variables. Used by ./openapi.ts.
 */
import { EXAMPLE_TIME_ISO, EXAMPLE_UUIDS, requestExamples } from './openapi-examples.js'

type Json = Record<string, unknown>

/** The tags of the document, each with a description (every operation's tag must be here). */
export const TAGS = [
  { name: 'Health', description: 'Liveness and readiness of the service, with the status of its jobs' },
  { name: 'Discovery', description: 'The API version, its routes with their permissions, and health' },
  { name: 'API keys', description: 'Keys, their scopes, limits and IP allowlists, and their request log' },
  { name: 'Team', description: 'Members with roles, invitations, and who the presented key is' },
  { name: 'Audit log', description: 'Who changed what: one entry per successful write, kept 365 days' },
  { name: 'Links', description: 'Short links: create (one or in bulk), list, update, delete, QR codes' },
  {
    name: 'Smart links',
    description: 'One short URL per app: iOS, Android and desktop targets, a fallback, click ids',
  },
  {
    name: 'QR codes',
    description: 'Styled QR codes of links and smart links, one per flyer or poster, each with its own scans',
  },
  { name: 'Analytics', description: 'Click analytics of a short link over a date range' },
  { name: 'Custom domains', description: 'Own domains for short links: DNS verification and certificates' },
  {
    name: 'Safety',
    description: 'Lists of hosts link destinations may not use (phishing and malware feeds); flagged links',
  },
  { name: 'Webhooks', description: 'Signed event deliveries to your receivers, their log and health' },
  {
    name: 'Exports',
    description: 'Raw events and clicks written each night to S3-compatible object storage (Hive-style days)',
  },
  { name: 'Games', description: 'Games of the organization, with their SDK keys and signing secrets' },
  { name: 'Gaming ingestion', description: 'Event batches sent by game SDKs (SDK key, not an API key)' },
  { name: 'Gaming analytics', description: 'Daily game metrics: DAU, MAU, revenue, sessions, retention' },
  {
    name: 'Fraud',
    description: 'Fraud rules (with the six templates) and the IP and device blocklist of a game',
  },
  { name: 'GDPR', description: "Deletion of a player's data on request" },
  {
    name: 'SKAN',
    description: 'SKAdNetwork campaigns with conversion schemas, Apple-signed postbacks and campaign reports',
  },
]

/** `post /api/keys/:id/regenerate` → `postApiKeysByIdRegenerate`: stable, unique per route. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/),
    )
    .filter(Boolean)
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('')
}

const ErrorBodyRef = { content: { 'application/json': { schema: { $ref: 'ErrorBody#' } } } }
const IDEMPOTENT = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

const IDEMPOTENCY_409 = 'a request with the same X-Idempotency-Key is still in progress'
const IDEMPOTENCY_422 = 'the X-Idempotency-Key was already used with a different request'

export const IDEMPOTENCY_HEADER = {
  'X-Idempotency-Key': {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    description:
      'Optional (UUID v4 recommended): a repeat within 24 h from the same API key replays the first response with Idempotent-Replayed: true',
  },
}

/** Headers of the SDK-key authentication of ingestion, besides `Authorization: Bearer <SDK_KEY>`. */
export const SDK_KEY_HEADERS = {
  type: 'object',
  required: ['X-Game-ID', 'X-Organization-ID'],
  properties: {
    'X-Game-ID': { type: 'string', description: 'The game id (its slug)' },
    'X-Organization-ID': {
      type: 'string',
      description: 'The id (org_…) of the organization owning the game',
    },
    'X-Timestamp': {
      type: 'string',
      pattern: '^[0-9]{1,15}$',
      description: 'Unix ms; with X-Signature, required when the game requires HMAC signing',
    },
    'X-Signature': {
      type: 'string',
      pattern: '^sha256=[0-9a-f]{64}$',
      description:
        'sha256=<hex>: HMAC-SHA256 with the signing secret over `<X-Timestamp>.<body as sent>`; required when the game requires HMAC signing',
    },
  },
}

interface RouteFacts {
  method: string
  url: string
  /** The route authenticates with an API key. */
  auth: boolean
  /** The route authenticates with a game SDK key. */
  sdkKey: boolean
}

/**
 * The documented responses of a route: its own, plus every status the framework or the shared
 * hooks can answer on it (each with the error body). Additive: a status the route documents keeps
 * its description, the idempotency case is appended to it.
 */
export function responsesOf(declared: Json, route: RouteFacts): Json {
  const response: Json = { ...declared }
  const add = (code: string, description: string, extra: Json = {}) => {
    if (!(code in response)) response[code] = { description, ...ErrorBodyRef, ...extra }
  }
  const addOrAppend = (code: string, description: string) => {
    const current = response[code] as Json | undefined
    if (!current) return add(code, capitalize(description))
    const text = typeof current.description === 'string' ? current.description : ''
    if (!text.includes('X-Idempotency-Key'))
      response[code] = { ...current, description: text ? `${text}; or ${description}` : description }
  }
  const bodyful = IDEMPOTENT.has(route.method)
  add('400', 'Validation error (see details), or a malformed URL')
  if (route.auth) {
    add('401', 'API key missing, malformed, invalid, inactive, expired or revoked')
    add('403', 'The key lacks the permission, or the client IP is not in its allowlist')
  }
  if (route.url.includes('/:')) add('404', 'Not found, or it belongs to another organization')
  if (route.auth && bodyful) {
    addOrAppend('409', IDEMPOTENCY_409)
    addOrAppend('422', IDEMPOTENCY_422)
  }
  if (bodyful) {
    add('413', 'The request body is too large')
    add('415', 'The body is not application/json')
  }
  const retryAfter = {
    'Retry-After': { type: 'integer', description: 'Seconds until a request may succeed' },
  }
  add('429', 'Rate limit exceeded', { headers: retryAfter })
  const limited = response['429'] as Json
  if (!limited.headers) response['429'] = { ...limited, headers: retryAfter }
  return response
}

const capitalize = (s: string) => s[0]!.toUpperCase() + s.slice(1)

/** The security requirement of an operation: public routes say so with `[]`. */
export function securityOf(route: RouteFacts): Array<Record<string, string[]>> {
  if (route.auth) return [{ bearerAuth: [] }, { apiKeyHeader: [] }]
  if (route.sdkKey) return [{ sdkKey: [] }]
  return []
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/**
 * The document as served: a copy of the generated one (which stays untouched) with the request
 * examples (fixed values: the document is the same on every fetch).
 */
export function finalizeDocument(generated: Json): Json {
  const doc = structuredClone(generated)
  const examples = requestExamples()
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>))
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue
      const example = examples[`${method.toUpperCase()} ${path}`]
      const media = (op as { requestBody?: { content?: Record<string, Json> } }).requestBody?.content?.[
        'application/json'
      ]
      if (media && example !== undefined) media.example = example
    }
  return doc
}

interface PostmanRequest {
  method?: string
  url?: { path?: string[]; variable?: unknown[] }
  header?: Array<{ key: string; value: string; disabled?: boolean }>
  auth?: { type: string; bearer?: Array<{ key: string; value: string }> } | null
  body?: { raw?: string }
}
interface PostmanItem {
  item?: PostmanItem[]
  request?: PostmanRequest
}
interface PostmanCollection {
  item: PostmanItem[]
  variable?: Array<{ key: string; value: string; type?: string; description?: string }>
}

const VARIABLES: Record<string, string> = {
  baseUrl: 'Base URL of the linkd server',
  bearerToken: 'An API key (lk_live_… or lk_test_…), sent as Authorization: Bearer',
  apiKey: 'An API key, sent as X-API-Key',
  sdkKey: 'The SDK key of a game (game ingestion only)',
  gameId: 'The id (slug) of the game the SDK key belongs to',
  organizationId: 'The id (org_…) of the organization owning the game',
}
/** Header values taken from a variable in the collection. */
const HEADER_VARIABLES: Record<string, string> = {
  'x-game-id': '{{gameId}}',
  'x-organization-id': '{{organizationId}}',
  'x-idempotency-key': '{{$guid}}',
}

/**
 * The converted collection, made to run as is: SDK-key requests use `{{sdkKey}}` and the game
 * headers' variables, the examples' fixed time (where the rules want the current one) and UUIDs
 * become Postman's `{{$isoTimestamp}}` and `{{$guid}}` (fresh on every send), and every variable
 * used is declared.
 */
export function finishCollection(collection: PostmanCollection, doc: Json): PostmanCollection {
  const sdkOperations = new Set<string>()
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>))
    for (const [method, op] of Object.entries(item))
      if (((op as { security?: Json[] }).security ?? []).some((s) => 'sdkKey' in s))
        sdkOperations.add(`${method.toUpperCase()} ${path}`)
  const visit = (items: PostmanItem[]) => {
    for (const it of items) {
      if (it.item) visit(it.item)
      const r = it.request
      if (!r) continue
      const path = `/${(r.url?.path ?? []).map((s) => s.replace(/^:(.+)$/, '{$1}')).join('/')}`
      if (sdkOperations.has(`${r.method ?? ''} ${path}`) && r.auth?.type === 'bearer')
        r.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{sdkKey}}' }] }
      for (const h of r.header ?? []) {
        const value = HEADER_VARIABLES[h.key.toLowerCase()]
        if (value) h.value = value
      }
      if (r.body?.raw) {
        let raw = r.body.raw.split(`"${EXAMPLE_TIME_ISO}"`).join('"{{$isoTimestamp}}"')
        for (const uuid of EXAMPLE_UUIDS) raw = raw.split(`"${uuid}"`).join('"{{$guid}}"')
        r.body.raw = raw
      }
    }
  }
  visit(collection.item)
  const used = new Set([...JSON.stringify(collection).matchAll(/\{\{([^{}$][^{}]*)\}\}/g)].map((m) => m[1]!))
  const variable = [...(collection.variable ?? [])]
  for (const v of variable) v.description ??= VARIABLES[v.key]
  for (const key of used)
    if (!variable.some((v) => v.key === key))
      variable.push({ key, value: '', type: 'string', description: VARIABLES[key] ?? `Value of ${key}` })
  return { ...collection, variable }
}
