import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../clock.js'
import { ROLE_SCOPES, canonicalScope, type Role, type Scope } from '../../src/contract/scopes.js'
import { PERIOD_MS, type TimePeriod } from '../../src/contract/limits.js'
import { clientKey } from '../addresses.js'
import { AppError } from './errors.js'
import { addRouteHook } from './route-hooks.js'
import { ipAllowed, parseAllowEntry, type AllowEntry } from './ip-allowlist.js'
import {
  evaluate,
  setRateLimitHeaders,
  type LimitState,
  type LocalRateLimitStore,
  type RateLimitStore,
} from './rate-limit.js'

/** The authenticated caller of a request. */
export interface Principal {
  keyId: string
  organizationId: string
  /** The team member the key belongs to, and its role as read for this request. */
  memberId: string
  role: Role
  name: string
  /** The key's effective scopes: its own scopes within its member's role (every scope check). */
  permissions: readonly string[]
  requestLimit: number
  timePeriod: TimePeriod
  allowedIps: readonly string[]
}

export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; reason: string }

/**
 * Per-route access declaration: `config: { auth: 'links:read' }` requires a key with that scope,
 * `config: { auth: true }` any valid key. Routes without `auth` are public.
 */
export interface AccessConfig {
  auth?: Scope | true
  /**
   * `false` for the short-link redirects: they are not API calls, so instead of the API's per-IP
   * limit they count in their own, much larger per-IP window (one office behind a NAT must not
   * exhaust a link, while a single flooding address is still stopped).
   */
  apiRateLimit?: false
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AccessConfig['auth']
    apiRateLimit?: AccessConfig['apiRateLimit']
  }
  interface FastifyRequest {
    principal?: Principal
  }
}

/** The methods of writes: authorized again before their handler runs. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

const REASON_TEXT: Record<string, string> = {
  missing: 'an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>',
  malformed: 'the API key is malformed',
  nonexistent: 'the API key is invalid',
  revoked: 'the API key has been revoked',
  expired: 'the API key has expired',
  inactive: 'the API key is inactive',
}

export interface AccessDeps {
  clock: Clock
  /** The per-key and per-organization quotas (shared by every process on PostgreSQL). */
  limiter: RateLimitStore
  /** The per-IP windows: this process's. */
  localLimiter: LocalRateLimitStore
  perIpPerMinute: number
  /** Per-IP window of the redirect routes (`apiRateLimit: false`). */
  redirectsPerIpPerMinute: number
  perOrgPerMinute: number
  /** Requests per minute shared by all keys of one team member. */
  perMemberPerMinute: number
  authenticate(raw: string | undefined): Promise<AuthOutcome>
  /** Called for every response to an authenticated request (activity log, usage counters). */
  onAuthenticatedResponse?(request: FastifyRequest, reply: FastifyReply): void
}

/** The presented key: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization
  if (typeof auth === 'string' && auth.length > 0) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth)
    return m ? m[1] : 'malformed'
  }
  const header = request.headers['x-api-key']
  return typeof header === 'string' && header.length > 0 ? header.trim() : undefined
}

/** The per-key window as it stands, without counting (the key tester). */
export async function keyLimitState(
  limiter: RateLimitStore,
  k: { id: string; requestLimit: number; timePeriod: TimePeriod },
  now: number,
): Promise<LimitState> {
  return evaluate(await limiter.peek(`key:${k.id}`, PERIOD_MS[k.timePeriod], now), k.requestLimit, now)
}

function tooMany(s: LimitState, tier: string): AppError {
  return new AppError(
    'RateLimitExceeded',
    `rate limit exceeded (${tier}: ${s.limit} requests per window); retry after ${s.retryAfter} s`,
    undefined,
    {
      'retry-after': String(s.retryAfter),
    },
  )
}

/** Entries were validated when the key was saved; anything unparsable is skipped, never widened. */
function allowEntries(list: readonly string[]): AllowEntry[] {
  return list.map(parseAllowEntry).filter((e): e is AllowEntry => e !== undefined)
}

/**
 * Rate limits (per IP on every request; per key and per organization once authenticated),
 * authentication, IP allowlists and scopes, in that order, as one onRequest hook so that 401/403
 * and 429 come before body parsing.
 */
