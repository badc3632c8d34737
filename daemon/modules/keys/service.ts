import type { Clock } from '../../clock.js'
import { DAY_MS, iso } from '../../clock.js'
import type { EventBus } from '../../events.js'
import { newId } from '../../crypto.js'
import { AppError, notFound } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { PageOf } from '../../../src/contract/common.js'
import {
  type ApiKey,
  type ApiKeyWithSecret,
  type CreateKeyBody,
  type KeyActivity,
  type ListKeysQuery,
  type UpdateKeyBody,
} from '../../../src/contract/keys.js'
import { API_KEYS_PER_PLAN, KEY_LIMITS, type Plan } from '../../../src/contract/limits.js'
import { PRESETS, SCOPES, normalizeScopes, type Preset, type Role } from '../../../src/contract/scopes.js'
import type { OrgService } from '../orgs/index.js'
import type { KeyRecord, KeyStore } from './store.js'
import { createUsageRecorder, type RequestUsage } from './usage.js'
import type { KeyService } from './api.js'
import { KEY_PREFIX, effectiveStatus, generateValue, parseIps, parseOrigins, presentKey } from './fields.js'
import { parseExpiry } from '../../http/expiry.js'
import { createKeyAuthentication } from './authentication.js'
import { createKeyGuards, type KeyCaller } from './guards.js'

/** Rate limit of the keys that stand for the whole organization (owner and recovery keys). */
const OWNER_REQUEST_LIMIT = 100_000

export interface KeyServiceDeps {
  store: KeyStore
  clock: Clock
  events: EventBus
  orgs: OrgService
  /** The member a key goes to when none is named: the organization's first owner (made if none). */
  ownerMember(organizationId: string): Promise<string>
  /** A member's role now (undefined once removed): a key counts as a key manager only within it. */
  roleOf(memberId: string): Promise<Role | undefined>
  /** Country of an IP for the activity log, when a geolocation database is available. */
  countryOf?: (ip: string) => string | null
}

