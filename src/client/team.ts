import type { PageOf } from '../contract/common.js'
import type {
  AcceptedInvitation,
  AuditEntry,
  AuditLogQuery,
  CreateInvitationBody,
  Invitation,
  InvitationWithToken,
  ListInvitationsQuery,
  ListMembersQuery,
  Member,
  Role,
  Whoami,
} from '../contract/team.js'
import type { Requests } from './http.js'

const at = (id: string) => encodeURIComponent(id)

/** Teams (`/api/team`): members, invitations, who a key is; and the audit log (`/api/audit-log`). */
export function teamApi(http: Requests) {
  return {
    me: () => http.data<Whoami>('GET', '/api/team/me'),
    members: (query: ListMembersQuery = {}) =>
      http.data<PageOf<Member>>('GET', '/api/team/members', { query }),
    setRole: (id: string, role: Role) =>
      http.data<Member>('PATCH', `/api/team/members/${at(id)}`, { body: { role } }),
    removeMember: async (id: string) => {
      await http.call('DELETE', `/api/team/members/${at(id)}`)
    },
    invite: (body: CreateInvitationBody) =>
      http.data<InvitationWithToken>('POST', '/api/team/invitations', { body }),
    invitations: (query: ListInvitationsQuery = {}) =>
      http.data<PageOf<Invitation>>('GET', '/api/team/invitations', { query }),
    revokeInvitation: async (id: string) => {
      await http.call('DELETE', `/api/team/invitations/${at(id)}`)
    },
    /** Needs no API key: the token is the credential. */
    accept: (token: string, name: string) =>
      http.data<AcceptedInvitation>('POST', '/api/team/invitations/accept', { body: { token, name } }),
    auditLog: (query: AuditLogQuery = {}) =>
      http.data<PageOf<AuditEntry>>('GET', '/api/audit-log', { query }),
  }
}
