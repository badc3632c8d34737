/** `linkctl fraud events <game>`: a game's fraud events, newest first, filtered. */
import { Option, type Command } from 'commander'
import type { FraudEventsQuery } from '../../../contract/fraud.js'
import {
  FRAUD_EVENT_STATUSES,
  THREAT_TYPES,
  type FraudEventStatus,
  type ThreatType,
} from '../../../contract/fraud-limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { rangeOptions, rangeQuery, type RangeOpts } from '../analytics/shared.js'
import { EVENT_COLUMNS, GAME_ARGUMENT } from './shared.js'

export interface EventsFlags extends PageFlags, RangeOpts {
  threat?: ThreatType
  status?: FraudEventStatus
  player?: string
}

/** The filters of the flags as the events route's query. */
export const eventsFilter = (o: EventsFlags): FraudEventsQuery => ({
  ...(o.threat !== undefined ? { threatType: o.threat } : {}),
  ...(o.status !== undefined ? { status: o.status } : {}),
  ...(o.player !== undefined ? { playerId: o.player } : {}),
  ...rangeQuery(o),
})

export async function runFraudEvents(o: EventsFlags & { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const filter = eventsFilter(o)
  const page = await fetchList(ctx, o, (query) => client.fraud.events(o.game, { ...filter, ...query }))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No fraud events.')
    await printRows(ctx, page.data, EVENT_COLUMNS(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(fraud: Command): void {
  const events = fraud
    .command('events')
    .description(
      "list a game's fraud events (blocked and flagged; a Log rule's records with --status logged), newest first",
    )
    .argument('<game>', GAME_ARGUMENT)
    .addOption(new Option('--threat <type>', 'only this threat type').choices(THREAT_TYPES))
    .addOption(
      new Option('--status <status>', 'only blocked, detected (flagged) or logged (Log rule) events').choices(
        FRAUD_EVENT_STATUSES,
      ),
    )
    .option('--player <id>', "only this player's events")
  rangeOptions(events, {
    start: 'first UTC day (YYYY-MM-DD; default: no bound)',
    end: 'last UTC day, included (YYYY-MM-DD; default: no bound)',
  })
  jsonOption(columnsOption(pageOptions(events), EVENT_COLUMNS(false))).action(
    action<EventsFlags>(([game], o, ctx) => runFraudEvents({ ...o, game: game ?? '' }, ctx)),
  )
}