export function createKeyService(deps: KeyServiceDeps): KeyService {
  const { store } = deps
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
  const { ownKeysOnly, assertOwnKey, checkGrantable, assertMayActOn, unlessLastKeyManager } =
    createKeyGuards(deps)

  return {
    usage,
    ...createKeyAuthentication(deps),

    /**
     * Creates a key. `callerScopes` (the creating key's own scopes) bounds what it may grant;
     * omit it for the owner key created by `linkd init` / `linkd org create`.
     */
    async create(
      organizationId: string,
      body: CreateKeyBody,
      callerScopes?: readonly string[],
      opts: { overPlanLimit?: boolean; memberId?: string } = {},
    ): Promise<ApiKeyWithSecret> {
      const t = now()
      if (body.permissions && body.preset)
        throw new AppError('ValidationError', 'give either permissions or preset, not both', [
          { field: 'preset', message: 'cannot be combined with permissions' },
        ])
      const permissions = normalizeScopes(body.preset ? PRESETS[body.preset] : (body.permissions ?? []))
      checkGrantable(permissions, callerScopes)
      if (!opts.overPlanLimit) await assertPlanRoom(organizationId, t)
      const environment = body.environment ?? 'live'
      const value = generateValue(environment)
      const memberId = opts.memberId ?? (await deps.ownerMember(organizationId))
      const record: KeyRecord = {
        id: newId('key'),
        organizationId,
        memberId,
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
        requestLimit: OWNER_REQUEST_LIMIT,
        timePeriod: 'hour',
      })
    },

    /**
     * Offline recovery (`linkd keys create`) for an organization that lost its keys. It is made
     * even when the plan's key limit is reached: a locked-out organization may well have used every
     * slot on keys it can no longer manage. It counts against the limit like any other key after.
     */
    async createRecoveryKey(
      organizationId: string,
      opts: { name: string; preset: Preset },
    ): Promise<ApiKeyWithSecret> {
      return this.create(
        organizationId,
        {
          name: opts.name,
          description: 'Recovery key created offline with linkd keys create',
          preset: opts.preset,
          requestLimit: OWNER_REQUEST_LIMIT,
          timePeriod: 'hour',
        },
        undefined,
        { overPlanLimit: true },
      )
    },

    async list(organizationId: string, q: ListKeysQuery, caller?: KeyCaller): Promise<PageOf<ApiKey>> {
      await usage.flush()
      const p = pageParams(q)
      const t = now()
      const { rows, total } = await store.list(organizationId, {
        status: q.status,
        search: q.search,
        memberId: ownKeysOnly(caller) ? caller!.memberId : undefined,
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

    async get(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKey> {
      const k = await load(organizationId, id)
      assertOwnKey(k, caller)
      return presentKey(k, now())
    },

    async update(
      organizationId: string,
      id: string,
      body: UpdateKeyBody,
      caller?: KeyCaller,
    ): Promise<ApiKey> {
      const k = await load(organizationId, id)
      await assertMayActOn(k, caller)
      assertNotRevoked(k, 'edited')
      const t = now()
      const permissions = body.permissions ? normalizeScopes(body.permissions) : undefined
      if (permissions) checkGrantable(permissions, caller?.permissions)
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
      if (permissions)
        await unlessLastKeyManager(k, 'narrowing the scopes of', permissions, (s) => s.update(k.id, patch))
      else await store.update(k.id, patch)
      return this.get(organizationId, id)
    },

    async regenerate(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKeyWithSecret> {
      const k = await load(organizationId, id)
      await assertMayActOn(k, caller)
      assertNotRevoked(k, 'regenerated')
      if (effectiveStatus(k, now()) === 'expired')
        throw new AppError('Conflict', `API key ${k.id} is expired; set a new expiresAt first`)
      const value = generateValue(k.environment)
      await store.update(k.id, { keyHash: value.hash, lastFour: value.lastFour, updatedAt: now() })
      return { ...(await this.get(organizationId, id)), key: value.raw }
    },

    async revoke(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKey> {
      const k = await load(organizationId, id)
      await assertMayActOn(k, caller)
      if (k.status === 'revoked') return presentKey(k, now())
      const t = now()
      await unlessLastKeyManager(k, 'revoking', null, (s) =>
        s.update(k.id, { status: 'revoked', revokedAt: t, updatedAt: t }),
      )
      deps.events.emit(
        'api_key.revoked',
        { organizationId, data: { id: k.id, name: k.name, revokedAt: iso(t), reason: 'revoked' } },
        t,
      )
      return this.get(organizationId, id)
    },

    async activate(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKey> {
      const k = await load(organizationId, id)
      await assertMayActOn(k, caller)
      assertNotRevoked(k, 'activated')
      if (effectiveStatus(k, now()) === 'expired')
        throw new AppError('Conflict', `API key ${k.id} is expired; set a new expiresAt to reactivate it`)
      if (k.status !== 'active') await store.update(k.id, { status: 'active', updatedAt: now() })
      return this.get(organizationId, id)
    },

    async deactivate(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKey> {
      const k = await load(organizationId, id)
      await assertMayActOn(k, caller)
      assertNotRevoked(k, 'deactivated')
      if (k.status === 'active')
        await unlessLastKeyManager(k, 'deactivating', null, (s) =>
          s.update(k.id, { status: 'inactive', updatedAt: now() }),
        )
      return this.get(organizationId, id)
    },

    async delete(organizationId: string, id: string, caller?: KeyCaller): Promise<void> {
      const k = await load(organizationId, id)
      await assertMayActOn(k, caller)
      await unlessLastKeyManager(k, 'deleting', null, (s) => s.delete(k.id))
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
      caller?: KeyCaller,
    ): Promise<PageOf<KeyActivity>> {
      const k = await load(organizationId, id)
      assertOwnKey(k, caller)
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

    /** Revokes every key of a member at once (the member is being removed); returns how many. */
    async revokeMemberKeys(organizationId: string, memberId: string): Promise<number> {
      await usage.flush()
      const t = now()
      const revoked = await store.revokeMember(organizationId, memberId, t)
      for (const k of revoked)
        deps.events.emit(
          'api_key.revoked',
          { organizationId, data: { id: k.id, name: k.name, revokedAt: iso(t), reason: 'revoked' } },
          t,
        )
      return revoked.length
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
      return store.pruneActivity(now() - retentionDays * DAY_MS)
    },
  }
}
