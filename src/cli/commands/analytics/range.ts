/** The date-range flags of the gaming analytics verbs and the query they become. */
import type { Command } from 'commander'

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
