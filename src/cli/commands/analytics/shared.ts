/**
 * What the `linkctl analytics` verbs share: the game argument, the date range flags, money headers
 * with the currency and the grouped reports (revenue, attribution).
 */
import { Option, type Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import type { Ctx } from '../../../session/context.js'
import { dateRange, emit, money, note, printRows, type Column } from '../../output.js'
import { dayArg } from '../../parse.js'

export interface RangeOpts {
  startDate?: string
  endDate?: string
  /** Hidden aliases of --start-date and --end-date (scripts of older linkctl use them). */
  from?: string
  to?: string
}

export const START_DATE_HELP = 'first UTC day (YYYY-MM-DD; default 29 days before the end)'
export const END_DATE_HELP = 'last UTC day (YYYY-MM-DD; default today; at most 366 days in all)'

/** --start-date and --end-date (UTC days) on a command, and --from/--to as their hidden aliases. */
export function rangeOptions(cmd: Command, help = { start: START_DATE_HELP, end: END_DATE_HELP }): Command {
  return cmd
    .option('--start-date <date>', help.start, dayArg)
    .option('--end-date <date>', help.end, dayArg)
    .addOption(new Option('--from <date>').argParser(dayArg).conflicts('startDate').hideHelp())
    .addOption(new Option('--to <date>').argParser(dayArg).conflicts('endDate').hideHelp())
}

/** `<game>`, --start-date, --end-date and --json on a new verb. */
export function gameCommand(analytics: Command, verb: string, description: string): Command {
  return jsonOption(
    rangeOptions(analytics.command(verb).description(description).argument('<game>', 'game id')),
  )
}

/** The range flags as query parameters (absent ones left out). */
export const rangeQuery = (o: RangeOpts) => {
  const [startDate, endDate] = [o.startDate ?? o.from, o.endDate ?? o.to]
  return { ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) }
}

/** The action of a verb whose first argument is the game. */
export const gameAction = <O>(run: (o: O & { game: string }, ctx: Ctx) => Promise<void>) =>
  action<O>(([game], o, ctx) => run({ ...o, game: game ?? '' }, ctx))

/**
 * A money column header: with the currency when piped (`REVENUE (USD)`), whose cells are bare
 * numbers; plain on a terminal, whose cells name it (`4.99 USD`, see `amount`).
 */
export const inCurrency = (header: string, currency: string | undefined, tty = false) =>
  tty || !currency ? header : `${header} (${currency})`

/** Money cells: 2 decimals, and the currency on a terminal (`4.99 USD`). */
export const amount = (currency: string | undefined, tty: boolean) => (n: number) =>
  money(n, 2, tty ? currency : undefined)

/** The game's reporting currency, for reports whose answer does not name it (undefined if unreadable). */
export async function currencyOf(ctx: Ctx, game: string): Promise<string | undefined> {
  return (await ctx.client()).games.get(game).then(
    (g) => g.reportingCurrency,
    () => undefined,
  )
}

/**
 * A grouped report (revenue, attribution): its rows then a TOTAL row, and on a terminal the range
 * and currency; the API's JSON with --json.
 */
export async function emitGrouped<Row extends { group: string }>(
  ctx: Ctx,
  report: {
    data: Row[]
    totals: Omit<Row, 'group'>
    currency: string
    range: { startDate: string; endDate: string }
  },
  columns: Column<Row>[],
): Promise<void> {
  await emit(ctx, report, async () => {
    await printRows(ctx, [...report.data, { group: 'TOTAL', ...report.totals } as Row], columns)
    if (ctx.isTTY)
      note(ctx, `${dateRange(report.range.startDate, report.range.endDate)}, in ${report.currency}`)
  })
}
