import type { DomainService } from './index.js'
import type { JobDefinition } from '../../jobs/scheduler.js'
import { plural } from '../../../src/contract/numbers.js'

export const RENEW_CERTIFICATES_JOB = 'renew-certificates'

/** Pending custom domains are re-checked every 5 minutes for 48 h after being added. */
export function recheckDomainsJob(domains: Pick<DomainService, 'recheckPending'>): JobDefinition {
  return {
    name: 'recheck-domains',
    schedule: '*/5 * * * *',
    async run() {
      const r = await domains.recheckPending()
      return r.verified || r.failed
        ? `${plural(r.verified, 'domain')} verified, ${r.failed} failed`
        : undefined
    },
  }
}

/** Daily: certificates within 30 days of expiry are renewed. */
export function renewCertificatesJob(domains: Pick<DomainService, 'renewDue'>): JobDefinition {
  return {
    name: RENEW_CERTIFICATES_JOB,
    schedule: '17 3 * * *',
    leaseMs: 60 * 60_000,
    async run() {
      const r = await domains.renewDue()
      return r.renewed || r.failed
        ? `${plural(r.renewed, 'certificate')} renewed, ${r.failed} failed`
        : undefined
    },
  }
}

/** Daily: domains still unverified 7 days after they were added are deleted (claims of a host). */
export function expireDomainClaimsJob(domains: Pick<DomainService, 'expireClaims'>): JobDefinition {
  return {
    name: 'expire-domain-claims',
    schedule: '41 3 * * *',
    async run() {
      const n = await domains.expireClaims()
      return n ? `${plural(n, 'unverified domain')} deleted` : undefined
    },
  }
}
