/** `linkctl fraud blocklist remove <game> <entry>`: unblock (asks on a terminal). */
import type { Command } from 'commander'
import { action } from '../../../action.js'
import { confirmOrStop } from '../../../confirm.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { note } from '../../../output.js'
import { GAME_ARGUMENT } from '../shared.js'

export async function runFraudBlocklistRemove(
  o: { game: string; id: string; yes?: boolean },
  ctx: Ctx,
): Promise<void> {
  await confirmOrStop(ctx, {
    yes: o.yes,
    action: `remove blocklist entry ${o.id}`,
    question: `Remove blocklist entry ${o.id} of game ${o.game}? Its events are accepted again.`,
  })
  await requireKey(ctx)
  await (await ctx.client()).fraud.unblock(o.game, o.id)
  note(ctx, `Removed blocklist entry ${o.id}`)
}

export function register(blocklist: Command): void {
  blocklist
    .command('remove')
    .alias('rm')
    .description('remove a blocklist entry')
    .argument('<game>', GAME_ARGUMENT)
    .argument('<entry>', 'entry id (blk_…)')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(
      action<{ yes?: boolean }>(([game, id], o, ctx) =>
        runFraudBlocklistRemove({ ...o, game: game ?? '', id: id ?? '' }, ctx),
      ),
    )
}
