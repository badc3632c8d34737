import type { Generated } from 'kysely'

/**
 * The links module's tables (migrations 0002, 0021, 0023, 0024, 0036).
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
  expired_url: Generated<string | null>
  max_clicks: Generated<number | null>
  starts_at: Generated<number | null>
  /** 1 or 0 (migration 0021). */
  forward_query: Generated<number>
  /** JSON array of rules, or null for none. */
  rules: Generated<string | null>
  capped_clicks: Generated<number>
  /** `scrypt$N$r$p$salt$hash` (migration 0023), never the password. */
  password_hash: Generated<string | null>
  /** JSON {title, description, imageUrl} or null. */
  og: Generated<string | null>
  /** 'link' or 'smart' (migration 0024): smart links share the table and its code namespace. */
  kind: Generated<string>
  /** A smart link's JSON {ios, android, desktop} (each {url} or null); null for links. */
  targets: Generated<string | null>
  /** 1 or 0: a smart link appends the visit's click id to its target. */
  append_click_id: Generated<number>
  game_id: Generated<string | null>
  /** JSON [{destinationUrl, weight}] (migration 0035): split destinations; null for none. */
  variants: Generated<string | null>
  /** The destination host found on a safety list, that list's name and when (migration 0036); null: not flagged. */
  flagged_host: Generated<string | null>
  flagged_list: Generated<string | null>
  flagged_at: Generated<number | null>
  created_at: number
  updated_at: number
}

export interface LinkTagsTable {
  link_id: string
  organization_id: string
  tag: string
}
