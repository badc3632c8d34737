/** What the `linkctl analytics` verbs share: the game argument and the date range flags. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import type { Ctx } from '../../context.js'

export interface RangeOpts {
  startDate?: string
  endDate?: string
}

export const START_DATE_HELP = 'first UTC day (YYYY-MM-DD; default 29 days before the end)'
export const END_DATE_HELP = 'last UTC day (YYYY-MM-DD; default today; at most 366 days in all)'

/** `<game>`, --start-date, --end-date and --json on a new verb. */
export function gameCommand(analytics: Command, verb: string, description: string): Command {
  return jsonOption(
    analytics
      .command(verb)
      .description(description)
      .argument('<game>', 'game id')
      .option('--start-date <date>', START_DATE_HELP)
      .option('--end-date <date>', END_DATE_HELP),
  )
}

/** The range flags as query parameters (absent ones left out). */
export const rangeQuery = (o: RangeOpts) => ({
  ...(o.startDate ? { startDate: o.startDate } : {}),
  ...(o.endDate ? { endDate: o.endDate } : {}),
})

/** The action of a verb whose first argument is the game. */
export const gameAction = <O>(run: (o: O & { game: string }, ctx: Ctx) => Promise<void>) =>
  action<O>(([game], o, ctx) => run({ ...o, game: game ?? '' }, ctx))
