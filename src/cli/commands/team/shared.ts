/** What the `team` verbs share: how members and invitations look, and the role argument. */
import { Argument, Option } from 'commander'
import type { Invitation, Member } from '../../../contract/team.js'
import { INVITATION_STATUSES } from '../../../contract/limits.js'
import { ROLES } from '../../../contract/scopes.js'
import { when, type Column } from '../../output.js'

export function memberColumns(tty: boolean): Column<Member>[] {
  return [
    { header: 'ID', value: (m) => m.id },
    { header: 'NAME', value: (m) => m.name, fit: 'flex' },
    { header: 'ROLE', value: (m) => m.role },
    { header: 'EMAIL', value: (m) => m.email, drop: 2 },
    { header: 'JOINED', value: (m) => when(m.joinedAt, tty) },
    { header: 'INVITED BY', value: (m) => m.invitedBy, drop: 1 },
  ]
}

export function invitationColumns(tty: boolean): Column<Invitation>[] {
  return [
    { header: 'ID', value: (i) => i.id },
    { header: 'EMAIL', value: (i) => i.email, fit: 'flex' },
    { header: 'ROLE', value: (i) => i.role },
    { header: 'STATUS', value: (i) => i.status },
    { header: 'EXPIRES', value: (i) => when(i.expiresAt, tty) },
    { header: 'INVITED BY', value: (i) => i.invitedBy, drop: 2 },
    { header: 'CREATED', value: (i) => when(i.createdAt, tty), drop: 1 },
  ]
}

/** `--role <role>` with the four roles as choices. */
export function roleOption(description: string, fallback?: string): Option {
  const option = new Option('--role <role>', description).choices(ROLES)
  return fallback ? option.default(fallback) : option
}

/** The `<role>` argument of `team role`. */
export function roleArgument(): Argument {
  return new Argument('<role>', 'the new role').choices(ROLES)
}

export const statusOption = (): Option =>
  new Option('--status <status>', 'only invitations with this status').choices(INVITATION_STATUSES)
