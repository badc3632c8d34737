/** A custom domain as the API shows it: its records with their status, the verification file, warnings. */
import { iso, isoOrNull } from '../../clock.js'
import type { DomainEvents, EventBus } from '../../events.js'
import type { Domain } from '../../../src/contract/domains.js'
import type { DomainRecord } from './records.js'
import { verificationFile } from './file.js'
import { recordWarnings } from './dns.js'
import { neededRecords, type RecordTargets } from './verification.js'

/** What a presented domain needs besides its record: the record targets and the shared short domain. */
export interface PresentContext {
  targets: RecordTargets
  shortDomain?: string | undefined
}

/** The domain's records with their last checked status (Pending before any check). */
function records(d: DomainRecord, ctx: PresentContext): Domain['dnsRecords'] {
  const checked = new Map((d.recordChecks ?? []).map((c) => [`${c.type} ${c.name}`, c.status]))
  return neededRecords(d, ctx.targets).map((r) => ({
    ...r,
    status: checked.get(`${r.type} ${r.name}`) ?? 'Pending',
  }))
}

/** A domain as the API shows it. */
export function presentDomain(d: DomainRecord, ctx: PresentContext): Domain {
  return {
    id: d.id,
    domain: d.domain,
    verificationStatus: d.verificationStatus,
    sslStatus: d.sslStatus,
    isDefault: d.isDefault,
    verificationMethod: d.verificationMethod,
    dnsRecords: records(d, ctx),
    verificationFile:
      d.verificationMethod === 'FILE' ? verificationFile(d.domain, d.challengeToken, d.fileCheck) : null,
    warnings: [
      ...(d.claimLostAt === null
        ? []
        : [
            `another organization verified ${d.domain} first (${iso(d.claimLostAt)}): this claim cannot be verified while it holds it; delete it`,
          ]),
      ...recordWarnings(d.domain, { ...ctx.targets, shortDomain: ctx.shortDomain }),
    ],
    rootRedirectUrl: d.rootRedirectUrl,
    rootRedirectFlagged: d.rootFlag && {
      host: d.rootFlag.host,
      list: d.rootFlag.list,
      flaggedAt: iso(d.rootFlag.at),
    },
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    verifiedAt: isoOrNull(d.verifiedAt),
    lastCheckedAt: isoOrNull(d.lastCheckedAt),
    sslExpiresAt: isoOrNull(d.sslExpiresAt),
  }
}

/** Announces domains gone (domain.deleted), each to its organization, with why. */
export function announceDeleted(
  events: EventBus,
  gone: readonly Pick<DomainRecord, 'id' | 'domain' | 'organizationId'>[],
  at: number,
  reason: DomainEvents['domain.deleted']['data']['reason'],
): void {
  for (const d of gone)
    events.emit(
      'domain.deleted',
      { organizationId: d.organizationId, data: { id: d.id, domain: d.domain, deletedAt: iso(at), reason } },
      at,
    )
}
