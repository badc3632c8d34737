/** `linkctl team members` (or `team list`): one page of the organization's members and their roles. */
import type { Command } from 'commander'
import type { Role } from '../../../contract/scopes.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { memberColumns, roleOption } from './shared.js'

export interface MembersOpts extends PageFlags {
  role?: Role
}

export async function runTeamMembers(opts: MembersOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, opts, (query) =>
    client.team.members({ ...query, ...(opts.role ? { role: opts.role } : {}) }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No members match.')
    await printRows(ctx, page.data, memberColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(team: Command): void {
  // `list`/`ls` as every other noun's listing verb.
  const members = team
    .command('members')
    .aliases(['list', 'ls'])
    .description('list the members of the organization and their roles')
  members.addOption(roleOption('only members with this role'))
  jsonOption(columnsOption(pageOptions(members), memberColumns(false))).action(
    action<MembersOpts>((_args, opts, ctx) => runTeamMembers(opts, ctx)),
  )
}
