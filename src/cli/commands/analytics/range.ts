/** The date-range flags of the gaming analytics verbs and the query they become. */
import type { Command } from 'commander'
import type { Ctx } from '../../context.js'
import { emit, note, printRows, type Column } from '../../output.js'

export interface RangeFlags {
  startDate?: string
  endDate?: string
}

export function rangeOptions(cmd: Command): Command {
  return cmd
    .option('--start-date <date>', 'first UTC day (YYYY-MM-DD; default 29 days before the end)')
    .option('--end-date <date>', 'last UTC day (YYYY-MM-DD; default today)')
}

export function rangeQuery(o: RangeFlags): RangeFlags {
  return {
    ...(o.startDate ? { startDate: o.startDate } : {}),
    ...(o.endDate ? { endDate: o.endDate } : {}),
  }
}

/** A money column header with the currency: `REVENUE (USD)`. */
export const inCurrency = (header: string, currency: string) => `${header} (${currency})`

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
    if (ctx.isTTY) note(ctx, `${report.range.startDate} .. ${report.range.endDate}, in ${report.currency}`)
  })
}
