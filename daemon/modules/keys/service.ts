import type { Clock } from '../../clock.js'
import { DAY_MS, iso, isoOrNull } from '../../clock.js'
import type { EventBus } from '../../events.js'
import { newId, safeEqual } from '../../crypto.js'
import { AppError, notFound } from '../../http/errors.js'
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
import {
  PRESETS,
  ROLE_RANK,
  SCOPES,
  aRole,
  effectiveScopes,
  mayActOnMember,
  normalizeScopes,
  type Preset,
  type Role,
  type Scope,
} from '../../../src/contract/scopes.js'
import type { OrgService } from '../orgs/index.js'
import type { KeyQueries, KeyRecord, KeyStore } from './store.js'
import { createUsageRecorder, type RequestUsage } from './usage.js'
import type { KeyService } from './index.js'
import {
  KEY_PREFIX,
  effectiveStatus,
  generateValue,
  hashKeyValue,
  maskKey,
  parseIps,
  parseOrigins,
  presentKey,
} from './fields.js'
import { parseExpiry } from '../../http/expiry.js'

/** The key making a request, for the rules on what it may do to other keys. */
export interface KeyCaller {
  keyId: string
  /** The caller's member and its role: a member or viewer acts only on its own member's keys. */
  memberId: string
  role: Role
  /** The caller's effective scopes (its key's scopes within its role). */
  permissions: readonly string[]
}
export type AuthFailure = 'missing' | 'malformed' | 'nonexistent' | 'revoked' | 'expired' | 'inactive'
export type AuthResult = { ok: true; key: KeyRecord } | { ok: false; reason: AuthFailure }

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
  /** Members and viewers see and act on their own member's keys only. */
  const ownKeysOnly = (caller: KeyCaller | undefined) =>
    caller !== undefined && ROLE_RANK[caller.role] < ROLE_RANK.admin
  function assertOwnKey(target: KeyRecord, caller: KeyCaller | undefined): void {
    if (ownKeysOnly(caller) && target.memberId !== caller!.memberId)
      throw new AppError('Forbidden', 'members manage only their own keys')
  }
  function checkGrantable(requested: Scope[], callerScopes: readonly string[] | undefined): void {
    if (!callerScopes) return
    const held = new Set(normalizeScopes(callerScopes))
    const missing = requested.filter((s) => !held.has(s))
    if (missing.length)
      throw new AppError('Forbidden', `a key cannot grant scopes it does not hold: ${missing.join(', ')}`)
  }
  /**
   * Acting on another key needs the caller's role to act on the key's member (an admin never on an
   * owner's keys: it could regenerate the owner key, use it to promote itself and remove the
   * owner) and every scope the key holds (otherwise a key with keys:write alone could regenerate
   * the owner key and receive its value, or strip and revoke stronger keys). A key may always act
   * on itself; offline admin work (no caller) is not limited.
   */
  async function assertMayActOn(target: KeyRecord, caller: KeyCaller | undefined): Promise<void> {
    assertOwnKey(target, caller)
    if (!caller || caller.keyId === target.id) return
    if (target.memberId !== caller.memberId) {
      // A removed member (no role) has only revoked keys left: nothing there to take over.
      const role = await deps.roleOf(target.memberId)
      if (role && !mayActOnMember(caller.role, role))
        throw new AppError('Forbidden', `${aRole(caller.role)} cannot act on ${aRole(role)}'s keys`)
    }
    const held = new Set(normalizeScopes(caller.permissions))
    // A key of the caller's own member is bounded by the same role: what it may really do counts.
    const targetScopes =
      target.memberId === caller.memberId
        ? effectiveScopes(target.permissions, caller.role)
        : normalizeScopes(target.permissions)
    const missing = targetScopes.filter((s) => !held.has(s))
    if (missing.length)
      throw new AppError('Forbidden', `this key lacks ${missing.join(', ')} held by the target key`)
  }
  const managesKeys = (k: KeyRecord, t: number) =>
    effectiveStatus(k, t) === 'active' && normalizeScopes(k.permissions).includes('keys:write')
  /** An active key holding every scope: the only kind that can act on (reactivate) any other key. */
  const holdsEveryScope = (k: KeyRecord, t: number) =>
    effectiveStatus(k, t) === 'active' && normalizeScopes(k.permissions).length === SCOPES.length
  /**
   * Writes a change that takes scopes or activity away from key `k`, refusing it when `k` is the
   * organization's last active key with keys:write or with every scope (nobody could restore it).
   * Check and write share one transaction under the organization's key lock.
   */
  async function unlessLastKeyManager(
    k: KeyRecord,
    action: string,
    after: readonly Scope[] | null,
    write: (s: KeyQueries) => Promise<void>,
  ): Promise<void> {
    // What each member's role lets its keys use, read before the transaction (the team's store is
    // not part of it); a member not in this map (removed, or joined since) counts as powerless.
    const roles = new Map<string, Role>()
    for (const o of await store.activeKeys(k.organizationId, now()))
      if (o.memberId && !roles.has(o.memberId)) {
        const role = await deps.roleOf(o.memberId)
        if (role) roles.set(o.memberId, role)
      }
    const usable = (o: KeyRecord): KeyRecord => {
      const role = o.memberId ? roles.get(o.memberId) : undefined
      return { ...o, permissions: role ? effectiveScopes(o.permissions, role) : [] }
    }
    await store.transaction(async (s) => {
      await s.lockOrganization(k.organizationId)
      const t = now()
      const current = await s.byId(k.organizationId, k.id)
      const losesKeysWrite = after === null || !after.includes('keys:write')
      const losesEveryScope = after === null || normalizeScopes(after).length < SCOPES.length
      const checks = [
        { holds: managesKeys, lost: losesKeysWrite, what: 'API key with keys:write', next: 'keys:write' },
        {
          holds: holdsEveryScope,
          lost: losesEveryScope,
          what: 'key holding every scope',
          next: 'every scope',
        },
      ]
      const mine = current && usable(current)
      for (const check of checks) {
        if (!mine || !check.lost || !check.holds(mine, t)) continue
        const others: KeyRecord[] = []
        for (const o of await s.activeKeys(k.organizationId, t))
          if (o.id !== k.id && check.holds(o, t) && check.holds(usable(o), t)) others.push(o)
        const leaves = check.next === 'keys:write' ? 'manage keys' : 'reactivate or restore it'
        if (others.length === 0)
          throw new AppError(
            'Conflict',
            `API key ${k.id} is the organization's last active ${check.what}; ${action} it ` +
              `would leave no key able to ${leaves}. Create another key with ${check.next} first ` +
              '(or, on the server, run: linkd keys create --org <organization>)',
          )
      }
      await write(s)
    })
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

    /** The key tester (POST /api/keys/test): validity, reason, and the key's identity and limits. */
    async test(
      raw: string,
      rateLimit: (k: KeyRecord) => Promise<KeyTestResult['rateLimit']>,
    ): Promise<KeyTestResult> {
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
      const rl = await rateLimit(k)
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
      return store.pruneActivity(now() - retentionDays * DAY_MS)
    },
  }
}
