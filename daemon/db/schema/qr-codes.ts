import type { Generated } from 'kysely'

/** The qr-codes module's table (migration 0025). Timestamps are Unix ms; style is JSON TEXT. */
export interface QrCodesTable {
  id: string
  organization_id: string
  /** A row of `links`: a link or a smart link (deleting it deletes its codes). */
  link_id: string
  title: string | null
  /** JSON StoredQrStyle (daemon/qr/style.ts), the logo as its data URL. */
  style: string
  scans: Generated<number>
  created_at: number
  updated_at: number
}
