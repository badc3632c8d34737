/** `linkctl team invitations`: one page of the organization's invitations. */
import type { Command } from 'commander'
import type { INVITATION_STATUSES } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { invitationColumns, statusOption } from './shared.js'

export interface InvitationsOpts extends PageFlags {
  status?: (typeof INVITATION_STATUSES)[number]
}

export async function runTeamInvitations(opts: InvitationsOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, opts, (query) =>
    client.team.invitations({ ...query, ...(opts.status ? { status: opts.status } : {}) }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No invitations match.')
    await printRows(ctx, page.data, invitationColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(team: Command): void {
  const invitations = team
    .command('invitations')
    .description('list invitations (pending, accepted, revoked, expired)')
  invitations.addOption(statusOption())
  jsonOption(columnsOption(pageOptions(invitations), invitationColumns(false))).action(
    action<InvitationsOpts>((_args, opts, ctx) => runTeamInvitations(opts, ctx)),
  )
}
