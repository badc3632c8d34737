/** What the `team` verbs share: how members and invitations look, and the role argument. */
import { Argument, Option } from 'commander'
import type { LinkdClient } from '../../../client/index.js'
import type { PageOf } from '../../../contract/common.js'
import type { Invitation, Member } from '../../../contract/team.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import { INVITATION_STATUSES } from '../../../contract/limits.js'
import { ROLES } from '../../../contract/scopes.js'
import { when, type Column } from '../../output.js'
import { allRows } from '../../paging.js'

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

/**
 * The organization's members, fetched once however often asked (pages of 100; teams are small);
 * with `removed`, the removed ones too (they carry `removedAt`), as the audit log names them.
 */
export function roster(client: LinkdClient, opts: { removed?: boolean } = {}): () => Promise<Member[]> {
  let members: Promise<Member[]> | undefined
  return () =>
    (members ??= allRows<Member, PageOf<Member>>((query) =>
      client.team.members({ ...query, ...(opts.removed ? { include: 'removed' as const } : {}) }),
    ).then((all) => all.rows))
}

/** A member's name as a person reads it: `Ana`, or `Ana (removed)`. */
export const memberName = (m: Member): string => (m.removedAt ? `${m.name} (removed)` : m.name)

/**
 * A member named by id (`mem_…`, taken as is), e-mail or name (both case-insensitive). A member
 * still present wins over removed ones of the same e-mail or name (invited again); `onOthers`
 * hears about those.
 */
export async function memberIdOf(
  members: () => Promise<Member[]>,
  ref: string,
  onOthers?: (text: string) => void,
): Promise<string> {
  if (ref.startsWith('mem_')) return ref
  const wanted = ref.toLowerCase()
  const all = await members()
  const byEmail = all.filter((m) => m.email?.toLowerCase() === wanted)
  const named = byEmail.length > 0 ? byEmail : all.filter((m) => m.name.toLowerCase() === wanted)
  const present = named.filter((m) => !m.removedAt)
  const found = present.length > 0 ? present : named
  if (found.length === 1) {
    const others = named.filter((m) => m !== found[0])
    if (others.length > 0)
      onOthers?.(
        `"${ref}" also names ${others.map((m) => `${m.id} (removed)`).join(', ')}: pass an id for that member`,
      )
    return found[0]!.id
  }
  if (found.length === 0)
    throw new CliError(
      `no member with the e-mail or name "${ref}" (linkctl team members lists them)`,
      EXIT.notFound,
    )
  throw new UsageError(
    `"${ref}" names ${found.length} members (${found.map((m) => m.id).join(', ')}): use the id`,
  )
}

/** The `<member>` argument of the verbs that act on one member. */
export const MEMBER_ARG_HELP = 'member id (mem_…), e-mail or name'
