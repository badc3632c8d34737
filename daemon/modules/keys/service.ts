import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.js'
import { iso, isoOrNull, utcDay, utcMonth } from '../../clock.js'
import type { Database } from '../../db/schema.js'
import type { EventBus } from '../../events.js'
import { newId, randomToken, safeEqual, sha256Hex } from '../../crypto.js'
import { AppError, notFound } from '../../http/errors.js'
import { formatAllowEntry, parseAllowEntry } from '../../http/ip-allowlist.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { PageOf } from '../../../src/contract/common.js'
import {
  API_KEY_PATTERN,
  type ApiKey,
  type ApiKeyWithSecret,
  type CreateKeyBody,
  type KeyActivity,
  type KeyTestResult,
  type ListKeysQuery,
  type UpdateKeyBody,
} from '../../../src/contract/keys.js'
import { API_KEYS_PER_PLAN, KEY_LIMITS, type Plan } from '../../../src/contract/limits.js'
import { PRESETS, SCOPES, normalizeScopes, type Scope } from '../../../src/contract/scopes.js'
import type { OrgService } from '../orgs/service.js'
import { createKeyStore, type KeyRecord } from './store.js'
import { createUsageRecorder, type RequestUsage } from './usage.js'

export type { KeyRecord }
export type AuthFailure = 'missing' | 'malformed' | 'nonexistent' | 'revoked' | 'expired' | 'inactive'
export type AuthResult = { ok: true; key: KeyRecord } | { ok: false; reason: AuthFailure }

const KEY_PREFIX = 'lk'

/** Hash of the part after `lk_`, as stored. */
export function hashKeyValue(raw: string): string {
  return sha256Hex(raw.slice(KEY_PREFIX.length + 1))
}

/** `lk_•••` + last four characters. */
export function maskKey(lastFour: string): string {
  return `${KEY_PREFIX}_\u2022\u2022\u2022${lastFour}`
}

/** Status as users see it: an active or inactive key past its expiry is expired. */
export function effectiveStatus(k: KeyRecord, now: number): KeyRecord['status'] {
  if ((k.status === 'active' || k.status === 'inactive') && k.expiresAt !== null && k.expiresAt <= now)
    return 'expired'
  return k.status
}

export function presentKey(k: KeyRecord, now: number): ApiKey {
  const today = utcDay(now)
  const month = utcMonth(now)
  return {
    id: k.id,
    name: k.name,
    description: k.description,
    environment: k.environment,
    permissions: k.permissions,
    requestLimit: k.requestLimit,
    timePeriod: k.timePeriod,
    allowedIps: k.allowedIps,
    allowedOrigins: k.allowedOrigins,
    expiresAt: isoOrNull(k.expiresAt),
    status: effectiveStatus(k, now),
    preview: maskKey(k.lastFour),
    createdAt: iso(k.createdAt),
    updatedAt: iso(k.updatedAt),
    lastUsedAt: isoOrNull(k.lastUsedAt),
    lastUsedIp: k.lastUsedIp,
    revokedAt: isoOrNull(k.revokedAt),
    usage: {
      totalRequests: k.totalRequests,
      requestsToday: k.usageDay === today ? k.requestsToday : 0,
      requestsThisMonth: k.usageMonth === month ? k.requestsThisMonth : 0,
    },
  }
}

function generateValue(environment: 'live' | 'test'): { raw: string; hash: string; lastFour: string } {
  const raw = `${KEY_PREFIX}_${environment}_${randomToken()}`
  return { raw, hash: hashKeyValue(raw), lastFour: raw.slice(-4) }
}

function parseExpiry(value: string | null | undefined, now: number): number | null | undefined {
  if (value === undefined || value === null) return value
  const ms = Date.parse(value)
  if (Number.isNaN(ms))
    throw new AppError('ValidationError', 'expiresAt is not a valid date', [
      { field: 'expiresAt', message: 'must be an ISO 8601 date-time' },
    ])
  if (ms <= now)
    throw new AppError('ValidationError', 'expiresAt must be in the future', [
      { field: 'expiresAt', message: 'must be in the future' },
    ])
  return ms
}

