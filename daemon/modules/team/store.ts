import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely'
import type { Database } from '../../db/schema.js'
import type { MembersTable, TeamInvitationsTable } from '../../db/schema/team.js'
import { newestFirstPage } from '../../db/paginate.js'
import type { Role } from '../../../src/contract/scopes.js'

/** A team member as the service sees it (times in Unix ms). */
export interface MemberRecord {
  id: string
  organizationId: string
  name: string
  email: string | null
  role: Role
  invitedBy: string | null
  joinedAt: number
  removedAt: number | null
}

/** An invitation; `status` as stored (pending, accepted, revoked): expiry is applied by the service. */
export interface InvitationRecord {
  id: string
  organizationId: string
  email: string
  role: Role
  tokenHash: string
  status: 'pending' | 'accepted' | 'revoked'
  invitedBy: string | null
  expiresAt: number
  createdAt: number
  acceptedAt: number | null
  memberId: string | null
  /** Why it was revoked: null by a team admin, `inviter_removed` when its inviter was removed. */
  revokedReason: 'inviter_removed' | null
}

const toMember = (r: Selectable<MembersTable>): MemberRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  email: r.email,
  role: r.role as Role,
  invitedBy: r.invited_by,
  joinedAt: Number(r.joined_at),
  removedAt: r.removed_at === null ? null : Number(r.removed_at),
})

const toInvitation = (r: Selectable<TeamInvitationsTable>): InvitationRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  email: r.email,
  role: r.role as Role,
  tokenHash: r.token_hash,
  status: r.status as InvitationRecord['status'],
  invitedBy: r.invited_by,
  expiresAt: Number(r.expires_at),
  createdAt: Number(r.created_at),
  acceptedAt: r.accepted_at === null ? null : Number(r.accepted_at),
  memberId: r.member_id,
  revokedReason: r.revoked_reason === 'inviter_removed' ? 'inviter_removed' : null,
})

/** The team tables (members, team_invitations): what the team service may ask of them. */
export interface TeamStore {
  insertMember(m: MemberRecord): Promise<void>
  /** A member of the organization that is not removed. */
  member(organizationId: string, id: string): Promise<MemberRecord | undefined>
  /** The role of a member that is not removed (any organization): the per-request look-up. */
  roleOf(memberId: string): Promise<Role | undefined>
  /** Members not removed (or all, `includeRemoved`), oldest first, and their total. */
  listMembers(
    organizationId: string,
    q: { role?: Role | undefined; includeRemoved?: boolean; limit: number; offset: number },
  ): Promise<{ rows: MemberRecord[]; total: number }>
  /** The oldest owner not removed. */
  firstOwner(organizationId: string): Promise<MemberRecord | undefined>
  /**
   * Sets the role unless that would leave the organization without an owner (one statement:
   * the owner count is read by the same UPDATE); false when refused for that reason.
   */
  setRole(organizationId: string, id: string, role: Role): Promise<boolean>
  /** Marks the member removed unless it is the last owner (as `setRole`); false when refused. */
  remove(organizationId: string, id: string, now: number): Promise<boolean>
  insertInvitation(i: InvitationRecord): Promise<void>
  invitation(organizationId: string, id: string): Promise<InvitationRecord | undefined>
  invitationByHash(tokenHash: string): Promise<InvitationRecord | undefined>
  /** Invitations newest first; `status` as the API shows it (pending and expired by `now`). */
  listInvitations(
    organizationId: string,
    q: { status?: string | undefined; now: number; limit: number; offset: number },
  ): Promise<{ rows: InvitationRecord[]; total: number }>
  /**
   * Who already holds `email` (compared case-insensitively): a current member, else a pending
   * unexpired invitation; undefined when nobody does.
   */
  emailHolder(
    organizationId: string,
    email: string,
    now: number,
  ): Promise<{ memberId: string } | { invitationId: string } | undefined>
  /** Pending invitations not expired at `now`. */
  countPending(organizationId: string, now: number): Promise<number>
  /**
   * Accepts a pending, unexpired invitation for `memberId` in one conditional UPDATE: of two
   * concurrent claims exactly one gets true.
   */
  claim(id: string, memberId: string, now: number): Promise<boolean>
  /** Undoes a claim whose member could not be completed (back to pending). */
  unclaim(id: string, memberId: string): Promise<void>
  /** Revokes a pending, unexpired invitation; false when it was not pending. */
  revokeInvitation(organizationId: string, id: string, now: number): Promise<boolean>
  /** Revokes the pending, unexpired invitations `memberId` sent (it was removed); returns how many. */
  revokeInvitationsBy(organizationId: string, memberId: string, now: number): Promise<number>
}

/** Advisory lock class of an organization's owner changes (PostgreSQL). */
const TEAM_OWNERS_LOCK = 0x6f77_6e72

