/** `linkctl team role <member> <role>` (id, e-mail or name): change a member's role (their keys follow at once). */
import type { Command } from 'commander'
import type { Role } from '../../../contract/scopes.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, note } from '../../output.js'
import { MEMBER_ARG_HELP, memberIdOf, roleArgument, roster } from './shared.js'

export interface RoleOpts {
  id: string
  role: Role
}

export async function runTeamRole(opts: RoleOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const member = await client.team.setRole(await memberIdOf(roster(client), opts.id), opts.role)
  if (ctx.json) await emit(ctx, member, () => undefined)
  else
    note(ctx, `${member.name} (${member.id}) is now ${member.role}; their keys are bounded by it from now on`)
}

export function register(team: Command): void {
  jsonOption(
    team
      .command('role')
      .description("change a member's role (owner, admin, member, viewer)")
      .argument('<member>', MEMBER_ARG_HELP)
      .addArgument(roleArgument()),
  ).action(action<object>(([id, role], _opts, ctx) => runTeamRole({ id: id ?? '', role: role as Role }, ctx)))
}
