/** Ownership verification of a custom domain: the records it needs, their checks, one attempt. */
import type { Clock } from '../../clock.js'
import { iso } from '../../clock.js'
import type { EventBus } from '../../events.js'
import { validation } from '../../http/errors.js'
import { expectedRecords, isApex, type DnsChecker, type RecordCheck, type RecordStatus } from './dns.js'
import type { DomainRecord } from './records.js'
import type { DomainStore } from './store.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { DomainVerificationMethod } from '../../../src/contract/limits.js'
import type { FileChecker } from './file.js'

/** The targets the records of a custom domain point at (LINKD_CNAME_TARGET, LINKD_A_RECORD_IP). */
export interface RecordTargets {
  cnameTarget: string
  aRecordIp: string | undefined
}

/**
 * The records a domain needs: the TXT challenge and CNAME or A; with FILE verification only
 * the CNAME or A record (it brings traffic here; the file proves ownership).
 */
export function neededRecords(
  d: Pick<DomainRecord, 'domain' | 'challengeToken' | 'verificationMethod'>,
  targets: RecordTargets,
) {
  const all = expectedRecords(d.domain, d.challengeToken, targets)
  return d.verificationMethod === 'FILE' ? all.filter((r) => r.type !== 'TXT') : all
}

/** The method asked for, checked against the domain type; the type's DNS method when none is. */
export function methodFor(
  domain: string,
  asked: DomainVerificationMethod | undefined,
): DomainVerificationMethod {
  const dns = isApex(domain) ? 'TXT' : 'CNAME'
  if (asked === undefined || asked === 'FILE' || asked === dns) return asked ?? dns
  throw validation(
    'verificationMethod',
    `${asked} is not a method for ${domain}: ${isApex(domain) ? 'an apex domain is verified by TXT (TXT challenge + A record)' : 'a subdomain is verified by CNAME (TXT challenge + CNAME record)'} or FILE`,
  )
}

export interface VerificationDeps {
  store: DomainStore
  clock: Clock
  events: EventBus
  dns: DnsChecker
  files: FileChecker
  targets: RecordTargets
  /** The directory changed: refresh it and tell the other processes. */
  changed(): Promise<void>
  /** Orders the certificate of a domain just verified. */
  provision(d: DomainRecord): Promise<void>
}

/** Proof of control of a domain: its records on every resolver (or its file), and one verification attempt. */
export function createVerification(deps: VerificationDeps) {
  const { store } = deps
  const now = () => deps.clock.now()

  /** Checks the records on every resolver and stores the per-record statuses. */
  async function check(d: DomainRecord): Promise<{ checks: RecordCheck[]; status: RecordStatus }> {
    const checks = await deps.dns.check(neededRecords(d, deps.targets))
    const status: RecordStatus = checks.every((c) => c.status === 'Verified')
      ? 'Verified'
      : checks.some((c) => c.status === 'Failed')
        ? 'Failed'
        : 'Pending'
    return { checks, status }
  }

  /**
   * The ownership proof of one attempt: the DNS records, or (FILE) the file, the CNAME or A
   * record being checked alongside for the domain's dnsRecords without deciding anything.
   */
  async function prove(d: DomainRecord): Promise<{
    checks: RecordCheck[]
    status: RecordStatus
    patch: Partial<DomainRecord>
  }> {
    if (d.verificationMethod !== 'FILE') {
      const { checks, status } = await check(d)
      return { checks, status, patch: { recordChecks: checks } }
    }
    const [{ checks }, file] = await Promise.all([check(d), deps.files.check(d.domain, d.challengeToken)])
    return { checks, status: file.status, patch: { recordChecks: checks, fileCheck: file } }
  }

  /**
   * The move to verified (and certificate pending), only from the state `d` was read in; false
   * when another request moved it meanwhile, or another organization verified the host first
   * (the unique index of verified hosts refuses the second).
   */
  async function verifyIf(d: DomainRecord, patch: Partial<DomainRecord>): Promise<boolean> {
    try {
      return await store.updateIf(d.id, d, patch)
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
      const t = now()
      await store.update(d.id, { verificationStatus: 'failed', claimLostAt: t, updatedAt: t })
      return false
    }
  }

  /**
   * One verification attempt (the verify operation and the re-check job): all records on all
   * resolvers → verified (SSL provisioning starts); a record missing or wrong everywhere →
   * failed; otherwise (still propagating, a resolver not answering) the status stays.
   */
  async function attempt(d: DomainRecord, manual: boolean): Promise<DomainRecord> {
    const { status, patch: proof } = await prove(d)
    const t = now()
    const patch: Partial<DomainRecord> = { ...proof, lastCheckedAt: t, updatedAt: t }
    let verifiedNow = false
    // The first organization to verify a host wins it: while another holds it verified, this
    // claim's proof changes nothing (it failed when that one verified).
    const holder = status === 'Verified' ? await store.verifiedByName(d.domain) : undefined
    if (d.verificationStatus !== 'verified' && holder && holder.id !== d.id) {
      Object.assign(patch, { verificationStatus: 'failed', claimLostAt: d.claimLostAt ?? t })
    } else if (d.verificationStatus !== 'verified') {
      if (status === 'Verified') {
        Object.assign(patch, {
          verificationStatus: 'verified',
          verifiedAt: t,
          sslStatus: 'pending',
          claimLostAt: null,
        })
        verifiedNow = true
      } else if (status === 'Failed' && manual) patch.verificationStatus = 'failed'
    } else if (manual && status === 'Verified' && (d.sslStatus === 'expired' || d.sslStatus === 'failed')) {
      // Re-verifying a verified domain whose certificate expired or failed re-provisions it.
      Object.assign(patch, { sslStatus: 'pending', sslError: null })
    }
    if (patch.sslStatus !== 'pending') await store.update(d.id, patch)
    else if (!(await verifyIf(d, patch))) {
      // The move to "certificate pending" is taken only from the state this attempt read: of two
      // verifications at once (maybe on two processes) one moves the domain, emits the event and
      // orders; the other answers with the domain as the first left it.
      await store.update(d.id, { ...proof, lastCheckedAt: t, updatedAt: t })
      await deps.changed()
      return (await store.byIdAnyOrg(d.id)) ?? { ...d, ...proof, lastCheckedAt: t }
    }
    const next = { ...d, ...patch }
    // The other organizations' claims of the host fail, saying why (their warnings).
    if (verifiedNow) await store.loseOtherClaims(d.domain, d.id, t)
    await deps.changed()
    if (verifiedNow)
      deps.events.emit(
        'domain.verified',
        {
          organizationId: d.organizationId,
          data: {
            id: d.id,
            domain: d.domain,
            verifiedAt: iso(t),
            sslStatus: 'pending',
            sslExpiresAt: null,
          },
        },
        t,
      )
    if (next.verificationStatus === 'verified' && next.sslStatus === 'pending') deps.provision(next)
    return next
  }

  return { check, attempt }
}