export function createTeamStore(db: Kysely<Database>): TeamStore {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  /**
   * Runs a change that must leave an owner behind. The owner count is read by the UPDATE itself;
   * on PostgreSQL two such changes could each still see the other owner, so they take the
   * organization's lock first and run one after the other. SQLite runs one write at a time.
   */
  const oneAtATime = async (organizationId: string, write: (d: Kysely<Database>) => Promise<boolean>) =>
    postgres
      ? db.transaction().execute(async (trx) => {
          await sql`SELECT pg_advisory_xact_lock(${TEAM_OWNERS_LOCK}, hashtext(${organizationId}))`.execute(
            trx,
          )
          return write(trx)
        })
      : write(db)
  /** The organization's members not removed: the base of every member read. */
  const current = (d: Kysely<Database>, organizationId: string) =>
    d.selectFrom('members').where('organization_id', '=', organizationId).where('removed_at', 'is', null)
  const ownersLeft = (d: Kysely<Database>, organizationId: string) =>
    current(d, organizationId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'owner')
  return {
    async insertMember(m) {
      await db
        .insertInto('members')
        .values({
          id: m.id,
          organization_id: m.organizationId,
          name: m.name,
          email: m.email,
          role: m.role,
          invited_by: m.invitedBy,
          joined_at: m.joinedAt,
          removed_at: m.removedAt,
        })
        .execute()
    },

    async member(organizationId, id) {
      const r = await current(db, organizationId).selectAll().where('id', '=', id).executeTakeFirst()
      return r && toMember(r)
    },

    async roleOf(memberId) {
      const r = await db
        .selectFrom('members')
        .select('role')
        .where('id', '=', memberId)
        .where('removed_at', 'is', null)
        .executeTakeFirst()
      return r?.role as Role | undefined
    },

    async listMembers(organizationId, q) {
      let base = q.includeRemoved
        ? db.selectFrom('members').where('organization_id', '=', organizationId)
        : current(db, organizationId)
      if (q.role) base = base.where('role', '=', q.role)
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('joined_at').orderBy('id').limit(q.limit).offset(q.offset).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows: rows.map(toMember), total: Number(count.n) }
    },

    async firstOwner(organizationId) {
      const r = await current(db, organizationId)
        .selectAll()
        .where('role', '=', 'owner')
        .orderBy('joined_at')
        .orderBy('id')
        .executeTakeFirst()
      return r && toMember(r)
    },

    async setRole(organizationId, id, role) {
      return oneAtATime(organizationId, async (d) => {
        const update = d
          .updateTable('members')
          .set({ role })
          .where('id', '=', id)
          .where('organization_id', '=', organizationId)
          .where('removed_at', 'is', null)
        // Promoting to owner never lowers the owner count; anything else must leave one behind.
        const q =
          role === 'owner'
            ? update
            : update.where((eb) =>
                eb.or([eb('role', '!=', 'owner'), eb(ownersLeft(d, organizationId), '>', 1)]),
              )
        const r = await q.executeTakeFirst()
        return Number(r.numUpdatedRows) > 0
      })
    },

    async remove(organizationId, id, now) {
      return oneAtATime(organizationId, async (d) => {
        const r = await d
          .updateTable('members')
          .set({ removed_at: now })
          .where('id', '=', id)
          .where('organization_id', '=', organizationId)
          .where('removed_at', 'is', null)
          .where((eb) => eb.or([eb('role', '!=', 'owner'), eb(ownersLeft(d, organizationId), '>', 1)]))
          .executeTakeFirst()
        return Number(r.numUpdatedRows) > 0
      })
    },

    async insertInvitation(i) {
      await db
        .insertInto('team_invitations')
        .values({
          id: i.id,
          organization_id: i.organizationId,
          email: i.email,
          role: i.role,
          token_hash: i.tokenHash,
          status: i.status,
          invited_by: i.invitedBy,
          expires_at: i.expiresAt,
          created_at: i.createdAt,
          accepted_at: i.acceptedAt,
          member_id: i.memberId,
          revoked_reason: i.revokedReason,
        })
        .execute()
    },

    async invitation(organizationId, id) {
      const r = await db
        .selectFrom('team_invitations')
        .selectAll()
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
      return r && toInvitation(r)
    },

    async invitationByHash(tokenHash) {
      const r = await db
        .selectFrom('team_invitations')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst()
      return r && toInvitation(r)
    },

    async listInvitations(organizationId, q) {
      let base = db.selectFrom('team_invitations').where('organization_id', '=', organizationId)
      if (q.status === 'pending') base = base.where('status', '=', 'pending').where('expires_at', '>', q.now)
      else if (q.status === 'expired')
        base = base.where('status', '=', 'pending').where('expires_at', '<=', q.now)
      else if (q.status) base = base.where('status', '=', q.status)
      const { rows, total } = await newestFirstPage(base, q)
      return { rows: rows.map(toInvitation), total }
    },

    async emailHolder(organizationId, email, now) {
      const same = sql<boolean>`lower(email) = ${email.toLowerCase()}`
      const m = await current(db, organizationId).select('id').where(same).executeTakeFirst()
      if (m) return { memberId: m.id }
      const i = await db
        .selectFrom('team_invitations')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .where(same)
        .executeTakeFirst()
      return i && { invitationId: i.id }
    },

    async countPending(organizationId, now) {
      const r = await db
        .selectFrom('team_invitations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', organizationId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow()
      return Number(r.n)
    },

    async claim(id, memberId, now) {
      const r = await db
        .updateTable('team_invitations')
        .set({ status: 'accepted', accepted_at: now, member_id: memberId })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },

    async unclaim(id, memberId) {
      await db
        .updateTable('team_invitations')
        .set({ status: 'pending', accepted_at: null, member_id: null })
        .where('id', '=', id)
        .where('member_id', '=', memberId)
        .execute()
    },

    async revokeInvitationsBy(organizationId, memberId, now) {
      const r = await db
        .updateTable('team_invitations')
        .set({ status: 'revoked', revoked_reason: 'inviter_removed' })
        .where('organization_id', '=', organizationId)
        .where('invited_by', '=', memberId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirst()
      return Number(r.numUpdatedRows)
    },

    async revokeInvitation(organizationId, id, now) {
      const r = await db
        .updateTable('team_invitations')
        .set({ status: 'revoked' })
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },
  }
}
