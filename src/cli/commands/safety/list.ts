/** `linkctl safety lists list`: the organization's safety lists, by name. */
import type { Command } from 'commander'
import type { SafetyList } from '../../../contract/safety.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows, when, type Column } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'

export const safetyListColumns = (tty: boolean): Column<SafetyList>[] => [
  { header: 'ID', value: (l) => l.id },
  { header: 'NAME', value: (l) => l.name, fit: 'flex' },
  { header: 'FORMAT', value: (l) => l.format },
  { header: 'HOSTS', value: (l) => l.entries },
  { header: 'SKIPPED', value: (l) => l.skipped, drop: 2 },
  { header: 'UPDATED', value: (l) => when(l.updatedAt, tty), drop: 1 },
]

export async function runSafetyListsList(o: PageFlags, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, o, (query) => client.safety.lists(query))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY)
      return note(ctx, 'No safety list yet: linkctl safety lists add <file> --name <name>')
    await printRows<SafetyList>(ctx, page.data, safetyListColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(lists: Command): void {
  const list = lists.command('list').alias('ls').description('list the safety lists')
  jsonOption(columnsOption(pageOptions(list), safetyListColumns(false))).action(
    action<PageFlags>((_args, o, ctx) => runSafetyListsList(o, ctx)),
  )
}
