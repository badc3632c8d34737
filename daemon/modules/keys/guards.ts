/** Who may do what to which API key: members' own keys, grantable scopes, the last key manager. */
import type { Clock } from '../../clock.js'
import { AppError } from '../../http/errors.js'
import {
  ROLE_RANK,
  SCOPES,
  aRole,
  effectiveScopes,
  mayActOnMember,
  normalizeScopes,
  type Role,
  type Scope,
} from '../../../src/contract/scopes.js'
import type { KeyQueries, KeyRecord, KeyStore } from './store.js'
import { effectiveStatus } from './fields.js'

/** The key making a request, for the rules on what it may do to other keys. */
export interface KeyCaller {
  keyId: string
  /** The caller's member and its role: a member or viewer acts only on its own member's keys. */
  memberId: string
  role: Role
  /** The caller's effective scopes (its key's scopes within its role). */
  permissions: readonly string[]
}

export interface KeyGuardDeps {
  store: KeyStore
  clock: Clock
  /** A member's role now (undefined once removed): a key counts as a key manager only within it. */
  roleOf(memberId: string): Promise<Role | undefined>
}

export function createKeyGuards(deps: KeyGuardDeps) {
  const { store } = deps
  const now = () => deps.clock.now()

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

  return { ownKeysOnly, assertOwnKey, checkGrantable, assertMayActOn, unlessLastKeyManager }
}