function parseIps(list: string[]): string[] {
  const details = list.flatMap((v, i) =>
    parseAllowEntry(v)
      ? []
      : [{ field: `allowedIps.${i}`, message: `"${v}" is not an IP address or CIDR range` }],
  )
  if (details.length) throw new AppError('ValidationError', details[0]!.message, details)
  return [...new Set(list.map((v) => formatAllowEntry(parseAllowEntry(v)!)))]
}

function parseOrigins(list: string[]): string[] {
  const out: string[] = []
  list.forEach((v, i) => {
    let origin: string | undefined
    try {
      const u = new URL(v)
      if (
        (u.protocol === 'http:' || u.protocol === 'https:') &&
        (u.pathname === '/' || u.pathname === '') &&
        !u.search &&
        !u.hash
      )
        origin = u.origin
    } catch {
      origin = undefined
    }
    if (!origin)
      throw new AppError(
        'ValidationError',
        `allowedOrigins.${i}: "${v}" is not an origin like https://app.example.com`,
        [{ field: `allowedOrigins.${i}`, message: 'must be an origin such as https://app.example.com' }],
      )
    out.push(origin)
  })
  return [...new Set(out)]
}

export interface KeyServiceDeps {
  db: Kysely<Database>
  clock: Clock
  events: EventBus
  orgs: OrgService
  /** Country of an IP for the activity log, when a geolocation database is available. */
  countryOf?: (ip: string) => string | null
}

