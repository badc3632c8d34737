/**
 * The safety module's tables (migration 0036).
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms.
 */

/** One upload of a list: `list_id` is the public id, kept across replacements. */
export interface SafetyListsTable {
  id: string
  list_id: string
  organization_id: string
  name: string
  format: string
  entries: number
  skipped: number
  /** loading | ready | deleting */
  state: string
  created_at: number
  updated_at: number
}

/** The hosts of one upload, looked up by host. */
export interface SafetyListHostsTable {
  upload_id: string
  host: string
}
