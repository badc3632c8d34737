/**
 * `linkctl team ...`: members, roles and invitations over /api/team. Each verb is one file beside
 * this one (`team revoke-invite` → revoke-invite.ts); the order below is the order of `team --help`.
 */
import type { Command } from 'commander'
import { register as registerInvitations } from './invitations.js'
import { register as registerInvite } from './invite.js'
import { register as registerJoin } from './join.js'
import { register as registerMembers } from './members.js'
import { register as registerRemove } from './remove.js'
import { register as registerRevokeInvite } from './revoke-invite.js'
import { register as registerRole } from './role.js'

export function register(program: Command): void {
  const team = program.command('team').description('manage team members, roles and invitations')
  for (const registerVerb of [
    registerMembers,
    registerInvite,
    registerInvitations,
    registerRevokeInvite,
    registerRole,
    registerRemove,
    registerJoin,
  ])
    registerVerb(team)
}
