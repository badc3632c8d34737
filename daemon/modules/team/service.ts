import type { Clock } from '../../clock.js'
import { DAY_MS, iso } from '../../clock.js'
import type { EventBus } from '../../events.js'
import { newId, randomToken, safeEqual, sha256Hex } from '../../crypto.js'
import { AppError, notFound } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { PageOf } from '../../../src/contract/common.js'
import {
  INVITATION_TOKEN_PATTERN,
  ROLE_RANK,
  ROLE_SCOPES,
  TEAM_LIMITS,
  effectiveScopes,
  type AcceptInvitationBody,
  type AcceptedInvitation,
  type CreateInvitationBody,
  type Invitation,
  type InvitationWithToken,
  type ListInvitationsQuery,
  type ListMembersQuery,
  type Member,
  type Role,
  type Whoami,
} from '../../../src/contract/team.js'
import { aRole, mayActOnMember } from '../../../src/contract/scopes.js'
import type { KeyService } from '../keys/index.js'
import type { OrgService } from '../orgs/index.js'
import type { InvitationRecord, MemberRecord, TeamStore } from './store.js'
import type { TeamCaller, TeamService } from './index.js'

export interface TeamServiceDeps {
  store: TeamStore
  clock: Clock
  events: EventBus
  orgs: Pick<OrgService, 'get'>
  /** What the team asks of the keys module: a new member's first key, a removed member's keys. */
  keys: Pick<KeyService, 'create' | 'revokeMemberKeys' | 'get'>
}

const presentMember = (m: MemberRecord): Member => ({
  id: m.id,
  name: m.name,
  email: m.email,
  role: m.role,
  joinedAt: iso(m.joinedAt),
  invitedBy: m.invitedBy,
  ...(m.removedAt !== null && { removedAt: iso(m.removedAt) }),
})

function invitationStatus(i: InvitationRecord, now: number): Invitation['status'] {
  return i.status === 'pending' && i.expiresAt <= now ? 'expired' : i.status
}

const presentInvitation = (i: InvitationRecord, now: number): Invitation => ({
  id: i.id,
  email: i.email,
  role: i.role,
  status: invitationStatus(i, now),
  expiresAt: iso(i.expiresAt),
  invitedBy: i.invitedBy,
  createdAt: iso(i.createdAt),
})

