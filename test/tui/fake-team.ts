/** The team calls of the TUI's fake client: members and invitations held in memory. */
import type { Invitation, InvitationWithToken, Member, Whoami } from '../../src/contract/team.js'
import type { Role } from '../../src/contract/scopes.js'
import type { TuiClient } from '../../src/tui/api.js'
import { page, T0 } from './fake-data.js'
import { apiError } from './fake-client.js'

type Serve = <T>(name: string, make: () => T) => Promise<T>

export const INVITE_TOKEN = `lkinv_${'T'.repeat(32)}`

export function makeMember(id: string, name: string, role: Role, email: string | null = null): Member {
  return { id, name, email, role, joinedAt: T0, invitedBy: role === 'owner' ? null : 'mem_owner' }
}

export class FakeTeam {
  members: Member[] = [
    makeMember('mem_owner', 'Owner', 'owner'),
    makeMember('mem_ana', 'Ana', 'member', 'ana@example.com'),
    makeMember('mem_bo', 'Bo', 'viewer', 'bo@example.com'),
  ]
  invitations: Invitation[] = [
    {
      id: 'inv_1',
      email: 'cy@example.com',
      role: 'admin',
      status: 'pending',
      expiresAt: '2099-01-01T00:00:00.000Z',
      invitedBy: 'mem_owner',
      createdAt: T0,
    },
  ]

  /** What GET /api/team/me answers; null: 404, as a linkd without teams. */
  whoami: Whoami | null = null

  constructor(private readonly serve: Serve) {}

  private member(id: string): Member {
    const m = this.members.find((x) => x.id === id)
    if (!m) throw apiError(404, 'Member not found')
    return m
  }

  /** The last owner cannot be removed or demoted, as the daemon says (409). */
  private lastOwner(m: Member): boolean {
    return m.role === 'owner' && this.members.filter((x) => x.role === 'owner').length === 1
  }

  team: TuiClient['team'] = {
    me: () =>
      this.serve('team.me', () => {
        if (!this.whoami) throw apiError(404, 'Route GET:/api/team/me not found')
        return this.whoami
      }),
    members: (q = {}) =>
      this.serve('team.members', () =>
        page(
          this.members.filter((m) => !q.role || m.role === q.role),
          q,
        ),
      ),
    invitations: (q = {}) =>
      this.serve(`team.invitations${q.status ? ` status=${q.status}` : ''}`, () =>
        page(
          this.invitations.filter((i) => !q.status || i.status === q.status),
          q,
        ),
      ),
    invite: (body) =>
      this.serve(`team.invite ${body.email}`, (): InvitationWithToken => {
        const invitation: Invitation = {
          id: `inv_${this.invitations.length + 1}`,
          email: body.email,
          role: body.role ?? 'member',
          status: 'pending',
          expiresAt: '2099-01-01T00:00:00.000Z',
          invitedBy: 'mem_owner',
          createdAt: T0,
        }
        this.invitations.push(invitation)
        return { ...invitation, token: INVITE_TOKEN }
      }),
    setRole: (id, role) =>
      this.serve(`team.setRole ${id} ${role}`, () => {
        const m = this.member(id)
        if (this.lastOwner(m) && role !== 'owner') throw apiError(409, 'The last owner cannot be demoted')
        m.role = role
        return m
      }),
    removeMember: (id) =>
      this.serve(`team.removeMember ${id}`, () => {
        if (this.lastOwner(this.member(id))) throw apiError(409, 'The last owner cannot be removed')
        this.members = this.members.filter((m) => m.id !== id)
      }),
    revokeInvitation: (id) =>
      this.serve(`team.revokeInvitation ${id}`, () => {
        const i = this.invitations.find((x) => x.id === id)
        if (!i) throw apiError(404, 'Invitation not found')
        i.status = 'revoked'
      }),
  }
}
