/**
 * A custom domain as stored: the store's domain object, its patch, and its row in `custom_domains`
 * both ways.
 */
import type { Insertable, Selectable, Updateable } from 'kysely'
import type { CustomDomainsTable } from '../../db/schema.js'
import type { DomainVerificationStatus, SslStatus } from '../../../src/contract/limits.js'
import type { AppLinks } from '../../../src/contract/domains.js'
import type { RecordCheck } from './dns.js'
import type { FileCheck } from './file.js'
import type { DomainVerificationMethod } from '../../../src/contract/limits.js'

export interface DomainRecord {
  id: string
  organizationId: string
  domain: string
  verificationStatus: DomainVerificationStatus
  verificationMethod: DomainVerificationMethod
  challengeToken: string
  /** The last DNS check, per record and resolver (null before the first). */
  recordChecks: RecordCheck[] | null
  /** The last fetch of the verification file (FILE method; null before the first). */
  fileCheck: FileCheck | null
  lastCheckedAt: number | null
  verifiedAt: number | null
  isDefault: boolean
  rootRedirectUrl: string | null
  /** The root redirect's host found on a safety list by the re-check (at: when); null: not flagged. */
  rootFlag: RootFlag | null
  sslStatus: SslStatus | null
  sslError: string | null
  certPem: string | null
  certKeyEnc: string | null
  certIssuer: string | null
  certSerial: string | null
  certNotBefore: number | null
  sslExpiresAt: number | null
  sslRenewedAt: number | null
  /** What the domain's `.well-known` app-link files say; null when nothing is set. */
  appLinks: AppLinks | null
  /** When another organization verified the host first, failing this claim; null otherwise. */
  claimLostAt: number | null
  createdAt: number
  updatedAt: number
}

export interface RootFlag {
  host: string
  list: string
  at: number
}

export type DomainPatch = Partial<Omit<DomainRecord, 'id' | 'organizationId' | 'domain' | 'createdAt'>>

const num = (v: number | null) => (v === null ? null : Number(v))

export function toRecord(r: Selectable<CustomDomainsTable>): DomainRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    domain: r.domain,
    verificationStatus: r.verification_status as DomainVerificationStatus,
    verificationMethod: r.verification_method as DomainVerificationMethod,
    challengeToken: r.challenge_token,
    recordChecks: r.record_checks === null ? null : (JSON.parse(r.record_checks) as RecordCheck[]),
    fileCheck: r.file_check === null ? null : (JSON.parse(r.file_check) as FileCheck),
    lastCheckedAt: num(r.last_checked_at),
    verifiedAt: num(r.verified_at),
    isDefault: Number(r.is_default) === 1,
    rootRedirectUrl: r.root_redirect_url,
    rootFlag:
      r.root_flagged_host && r.root_flagged_list
        ? { host: r.root_flagged_host, list: r.root_flagged_list, at: Number(r.root_flagged_at ?? 0) }
        : null,
    sslStatus: r.ssl_status as SslStatus | null,
    sslError: r.ssl_error,
    certPem: r.cert_pem,
    certKeyEnc: r.cert_key_enc,
    certIssuer: r.cert_issuer,
    certSerial: r.cert_serial,
    certNotBefore: num(r.cert_not_before),
    sslExpiresAt: num(r.ssl_expires_at),
    sslRenewedAt: num(r.ssl_renewed_at),
    appLinks: r.app_links === null ? null : (JSON.parse(r.app_links) as AppLinks),
    claimLostAt: num(r.claim_lost_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }
}

const COLUMNS: Record<Exclude<keyof DomainPatch, 'rootFlag'>, keyof CustomDomainsTable> = {
  verificationStatus: 'verification_status',
  verificationMethod: 'verification_method',
  challengeToken: 'challenge_token',
  recordChecks: 'record_checks',
  fileCheck: 'file_check',
  lastCheckedAt: 'last_checked_at',
  verifiedAt: 'verified_at',
  isDefault: 'is_default',
  rootRedirectUrl: 'root_redirect_url',
  sslStatus: 'ssl_status',
  sslError: 'ssl_error',
  certPem: 'cert_pem',
  certKeyEnc: 'cert_key_enc',
  certIssuer: 'cert_issuer',
  certSerial: 'cert_serial',
  certNotBefore: 'cert_not_before',
  sslExpiresAt: 'ssl_expires_at',
  sslRenewedAt: 'ssl_renewed_at',
  appLinks: 'app_links',
  claimLostAt: 'claim_lost_at',
  updatedAt: 'updated_at',
}

/** Fields stored as JSON text. */
const JSON_FIELDS = new Set<keyof DomainPatch>(['recordChecks', 'fileCheck', 'appLinks'])

export function toRow(p: DomainPatch): Updateable<CustomDomainsTable> {
  const row: Partial<Record<keyof CustomDomainsTable, unknown>> = {}
  if (p.rootFlag !== undefined) {
    row.root_flagged_host = p.rootFlag?.host ?? null
    row.root_flagged_list = p.rootFlag?.list ?? null
    row.root_flagged_at = p.rootFlag?.at ?? null
  }
  for (const [k, v] of Object.entries(p) as Array<[keyof DomainPatch, unknown]>) {
    const col = k === 'rootFlag' ? undefined : COLUMNS[k]
    if (v === undefined || !col) continue
    row[col] = JSON_FIELDS.has(k)
      ? v === null
        ? null
        : JSON.stringify(v)
      : k === 'isDefault'
        ? v
          ? 1
          : 0
        : v
  }
  return row as Updateable<CustomDomainsTable>
}

export function insertRow(r: DomainRecord): Insertable<CustomDomainsTable> {
  return {
    ...toRow(r),
    id: r.id,
    organization_id: r.organizationId,
    domain: r.domain,
    created_at: r.createdAt,
  } as Insertable<CustomDomainsTable>
}
