/** `linkctl fraud review <game> <eventId> <legitimate|fraud|pending>`: review a fraud event. */
import { Argument, type Command } from 'commander'
import { FRAUD_REVIEWS, type FraudReview } from '../../../contract/fraud-limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRows } from '../../output.js'
import { EVENT_COLUMNS, GAME_ARGUMENT } from './shared.js'

export async function runFraudReview(
  o: { game: string; event: string; review: FraudReview },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const e = await (await ctx.client()).fraud.review(o.game, o.event, o.review)
  await emit(ctx, e, () => printRows(ctx, [e], EVENT_COLUMNS(ctx.isTTY)))
}

export function register(fraud: Command): void {
  jsonOption(
    fraud
      .command('review')
      .description('mark a fraud event legitimate (a false positive) or fraud; pending clears the review')
      .argument('<game>', GAME_ARGUMENT)
      .argument('<eventId>', 'fraud event id (fev_…)')
      .addArgument(new Argument('<review>', 'the verdict').choices(FRAUD_REVIEWS)),
  ).action(
    action(([game, event, review], _o, ctx) =>
      runFraudReview({ game: game ?? '', event: event ?? '', review: review as FraudReview }, ctx),
    ),
  )
}
