/** `linkctl fraud blocklist add <game> <value>`: block an IP or a device fingerprint for 30 days. */
import { Option, type Command } from 'commander'
import { BLOCK_TYPES, type BlockType } from '../../../../contract/fraud-limits.js'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { emit, printRecord, when } from '../../../output.js'
import { GAME_ARGUMENT } from '../shared.js'

export async function runFraudBlocklistAdd(
  o: { game: string; value: string; type?: BlockType; reason?: string },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const e = await (
    await ctx.client()
  ).fraud.block(o.game, {
    type: o.type ?? 'ip',
    value: o.value,
    ...(o.reason !== undefined ? { reason: o.reason } : {}),
  })
  await emit(ctx, e, () =>
    printRecord(ctx, [
      ['ID', e.id],
      ['TYPE', e.type],
      ['VALUE', e.value],
      ['REASON', e.reason || '-'],
      ['EXPIRES', when(e.expiresAt, ctx.isTTY)],
    ]),
  )
}

export function register(blocklist: Command): void {
  const add = blocklist
    .command('add')
    .description('block an IP address or device fingerprint for 30 days')
    .argument('<game>', GAME_ARGUMENT)
    .argument('<value>', 'IPv4 or IPv6 address, or device fingerprint hash with --type device')
    .addOption(new Option('--type <type>', 'what the value is').choices(BLOCK_TYPES).default('ip'))
    .option('--reason <text>', 'why (shown in the list)')
  jsonOption(add).action(
    action<{ type?: BlockType; reason?: string }>(([game, value], o, ctx) =>
      runFraudBlocklistAdd({ ...o, game: game ?? '', value: value ?? '' }, ctx),
    ),
  )
}
