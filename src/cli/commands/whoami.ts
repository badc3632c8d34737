/** `linkctl whoami`: the member, role, key and organization the configured key acts as. */
import type { Command } from 'commander'
import type { Whoami } from '../../contract/team.js'
import { action, jsonOption } from '../action.js'
import { requireKey, type Ctx } from '../../session/context.js'
import { emit, printRecord, type Field } from '../output.js'

function whoamiFields(me: Whoami, tty: boolean): Field[] {
  const sep = tty ? ', ' : ','
  const narrowed = me.permissions.filter((p) => !me.effectivePermissions.includes(p))
  const fields: Field[] = [
    ['MEMBER', `${me.member.name} (${me.member.id})`],
    ['ROLE', me.member.role],
    ['EMAIL', me.member.email],
    ['KEY', `${me.key.name} (${me.key.id}, ${me.key.preview})`],
    ['ORGANIZATION', `${me.organization.name} (${me.organization.id}, ${me.organization.plan})`],
    ['PERMISSIONS', me.effectivePermissions.join(sep)],
  ]
  // Scopes the key holds that its member's role takes away: why a request may be refused.
  if (narrowed.length > 0) fields.push([`NOT IN ROLE`, narrowed.join(sep)])
  return fields
}

export async function runWhoami(_opts: object, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const me = await (await ctx.client()).team.me()
  await emit(ctx, me, () => printRecord(ctx, whoamiFields(me, ctx.isTTY)))
}

export function register(program: Command): void {
  jsonOption(
    program
      .command('whoami')
      .description('show who the configured key is: member, role, key, organization, permissions'),
  ).action(action<object>((_args, opts, ctx) => runWhoami(opts, ctx)))
}
