/** The team reads of the TUI's fake client: members and invitations held in memory. */
import type { Invitation, Member, Whoami } from '../../src/contract/team.js'
import type { Role } from '../../src/contract/scopes.js'
import type { TuiClient } from '../../src/tui/api.js'
import { page, T0 } from './fake-data.js'
import { apiError, notServed } from './fake-client.js'

type Serve = <T>(name: string, make: () => T) => Promise<T>

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
    invite: notServed('team.invite'),
    setRole: notServed('team.setRole'),
    removeMember: notServed('team.removeMember'),
    revokeInvitation: notServed('team.revokeInvitation'),
  }
}
