import type { Generated } from 'kysely'

/**
 * The domains module's tables: custom domains, their certificates and ACME state.
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms; JSON columns are TEXT.
 */

/** Custom domains and their certificates (migration 0005). */
export interface CustomDomainsTable {
  id: string
  organization_id: string
  domain: string
  verification_status: string
  verification_method: string
  challenge_token: string
  record_checks: string | null
  last_checked_at: number | null
  verified_at: number | null
  is_default: Generated<number>
  root_redirect_url: string | null
  ssl_status: string | null
  ssl_error: string | null
  cert_pem: string | null
  cert_key_enc: string | null
  cert_issuer: string | null
  cert_serial: string | null
  cert_not_before: number | null
  ssl_expires_at: number | null
  ssl_renewed_at: number | null
  /** The running certificate order's claim: until when (migration 0017); null when none runs. */
  cert_order_until: number | null
  /** The domain's app links, the AppLinks object as JSON (migration 0022); null when none are set. */
  app_links: string | null
  /** The last file verification check, {status, reason} as JSON (migration 0028); null before one. */
  file_check: string | null
  /** When another organization verified the host first, failing this claim (migration 0030). */
  claim_lost_at: number | null
  /** The root redirect's host on a safety list, the list, when flagged (migration 0039); null: not. */
  root_flagged_host: string | null
  root_flagged_list: string | null
  root_flagged_at: number | null
  created_at: number
  updated_at: number
}

export interface AcmeAccountsTable {
  directory_url: string
  account_key_enc: string
  account_url: string | null
  created_at: number
}

export interface AcmeChallengesTable {
  token: string
  key_authorization: string
  expires_at: number
}
