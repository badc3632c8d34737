import Type, { type Static } from 'typebox'
import { Nullable, StringEnum, Timestamp, PageQuery } from './common.js'
import { EMAIL_PATTERN, VisibleText } from './text.js'
import { ROLES } from './scopes.js'
import { INVITATION_STATUSES, TEAM_LIMITS } from './limits.js'
import { ApiKeyWithSecret } from './keys.js'

export { ROLES, ROLE_RANK, ROLE_SCOPES, effectiveScopes, type Role } from './scopes.js'
export { INVITATION_STATUSES, INVITATION_TOKEN_PATTERN, TEAM_LIMITS } from './limits.js'

const RoleName = StringEnum(ROLES, { description: 'owner > admin > member > viewer' })
const MemberName = VisibleText({ minLength: 1, maxLength: TEAM_LIMITS.nameMax })
const Email = Type.String({
  minLength: 3,
  maxLength: TEAM_LIMITS.emailMax,
  pattern: EMAIL_PATTERN,
  description: 'E-mail address of the person invited (not used to send mail)',
})

export const Member = Type.Object(
  {
    id: Type.String({ description: 'mem_…' }),
    name: Type.String(),
    email: Nullable(Type.String()),
    role: RoleName,
    joinedAt: Timestamp,
    invitedBy: Nullable(Type.String({ description: 'Member id of the inviter' })),
    removedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the member was removed: only on removed members (listed with include=removed)',
      }),
    ),
  },
  { $id: 'Member', title: 'Member' },
)
export type Member = Static<typeof Member>

export const ListMembersQuery = Type.Object(
  {
    ...PageQuery.properties,
    role: Type.Optional(RoleName),
    include: Type.Optional(
      StringEnum(['removed'], {
        description:
          'removed: also the removed members (kept, with removedAt, so the audit log can name them)',
      }),
    ),
  },
  { additionalProperties: false },
)
export type ListMembersQuery = Static<typeof ListMembersQuery>

export const UpdateMemberBody = Type.Object({ role: RoleName }, { additionalProperties: false })
export type UpdateMemberBody = Static<typeof UpdateMemberBody>

export const CreateInvitationBody = Type.Object(
  { email: Email, role: Type.Optional(RoleName) },
  { additionalProperties: false },
)
export type CreateInvitationBody = Static<typeof CreateInvitationBody>

export const Invitation = Type.Object(
  {
    id: Type.String({ description: 'inv_…' }),
    email: Type.String(),
    role: RoleName,
    status: StringEnum(INVITATION_STATUSES),
    expiresAt: Timestamp,
    invitedBy: Nullable(Type.String()),
    createdAt: Timestamp,
  },
  { $id: 'Invitation', title: 'Invitation' },
)
export type Invitation = Static<typeof Invitation>

/** The create response: the invitation plus its token, shown once. */
export const InvitationWithToken = Type.Object(
  {
    ...Invitation.properties,
    token: Type.String({ description: 'lkinv_…; shown only in this response' }),
  },
  { $id: 'InvitationWithToken', title: 'InvitationWithToken' },
)
export type InvitationWithToken = Static<typeof InvitationWithToken>

export const ListInvitationsQuery = Type.Object(
  { ...PageQuery.properties, status: Type.Optional(StringEnum(INVITATION_STATUSES)) },
  { additionalProperties: false },
)
export type ListInvitationsQuery = Static<typeof ListInvitationsQuery>

export const AcceptInvitationBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), name: MemberName },
  { additionalProperties: false },
)
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>

export const AcceptedInvitation = Type.Object(
  { member: Member, apiKey: ApiKeyWithSecret },
  { $id: 'AcceptedInvitation', title: 'AcceptedInvitation' },
)
export type AcceptedInvitation = Static<typeof AcceptedInvitation>

/** `GET /api/team/me`: who the presented key is (any valid key may ask). */
export const Whoami = Type.Object(
  {
    member: Member,
    key: Type.Object({ id: Type.String(), name: Type.String(), preview: Type.String() }),
    organization: Type.Object({ id: Type.String(), name: Type.String(), plan: Type.String() }),
    permissions: Type.Array(Type.String(), { description: "The key's own scopes" }),
    effectivePermissions: Type.Array(Type.String(), {
      description: "The key's scopes within its member's role: what it may do",
    }),
  },
  { $id: 'Whoami', title: 'Whoami' },
)
export type Whoami = Static<typeof Whoami>

export const AuditEntry = Type.Object(
  {
    id: Type.String({ description: 'aud_…' }),
    at: Timestamp,
    memberId: Nullable(Type.String()),
    keyId: Nullable(Type.String()),
    action: Type.String({ description: 'resource.verb, e.g. link.create, key.revoke, member.remove' }),
    resourceType: Type.String(),
    resourceId: Nullable(Type.String()),
    ip: Nullable(Type.String()),
    statusCode: Type.Integer(),
  },
  { $id: 'AuditEntry', title: 'AuditEntry' },
)
export type AuditEntry = Static<typeof AuditEntry>

export const AuditLogQuery = Type.Object(
  {
    ...PageQuery.properties,
    memberId: Type.Optional(Type.String({ maxLength: 64 })),
    action: Type.Optional(Type.String({ maxLength: 64 })),
    resourceType: Type.Optional(Type.String({ maxLength: 64 })),
    since: Type.Optional(Timestamp),
    until: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
)
export type AuditLogQuery = Static<typeof AuditLogQuery>
