/** `linkctl team revoke-invite <invitationId>`: a pending invitation's token stops working. */
import type { Command } from 'commander'
import { idAction } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { note } from '../../output.js'

export async function runTeamRevokeInvite(opts: { id: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  await (await ctx.client()).team.revokeInvitation(opts.id)
  note(ctx, `Revoked invitation ${opts.id}: its token no longer works`)
}

export function register(team: Command): void {
  team
    .command('revoke-invite')
    .description('revoke a pending invitation (its token stops working)')
    .argument('<invitationId>', 'invitation id (inv_…)')
    .action(idAction<object>(runTeamRevokeInvite))
}
