/**
 * `linkctl analytics retention <game>`: the cohort triangle (install day or ISO week × D0 … D30),
 * each cell coloured by its band on a colour terminal (NO_COLOR honoured); not reached: blank.
 */
import { Option, type Command } from 'commander'
import type { Retention, RetentionRow } from '../../../contract/gaming.js'
import { PLAYER_GROUPS, RETENTION_DAYS, type PlayerGroup } from '../../../contract/limits.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRows, type Column } from '../../output.js'
import { gameAction, gameCommand, rangeQuery, type RangeOpts } from './shared.js'

export interface RetentionOpts extends RangeOpts {
  game: string
  granularity?: 'day' | 'week'
  groupBy?: PlayerGroup
  returnEvent?: string
}

type Cell = RetentionRow['days']['d0']
/** SGR colour of each band: green, yellow, amber (256-colour orange), red; none dimmed. */
const BAND_COLOUR = { green: '32', yellow: '33', amber: '38;5;208', red: '31', none: '2' } as const

/** A cohort's day as text: `41.5%`, blank when not reached. */
export function retentionCell(cell: Cell): string {
  return cell ? `${cell.percentage.toFixed(1)}%` : ''
}

export async function runAnalyticsRetention(o: RetentionOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const r: Retention = await (
    await ctx.client()
  ).analytics.gameRetention(o.game, {
    ...rangeQuery(o),
    ...(o.granularity ? { granularity: o.granularity } : {}),
    ...(o.groupBy ? { groupBy: o.groupBy } : {}),
    ...(o.returnEvent !== undefined ? { returnEvent: o.returnEvent } : {}),
  })
  const columns: Column<RetentionRow>[] = [
    ...(o.groupBy
      ? [{ header: o.groupBy.toUpperCase(), name: 'group', value: (row: RetentionRow) => row.group }]
      : []),
    { header: 'COHORT', value: (row) => row.cohort },
    { header: 'SIZE', value: (row) => row.size },
    ...RETENTION_DAYS.map((n) => ({
      header: `D${n}`,
      // A blank (not '-') keeps the triangle's shape on a terminal.
      value: (row: RetentionRow) => retentionCell(row.days[`d${n}`]) || (ctx.isTTY ? ' ' : ''),
      // The band's colour is added by the table writer, after the widths are measured.
      style: (row: RetentionRow) => {
        const cell = row.days[`d${n}`]
        return cell ? BAND_COLOUR[cell.band] : undefined
      },
    })),
  ]
  await emit(ctx, r, () => printRows(ctx, r.data, columns))
}

export function register(analytics: Command): void {
  gameCommand(
    analytics,
    'retention',
    'retention cohorts: players retained on days 0, 1, 3, 7, 14 and 30 after install (a coloured triangle on a terminal)',
  )
    .addOption(
      new Option('--granularity <unit>', 'one cohort per install day or ISO week').choices(['day', 'week']),
    )
    .addOption(
      new Option('--group-by <group>', 'one cohort list per value of the player').choices(PLAYER_GROUPS),
    )
    .option('--return-event <type>', 'retained on day N: sent this event type that day (default: any event)')
    .action(gameAction<Omit<RetentionOpts, 'game'>>(runAnalyticsRetention))
}
