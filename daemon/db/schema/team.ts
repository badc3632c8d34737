/** Kysely table types of teams (members, invitations) and the audit log: Unix ms, TEXT ids. */

export interface MembersTable {
  id: string
  organization_id: string
  name: string
  email: string | null
  role: string
  invited_by: string | null
  joined_at: number
  removed_at: number | null
}

export interface TeamInvitationsTable {
  id: string
  organization_id: string
  email: string
  role: string
  token_hash: string
  status: string
  invited_by: string | null
  expires_at: number
  created_at: number
  accepted_at: number | null
  member_id: string | null
  /** NULL (revoked by a team admin) or 'inviter_removed'. */
  revoked_reason: string | null
}

export interface AuditLogTable {
  id: string
  organization_id: string
  at: number
  member_id: string | null
  key_id: string | null
  action: string
  resource_type: string
  resource_id: string | null
  ip: string | null
  status_code: number
}
