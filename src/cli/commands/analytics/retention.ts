/**
 * `linkctl analytics retention <game>`: the cohort triangle (install day or ISO week × D0 … D30),
 * each cell coloured by its band on a colour terminal (NO_COLOR honoured); not reached: blank.
 */
import { Option, type Command } from 'commander'
import type { Retention, RetentionRow } from '../../../contract/gaming.js'
import { RETENTION_DAYS } from '../../../contract/limits.js'
import { requireKey, type Ctx } from '../../context.js'
import { emit, printRows, type Column } from '../../output.js'
import { gameAction, gameCommand, rangeQuery, type RangeOpts } from './shared.js'

export interface RetentionOpts extends RangeOpts {
  game: string
  granularity?: 'day' | 'week'
}

type Cell = RetentionRow['days']['d0']
/** SGR colour of each band: green, yellow, amber (256-colour orange), red; none dimmed. */
const BAND_COLOUR = { green: '32', yellow: '33', amber: '38;5;208', red: '31', none: '2' } as const

export function retentionCell(cell: Cell, color: boolean): string {
  if (!cell) return ''
  const text = `${cell.percentage.toFixed(1)}%`
  return color ? `\x1b[${BAND_COLOUR[cell.band]}m${text}\x1b[0m` : text
}

export async function runAnalyticsRetention(o: RetentionOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const r: Retention = await (
    await ctx.client()
  ).analytics.gameRetention(o.game, {
    ...rangeQuery(o),
    ...(o.granularity ? { granularity: o.granularity } : {}),
  })
  const columns: Column<RetentionRow>[] = [
    { header: 'COHORT', value: (row) => row.cohort },
    { header: 'SIZE', value: (row) => row.size },
    ...RETENTION_DAYS.map((n) => ({
      header: `D${n}`,
      // A blank (not '-') keeps the triangle's shape on a terminal.
      value: (row: RetentionRow) => retentionCell(row.days[`d${n}`], ctx.color) || (ctx.isTTY ? ' ' : ''),
    })),
  ]
  await emit(ctx, r, () => printRows(ctx, r.data, columns))
}

export function register(analytics: Command): void {
  gameCommand(
    analytics,
    'retention',
    'retention cohorts: players retained on days 0, 1, 3, 7, 14 and 30 after install',
  )
    .addOption(
      new Option('--granularity <unit>', 'one cohort per install day or ISO week').choices(['day', 'week']),
    )
    .action(gameAction<Omit<RetentionOpts, 'game'>>(runAnalyticsRetention))
}
