import type { Generated } from 'kysely'

/**
 * The links module's tables (migration 0002).
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms; JSON columns are TEXT.
 */

export interface LinksTable {
  id: string
  organization_id: string
  domain_key: string
  custom_domain_id: string | null
  short_code: string
  destination_url: string
  title: string | null
  status: string
  redirect_type: number
  tags: string
  metadata: string
  expires_at: number | null
  clicks: Generated<number>
  qr_created_at: number | null
  created_at: number
  updated_at: number
}

export interface LinkTagsTable {
  link_id: string
  organization_id: string
  tag: string
}