export function createTeamService(deps: TeamServiceDeps): TeamService {
  const { store } = deps
  const now = () => deps.clock.now()

  async function load(organizationId: string, id: string): Promise<MemberRecord> {
    const m = await store.member(organizationId, id)
    if (!m) throw notFound(`member ${id}`)
    return m
  }
  /** Nobody grants (by invitation or promotion) a role above its own. */
  function assertWithinOwnRole(role: Role, caller: TeamCaller): void {
    if (ROLE_RANK[role] > ROLE_RANK[caller.role])
      throw new AppError('Forbidden', `${aRole(caller.role)} cannot grant the ${role} role (above its own)`)
  }
  function assertMayChange(target: MemberRecord, caller: TeamCaller, action: string): void {
    if (!mayActOnMember(caller.role, target.role))
      throw new AppError(
        'Forbidden',
        target.role === 'owner'
          ? `only an owner can ${action} an owner`
          : `${aRole(caller.role)} cannot ${action} other members`,
      )
  }
  const lastOwner = (action: string) =>
    new AppError(
      'Conflict',
      `this member is the organization's last owner; ${action} it would leave no owner. Make another member owner first`,
    )

  return {
    async list(organizationId: string, q: ListMembersQuery): Promise<PageOf<Member>> {
      const p = pageParams(q)
      const { rows, total } = await store.listMembers(organizationId, {
        role: q.role,
        includeRemoved: q.include === 'removed',
        limit: p.perPage,
        offset: p.offset,
      })
      return pageOf(rows.map(presentMember), total, p)
    },

    async all(organizationId: string): Promise<Member[]> {
      const { rows } = await store.listMembers(organizationId, { limit: 1_000_000, offset: 0 })
      return rows.map(presentMember)
    },

    async updateRole(organizationId: string, id: string, role: Role, caller: TeamCaller): Promise<Member> {
      const m = await load(organizationId, id)
      assertMayChange(m, caller, 'change')
      assertWithinOwnRole(role, caller)
      if (m.role === role) return presentMember(m)
      if (!(await store.setRole(organizationId, id, role))) {
        if (!(await store.member(organizationId, id))) throw notFound(`member ${id}`)
        throw lastOwner('demoting')
      }
      return presentMember(await load(organizationId, id))
    },

    async remove(organizationId: string, id: string, caller: TeamCaller): Promise<void> {
      const m = await load(organizationId, id)
      assertMayChange(m, caller, 'remove')
      const t = now()
      if (!(await store.remove(organizationId, id, t))) {
        if (!(await store.member(organizationId, id))) throw notFound(`member ${id}`)
        throw lastOwner('removing')
      }
      await deps.keys.revokeMemberKeys(organizationId, id)
      // What it started goes with it: nobody joins on the word of a removed member.
      await store.revokeInvitationsBy(organizationId, id, t)
      deps.events.emit(
        'team.member_removed',
        {
          organizationId,
          data: {
            memberId: m.id,
            name: m.name,
            email: m.email,
            role: m.role,
            removedBy: caller.memberId,
            removedAt: iso(t),
          },
        },
        t,
      )
    },

    async invite(
      organizationId: string,
      body: CreateInvitationBody,
      caller: TeamCaller,
    ): Promise<InvitationWithToken> {
      const role = body.role ?? 'member'
      assertWithinOwnRole(role, caller)
      const t = now()
      if ((await store.countPending(organizationId, t)) >= TEAM_LIMITS.pendingInvitationsMax)
        throw new AppError(
          'Conflict',
          `the organization has ${TEAM_LIMITS.pendingInvitationsMax} pending invitations; revoke some first`,
        )
      // E-mail addresses are compared and stored lower-cased, as every mail system treats them.
      const email = body.email.trim().toLowerCase()
      const holder = await store.emailHolder(organizationId, email, t)
      if (holder)
        throw new AppError(
          'Conflict',
          'memberId' in holder
            ? `${email} is already a member (${holder.memberId})`
            : `${email} already has a pending invitation (${holder.invitationId}); revoke it to invite again`,
        )
      const token = `lkinv_${randomToken()}`
      const record: InvitationRecord = {
        id: newId('inv'),
        organizationId,
        email,
        role,
        tokenHash: sha256Hex(token),
        status: 'pending',
        invitedBy: caller.memberId,
        expiresAt: t + TEAM_LIMITS.invitationDays * DAY_MS,
        createdAt: t,
        acceptedAt: null,
        memberId: null,
        revokedReason: null,
      }
      await store.insertInvitation(record)
      return { ...presentInvitation(record, t), token }
    },

    async listInvitations(organizationId: string, q: ListInvitationsQuery): Promise<PageOf<Invitation>> {
      const p = pageParams(q)
      const t = now()
      const { rows, total } = await store.listInvitations(organizationId, {
        status: q.status,
        now: t,
        limit: p.perPage,
        offset: p.offset,
      })
      return pageOf(
        rows.map((i) => presentInvitation(i, t)),
        total,
        p,
      )
    },

    async revokeInvitation(organizationId: string, id: string): Promise<void> {
      const i = await store.invitation(organizationId, id)
      if (!i) throw notFound(`invitation ${id}`)
      if (!(await store.revokeInvitation(organizationId, id, now())))
        throw new AppError(
          'Conflict',
          `invitation ${id} is ${invitationStatus(i, now())}; only a pending invitation can be revoked`,
        )
    },

    async accept(body: AcceptInvitationBody) {
      const token = body.token.trim()
      const hash = sha256Hex(token)
      const i = INVITATION_TOKEN_PATTERN.test(token) ? await store.invitationByHash(hash) : undefined
      if (!i || !safeEqual(i.tokenHash, hash)) throw notFound('invitation')
      const gone = (r: InvitationRecord | undefined) =>
        new AppError(
          'Gone',
          r?.revokedReason === 'inviter_removed'
            ? 'this invitation was revoked because the member who sent it was removed; ask a team admin for a new one'
            : `this invitation is ${r ? invitationStatus(r, now()) : 'no longer valid'}; ask a team admin for a new one (an invitation works once, for ${TEAM_LIMITS.invitationDays} days)`,
        )
      const t = now()
      if (invitationStatus(i, t) !== 'pending') throw gone(i)
      // Sent while its inviter's removal was under way (the removal revokes the ones it finds).
      if (i.invitedBy && !(await store.roleOf(i.invitedBy))) {
        await store.revokeInvitationsBy(i.organizationId, i.invitedBy, t)
        throw gone(await store.invitationByHash(hash))
      }
      const memberId = newId('mem')
      // The claim is the one conditional write: of two concurrent accepts, one gets it.
      if (!(await store.claim(i.id, memberId, t))) throw gone(await store.invitationByHash(hash))
      const name = body.name.trim()
      let apiKey: AcceptedInvitation['apiKey']
      try {
        apiKey = await deps.keys.create(
          i.organizationId,
          { name: `${name}'s key`.slice(0, TEAM_LIMITS.nameMax), preset: 'full' },
          undefined,
          { memberId },
        )
      } catch (err) {
        await store.unclaim(i.id, memberId)
        throw err
      }
      const member: MemberRecord = {
        id: memberId,
        organizationId: i.organizationId,
        name,
        email: i.email,
        role: i.role,
        invitedBy: i.invitedBy,
        joinedAt: t,
        removedAt: null,
      }
      await store.insertMember(member)
      deps.events.emit(
        'team.member_added',
        {
          organizationId: i.organizationId,
          data: {
            memberId,
            name,
            email: i.email,
            role: i.role,
            permissions: [...ROLE_SCOPES[i.role]],
            invitedBy: i.invitedBy,
            joinedAt: iso(t),
          },
        },
        t,
      )
      return { member: presentMember(member), apiKey, organizationId: i.organizationId, invitationId: i.id }
    },

    async whoami(caller): Promise<Whoami> {
      const [m, key, org] = await Promise.all([
        load(caller.organizationId, caller.memberId),
        deps.keys.get(caller.organizationId, caller.keyId),
        deps.orgs.get(caller.organizationId),
      ])
      return {
        member: presentMember(m),
        key: { id: key.id, name: key.name, preview: key.preview },
        organization: { id: org.id, name: org.name, plan: org.plan },
        permissions: key.permissions,
        effectivePermissions: effectiveScopes(key.permissions, m.role),
      }
    },

    roleOf: (memberId: string) => store.roleOf(memberId),

    async ownerMember(organizationId: string): Promise<string> {
      const owner = await store.firstOwner(organizationId)
      if (owner) return owner.id
      const id = newId('mem')
      await store.insertMember({
        id,
        organizationId,
        name: 'Owner',
        email: null,
        role: 'owner',
        invitedBy: null,
        joinedAt: now(),
        removedAt: null,
      })
      return id
    },
  }
}