export function createKeyService(deps: KeyServiceDeps) {
  const store = createKeyStore(deps.db)
  const usage = createUsageRecorder({
    store,
    clock: deps.clock,
    ...(deps.countryOf ? { countryOf: deps.countryOf } : {}),
  })
  const now = () => deps.clock.now()

  async function load(organizationId: string, id: string): Promise<KeyRecord> {
    await usage.flush()
    const k = await store.byId(organizationId, id)
    if (!k) throw notFound(`API key ${id}`)
    return k
  }
  function assertNotRevoked(k: KeyRecord, action: string): void {
    if (k.status === 'revoked')
      throw new AppError('Conflict', `API key ${k.id} is revoked; it cannot be ${action}`)
  }
  /** Refuses a new usable key (created, or an expired one brought back) beyond the plan's limit. */
  async function assertPlanRoom(organizationId: string, t: number): Promise<void> {
    const org = await deps.orgs.get(organizationId)
    const max = API_KEYS_PER_PLAN[org.plan as Plan]
    if (max !== null && max !== undefined && (await store.countUsable(organizationId, t)) >= max)
      throw new AppError(
        'Forbidden',
        `the ${org.plan} plan allows ${max} API keys; revoke or delete one, or upgrade the plan`,
      )
  }
  function checkGrantable(requested: Scope[], callerScopes: readonly string[] | undefined): void {
    if (!callerScopes) return
    const missing = requested.filter((s) => !callerScopes.includes(s))
    if (missing.length)
      throw new AppError('Forbidden', `a key cannot grant scopes it does not hold: ${missing.join(', ')}`)
  }

  return {
    usage,

    /**
     * Creates a key. `callerScopes` (the creating key's own scopes) bounds what it may grant;
     * omit it for the owner key created by `linkd init` / `linkd org create`.
     */
    async create(
      organizationId: string,
      body: CreateKeyBody,
      callerScopes?: readonly string[],
    ): Promise<ApiKeyWithSecret> {
      const t = now()
      if (body.permissions && body.preset)
        throw new AppError('ValidationError', 'give either permissions or preset, not both', [
          { field: 'preset', message: 'cannot be combined with permissions' },
        ])
      const permissions = normalizeScopes(body.preset ? PRESETS[body.preset] : (body.permissions ?? []))
      checkGrantable(permissions, callerScopes)
      await assertPlanRoom(organizationId, t)
      const environment = body.environment ?? 'live'
      const value = generateValue(environment)
      const record: KeyRecord = {
        id: newId('key'),
        organizationId,
        name: body.name.trim(),
        description: body.description ?? null,
        prefix: KEY_PREFIX,
        environment,
        keyHash: value.hash,
        lastFour: value.lastFour,
        permissions,
        requestLimit: body.requestLimit ?? KEY_LIMITS.requestLimitDefault,
        timePeriod: body.timePeriod ?? 'hour',
        allowedIps: parseIps(body.allowedIps ?? []),
        allowedOrigins: parseOrigins(body.allowedOrigins ?? []),
        expiresAt: parseExpiry(body.expiresAt, t) ?? null,
        status: 'active',
        revokedAt: null,
        createdAt: t,
        updatedAt: t,
        lastUsedAt: null,
        lastUsedIp: null,
        totalRequests: 0,
        usageDay: null,
        requestsToday: 0,
        usageMonth: null,
        requestsThisMonth: 0,
      }
      await store.insert(record)
      deps.events.emit(
        'api_key.created',
        { organizationId, data: { id: record.id, name: record.name, permissions, createdAt: iso(t) } },
        t,
      )
      return { ...presentKey(record, t), key: value.raw }
    },

    /** The owner key of an organization: every scope, no limit on what it may grant. */
    async createOwnerKey(organizationId: string): Promise<ApiKeyWithSecret> {
      return this.create(organizationId, {
        name: 'owner',
        description: 'Owner key created at initialization',
        permissions: [...SCOPES],
        requestLimit: 100_000,
        timePeriod: 'hour',
      })
    },

    async list(organizationId: string, q: ListKeysQuery): Promise<PageOf<ApiKey>> {
      await usage.flush()
      const p = pageParams(q)
      const t = now()
      const { rows, total } = await store.list(organizationId, {
        status: q.status,
        search: q.search,
        now: t,
        limit: p.perPage,
        offset: p.offset,
      })
      return pageOf(
        rows.map((r) => presentKey(r, t)),
        total,
        p,
      )
    },

    async get(organizationId: string, id: string): Promise<ApiKey> {
      return presentKey(await load(organizationId, id), now())
    },

    async update(
      organizationId: string,
      id: string,
      body: UpdateKeyBody,
      callerScopes?: readonly string[],
    ): Promise<ApiKey> {
      const k = await load(organizationId, id)
      assertNotRevoked(k, 'edited')
      const t = now()
      const permissions = body.permissions ? normalizeScopes(body.permissions) : undefined
      if (permissions) checkGrantable(permissions, callerScopes)
      const expiresAt = parseExpiry(body.expiresAt, t)
      // A new (or removed) expiry on an expired key makes it usable again: it needs room in the plan.
      if (expiresAt !== undefined && effectiveStatus(k, t) === 'expired')
        await assertPlanRoom(organizationId, t)
      const patch = {
        updatedAt: t,
        ...(body.name !== undefined && { name: body.name.trim() }),
        ...(body.description !== undefined && { description: body.description }),
        ...(permissions && { permissions }),
        ...(body.requestLimit !== undefined && { requestLimit: body.requestLimit }),
        ...(body.timePeriod !== undefined && { timePeriod: body.timePeriod }),
        ...(body.allowedIps !== undefined && { allowedIps: parseIps(body.allowedIps) }),
        ...(body.allowedOrigins !== undefined && { allowedOrigins: parseOrigins(body.allowedOrigins) }),
        ...(expiresAt !== undefined && { expiresAt }),
        // A new (or removed) expiry brings an expired key back to active.
        ...(expiresAt !== undefined && k.status === 'expired' && { status: 'active' as const }),
      }
      await store.update(k.id, patch)
      return this.get(organizationId, id)
    },

    async regenerate(organizationId: string, id: string): Promise<ApiKeyWithSecret> {
      const k = await load(organizationId, id)
      assertNotRevoked(k, 'regenerated')
      if (effectiveStatus(k, now()) === 'expired')
        throw new AppError('Conflict', `API key ${k.id} is expired; set a new expiresAt first`)
      const value = generateValue(k.environment)
      await store.update(k.id, { keyHash: value.hash, lastFour: value.lastFour, updatedAt: now() })
      return { ...(await this.get(organizationId, id)), key: value.raw }
    },

    async revoke(organizationId: string, id: string): Promise<ApiKey> {
      const k = await load(organizationId, id)
      if (k.status === 'revoked') return presentKey(k, now())
      const t = now()
      await store.update(k.id, { status: 'revoked', revokedAt: t, updatedAt: t })
      deps.events.emit(
        'api_key.revoked',
        { organizationId, data: { id: k.id, name: k.name, revokedAt: iso(t), reason: 'revoked' } },
        t,
      )
      return this.get(organizationId, id)
    },

    async activate(organizationId: string, id: string): Promise<ApiKey> {
      const k = await load(organizationId, id)
      assertNotRevoked(k, 'activated')
      if (effectiveStatus(k, now()) === 'expired')
        throw new AppError('Conflict', `API key ${k.id} is expired; set a new expiresAt to reactivate it`)
      if (k.status !== 'active') await store.update(k.id, { status: 'active', updatedAt: now() })
      return this.get(organizationId, id)
    },

    async deactivate(organizationId: string, id: string): Promise<ApiKey> {
      const k = await load(organizationId, id)
      assertNotRevoked(k, 'deactivated')
      if (k.status === 'active') await store.update(k.id, { status: 'inactive', updatedAt: now() })
      return this.get(organizationId, id)
    },

    async delete(organizationId: string, id: string): Promise<void> {
      const k = await load(organizationId, id)
      await store.delete(k.id)
      const t = now()
      if (k.status !== 'revoked')
        deps.events.emit(
          'api_key.revoked',
          { organizationId, data: { id: k.id, name: k.name, revokedAt: iso(t), reason: 'deleted' } },
          t,
        )
    },

    async activity(
      organizationId: string,
      id: string,
      q: { page?: number; limit?: number; perPage?: number },
    ): Promise<PageOf<KeyActivity>> {
      const k = await load(organizationId, id)
      const p = pageParams(q)
      const { rows, total } = await store.activity(k.id, p.perPage, p.offset)
      return pageOf(
        rows.map((a) => ({
          id: a.id,
          timestamp: iso(a.ts),
          endpoint: a.endpoint,
          method: a.method,
          statusCode: a.statusCode,
          responseTimeMs: a.responseTimeMs,
          ip: a.ip,
          userAgent: a.userAgent,
          referrer: a.referrer,
          country: a.country,
          error: a.error,
        })),
        total,
        p,
      )
    },

    /** Resolves a presented key value to its record, or the reason it is refused. */
    async authenticate(raw: string | undefined): Promise<AuthResult> {
      if (!raw) return { ok: false, reason: 'missing' }
      if (!API_KEY_PATTERN.test(raw)) return { ok: false, reason: 'malformed' }
      const hash = hashKeyValue(raw)
      const k = await store.byHash(hash)
      if (!k || !safeEqual(k.keyHash, hash)) return { ok: false, reason: 'nonexistent' }
      const status = effectiveStatus(k, now())
      if (status !== 'active') return { ok: false, reason: status }
      return { ok: true, key: k }
    },

    /** The key tester of spec 5.1.6: validity, reason, and the key's identity and limits. */
    async test(raw: string, rateLimit: (k: KeyRecord) => KeyTestResult['rateLimit']): Promise<KeyTestResult> {
      const trimmed = raw.trim()
      if (!API_KEY_PATTERN.test(trimmed)) return { valid: false, reason: 'malformed' }
      const hash = hashKeyValue(trimmed)
      const k = await store.byHash(hash)
      if (!k || !safeEqual(k.keyHash, hash)) return { valid: false, reason: 'nonexistent' }
      const status = effectiveStatus(k, now())
      const org = await deps.orgs.get(k.organizationId)
      const info = {
        id: k.id,
        name: k.name,
        status,
        permissions: k.permissions,
        preview: maskKey(k.lastFour),
        expiresAt: isoOrNull(k.expiresAt),
        organization: { id: org.id, name: org.name, plan: org.plan },
      }
      const rl = rateLimit(k)
      if (status !== 'active')
        return { valid: false, reason: status, key: info, ...(rl && { rateLimit: rl }) }
      return { valid: true, key: info, ...(rl && { rateLimit: rl }) }
    },

    /** Buffers one authenticated request for the activity log and usage counters. */
    record(entry: RequestUsage): void {
      usage.record(entry)
    },

    /** Job: persists the expired transition of keys whose expiry passed. */
    async expireDue(): Promise<number> {
      return store.expireDue(now())
    },

    /** Job: drops activity older than the retention. */
    async pruneActivity(retentionDays: number): Promise<number> {
      return store.pruneActivity(now() - retentionDays * 86_400_000)
    },
  }
}
export type KeyService = ReturnType<typeof createKeyService>
