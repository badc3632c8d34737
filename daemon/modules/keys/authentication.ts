/** Request authentication by API key, and the key tester. */
import type { Clock } from '../../clock.js'
import { isoOrNull } from '../../clock.js'
import { safeEqual } from '../../crypto.js'
import { API_KEY_PATTERN, type KeyTestResult } from '../../../src/contract/keys.js'
import type { OrgService } from '../orgs/index.js'
import type { KeyRecord, KeyStore } from './store.js'
import { effectiveStatus, hashKeyValue, maskKey } from './fields.js'

export type AuthFailure = 'missing' | 'malformed' | 'nonexistent' | 'revoked' | 'expired' | 'inactive'
export type AuthResult = { ok: true; key: KeyRecord } | { ok: false; reason: AuthFailure }

export function createKeyAuthentication(deps: { store: KeyStore; clock: Clock; orgs: OrgService }) {
  const { store } = deps
  const now = () => deps.clock.now()
  return {
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
  }
}
