/** Team members with roles, invitations, and who a key is; owns `members` and `team_invitations`. */
export { createTeamStore, type TeamStore } from './store.js'
export { createTeamService } from './service.js'
import type { PageOf } from '../../../src/contract/common.js'
import type {
  AcceptInvitationBody,
  AcceptedInvitation,
  CreateInvitationBody,
  Invitation,
  InvitationWithToken,
  ListInvitationsQuery,
  ListMembersQuery,
  Member,
  Role,
  Whoami,
} from '../../../src/contract/team.js'
import type { Module } from '../module.js'
import { invitationRoutes } from './invitation-routes.js'
import { meRoutes, memberRoutes } from './routes.js'

/** The member acting (from its key): its id and role. */
export interface TeamCaller {
  memberId: string
  role: Role
}

export interface TeamService {
  /** A page of the organization's members, oldest first (removed ones only with include=removed). */
  list(organizationId: string, q: ListMembersQuery): Promise<PageOf<Member>>
  /** Every member of the organization not removed, oldest first (`linkd members list`). */
  all(organizationId: string): Promise<Member[]>
  /** Changes a member's role: 404 unknown, 403 above the caller's role or an owner for a non-owner, 409 last owner. */
  updateRole(organizationId: string, id: string, role: Role, caller: TeamCaller): Promise<Member>
  /** Removes a member and revokes all its keys at once (same refusals as `updateRole`). */
  remove(organizationId: string, id: string, caller: TeamCaller): Promise<void>
  /** A new invitation with its token (shown once); 403 for a role above the caller's. */
  invite(organizationId: string, body: CreateInvitationBody, caller: TeamCaller): Promise<InvitationWithToken>
  /** A page of invitations, newest first, with their status at this moment. */
  listInvitations(organizationId: string, q: ListInvitationsQuery): Promise<PageOf<Invitation>>
  /** Revokes a pending invitation; 404 unknown, 409 not pending. */
  revokeInvitation(organizationId: string, id: string): Promise<void>
  /**
   * Redeems a token (once): the new member and its first key, and the organization and invitation
   * (for the audit log; not in the answer); 404 unknown, 410 used or expired.
   */
  accept(
    body: AcceptInvitationBody,
  ): Promise<AcceptedInvitation & { organizationId: string; invitationId: string }>
  /** Who a key is: its member, the key, the organization and its (effective) permissions. */
  whoami(caller: { organizationId: string; memberId: string; keyId: string }): Promise<Whoami>
  /** The role of a member that is not removed, read fresh (every request asks). */
  roleOf(memberId: string): Promise<Role | undefined>
  /** The organization's first owner (oldest not removed), made as `Owner` when it has none. */
  ownerMember(organizationId: string): Promise<string>
}

export function teamModule(deps: { team: TeamService }): Module {
  const plugins = [memberRoutes, invitationRoutes, meRoutes].map((p) => p(deps))
  return {
    name: 'team',
    routes: async (app) => {
      for (const plugin of plugins) await plugin(app)
    },
  }
}
