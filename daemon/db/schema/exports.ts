/**
 * The exports module's table: scheduled exports' destinations (migration 0034).
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms; JSON columns are TEXT.
 */
export interface ExportDestinationsTable {
  id: string
  organization_id: string
  kind: string
  endpoint: string | null
  bucket: string
  prefix: string
  region: string
  access_key_id: string
  /** The secret access key, sealed with the master key (SecretBox). */
  secret_sealed: string
  format: string
  /** JSON array of dataset names. */
  datasets: string
  game_id: string | null
  created_at: number
  last_run_at: number | null
  last_success_at: number | null
  /** The UTC day (day number) up to which every day is written: the daily job resumes after it. */
  last_exported_day: number | null
  last_error: string | null
}
