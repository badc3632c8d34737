/** The domains' scheduled upkeep: pending re-checks, expired claims, certificate renewals. */
import type { Clock } from '../../clock.js'
import type { EventBus } from '../../events.js'
import { DOMAIN_LIMITS } from '../../../src/contract/limits.js'
import type { DomainService } from './api.js'
import { ORDER_RUNS_MS } from './certificates.js'
import { announceDeleted } from './present.js'
import type { DomainRecord } from './records.js'
import type { DomainStore } from './store.js'

export interface DomainUpkeepDeps {
  store: DomainStore
  clock: Clock
  events: EventBus
  /** One verification attempt (verification.ts); `manual` false for the job's. */
  attempt(d: DomainRecord, manual: boolean): Promise<DomainRecord>
  /** Orders (or renews) a domain's certificate (certificates.ts). */
  provision(d: DomainRecord, renewal?: boolean): Promise<void>
  /** The certificate order of the domain running in this process, if any. */
  running(domainId: string): Promise<void> | undefined
  /** The directory changed: refresh it and tell the other processes. */
  changed(): Promise<void>
}

export type DomainUpkeep = Pick<DomainService, 'recheckPending' | 'expireClaims' | 'renewDue'>

export function createDomainUpkeep(deps: DomainUpkeepDeps): DomainUpkeep {
  const { store, attempt, provision, changed } = deps
  const now = () => deps.clock.now()
  return {
    /**
     * The re-check job: pending domains added within the propagation window (48 h) are checked
     * again (verified when all resolvers agree); older pending ones become failed. Verified
     * domains whose certificate order was interrupted (pending for 10 minutes) are ordered again.
     */
    async recheckPending(): Promise<{ verified: number; failed: number }> {
      const t = now()
      let verified = 0
      for (const d of await store.pendingSince(t - DOMAIN_LIMITS.propagationMs)) {
        const next = await attempt(d, false)
        if (next.verificationStatus === 'verified') verified++
      }
      const failed = await store.failStalePending(t - DOMAIN_LIMITS.propagationMs, t)
      if (failed) await changed()
      // Only orders older than any order runs: the one a verification just started, maybe in
      // another linkd process, is not ordered a second time.
      for (const d of await store.awaitingCertificate(t - ORDER_RUNS_MS))
        if (!deps.running(d.id)) void provision(d)
      return { verified, failed }
    },

    /**
     * The claims job: domains still unverified 7 days after they were added are deleted (a claim
     * nobody proves does not hold the host), each announced as domain.deleted.
     */
    async expireClaims(): Promise<number> {
      const t = now()
      const gone = await store.expireClaims(t - DOMAIN_LIMITS.claimMs)
      if (gone.length === 0) return 0
      await changed()
      announceDeleted(deps.events, gone, t, 'expired')
      return gone.length
    },

    /** The renewal job: certificates within 30 days of expiry are renewed (active → renewing → active). */
    async renewDue(): Promise<{ renewed: number; failed: number }> {
      const due = await store.expiringBy(now() + DOMAIN_LIMITS.renewBeforeMs)
      let renewed = 0
      for (const d of due) {
        await provision(d, true)
        const after = await store.byIdAnyOrg(d.id)
        if (after && after.certSerial !== d.certSerial && after.sslStatus === 'active') renewed++
      }
      return { renewed, failed: due.length - renewed }
    },
  }
}