export function installAccess(
  app: FastifyInstance,
  deps: AccessDeps,
): { limitIp(request: FastifyRequest, reply: FastifyReply): void } {
  app.decorateRequest('principal', undefined)

  /** Counts the request against its IP's window, sets the headers, throws 429 over the limit. */
  function limitIp(request: FastifyRequest, reply: FastifyReply): void {
    const now = deps.clock.now()
    const redirect = request.routeOptions.config.apiRateLimit === false
    const client = clientKey(request.ip)
    const ipState = redirect
      ? evaluate(deps.localLimiter.hit(`rip:${client}`, 60_000, now), deps.redirectsPerIpPerMinute, now)
      : evaluate(deps.localLimiter.hit(`ip:${client}`, 60_000, now), deps.perIpPerMinute, now)
    setRateLimitHeaders(reply, ipState)
    if (ipState.exceeded) throw tooMany(ipState, 'per IP')
  }

  /** The presented key's principal as it stands now, from this request's address (401, 403). */
  async function identify(request: FastifyRequest): Promise<Principal> {
    const outcome = await deps.authenticate(presentedKey(request))
    if (!outcome.ok)
      throw new AppError('Unauthorized', REASON_TEXT[outcome.reason] ?? 'the API key is invalid')
    const p = outcome.principal
    request.principal = p
    if (p.allowedIps.length > 0 && !ipAllowed(request.ip, allowEntries(p.allowedIps)))
      throw new AppError('Forbidden', `requests from ${request.ip} are not allowed for this API key`)
    return p
  }

  function assertScope(p: Principal, required: Scope | true): void {
    if (required !== true && !hasScope(p.permissions, required))
      throw new AppError(
        'Forbidden',
        ROLE_SCOPES[p.role].includes(required)
          ? `this API key lacks the ${required} permission`
          : `the ${p.role} role does not allow ${required}; a team admin can change the role`,
      )
  }

  /** Authentication, allowlist, key and organization windows, scope: routes declaring `auth`. */
  async function authorize(
    request: FastifyRequest,
    reply: FastifyReply,
    required: Scope | true,
  ): Promise<void> {
    const now = deps.clock.now()
    // The allowlist is checked before the key's quota is counted: requests from outside it must
    // not use it up.
    const p = await identify(request)

    // One step for the three windows (one statement on PostgreSQL), key → member → organization:
    // a request refused by an earlier window does not use up the later ones.
    const [keyHit, memberHit, orgHit] = await deps.limiter.hitTiers(
      [
        { bucket: `key:${p.keyId}`, windowMs: PERIOD_MS[p.timePeriod], limit: p.requestLimit },
        { bucket: `member:${p.memberId}`, windowMs: 60_000, limit: deps.perMemberPerMinute },
        { bucket: `org:${p.organizationId}`, windowMs: 60_000, limit: deps.perOrgPerMinute },
      ],
      now,
    )
    const keyState = evaluate(keyHit!, p.requestLimit, now)
    setRateLimitHeaders(reply, keyState)
    if (keyState.exceeded) throw tooMany(keyState, 'per API key')
    const memberState = evaluate(memberHit!, deps.perMemberPerMinute, now)
    if (memberState.exceeded) {
      setRateLimitHeaders(reply, memberState)
      throw tooMany(memberState, 'per member')
    }
    const orgState = evaluate(orgHit!, deps.perOrgPerMinute, now)
    if (orgState.exceeded) {
      setRateLimitHeaders(reply, orgState)
      throw tooMany(orgState, 'per organization')
    }

    assertScope(p, required)
  }

  // A callback hook, synchronous for public routes and redirects (the hot path pays no promise).
  app.addHook('onRequest', (request, reply, done) => {
    try {
      limitIp(request, reply)
    } catch (err) {
      done(err as Error)
      return
    }
    const required = request.routeOptions.config.auth
    if (required === undefined) {
      done()
      return
    }
    authorize(request, reply, required).then(() => done(), done)
  })

  // A write is authorized again once its body has arrived, right before its handler runs: the key,
  // its member and its role as they stand now (read from the store, as at the door), so a slow
  // body cannot outlive a removal, a revocation or a demotion. The handler acts as that principal.
  app.addHook('onRoute', (route) => {
    const required = route.config?.auth
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (required === undefined || !methods.some((m) => WRITES.has(m))) return
    const recheck = async (request: FastifyRequest) => {
      if (WRITES.has(request.method) && request.principal) assertScope(await identify(request), required)
    }
    addRouteHook(route, 'preHandler', recheck)
  })

  if (deps.onAuthenticatedResponse) {
    const cb = deps.onAuthenticatedResponse
    // Only routes that authenticate get the hook.
    app.addHook('onRoute', (route) => {
      if (route.config?.auth === undefined) return
      const hook = async (request: FastifyRequest, reply: FastifyReply) => {
        if (request.principal) cb(request, reply)
      }
      addRouteHook(route, 'onResponse', hook)
    })
  }
  return { limitIp }
}

export function hasScope(permissions: readonly string[], required: Scope): boolean {
  return permissions.some((s) => canonicalScope(s) === required)
}

/** The principal of an authenticated route (the access hook guarantees it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('Unauthorized', REASON_TEXT.missing!)
  return request.principal
}
