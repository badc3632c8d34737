/** `linkctl safety lists remove <list>`: delete a safety list, by id or name (asks on a terminal). */
import type { Command } from 'commander'
import { action } from '../../action.js'
import { confirmOrStop } from '../../confirm.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT } from '../../../session/exit-codes.js'
import { note } from '../../output.js'

export async function runSafetyListsRemove(o: { list: string; yes?: boolean }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  // A name is looked up among the lists (at most 5: one page).
  const id = o.list.startsWith('sfl_')
    ? o.list
    : (await client.safety.lists({ limit: 100 })).data.find((l) => l.name === o.list)?.id
  if (!id) throw new CliError(`safety list ${o.list} not found`, EXIT.notFound)
  await confirmOrStop(ctx, {
    yes: o.yes,
    action: `remove safety list ${o.list}`,
    question: `Remove safety list ${o.list}? Its hosts are allowed again and the links and domain roots it flagged are cleared.`,
  })
  await client.safety.deleteList(id)
  note(ctx, `Removed safety list ${o.list}`)
}

export function register(lists: Command): void {
  lists
    .command('remove')
    .alias('rm')
    .description('remove a safety list')
    .argument('<list>', 'list id (sfl_…) or name')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(
      action<{ yes?: boolean }>(([list], o, ctx) => runSafetyListsRemove({ ...o, list: list ?? '' }, ctx)),
    )
}
