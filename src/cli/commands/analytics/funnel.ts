/**
 * `linkctl analytics funnel <game> --steps a,b:level=3,c`: players at each ordered step, with
 * conversion and the median time from the previous step; bars on a terminal, the whole funnel then
 * one table per group with --group-by (piped: one table with a GROUP column).
 */
import { Option, type Command } from 'commander'
import type { Funnel, FunnelStep } from '../../../contract/gaming-funnel.js'
import {
  FUNNEL_WINDOWS,
  PLAYER_GROUPS,
  type FunnelWindow,
  type PlayerGroup,
} from '../../../contract/limits.js'
import { bar, percent } from '../../../format/cells.js'
import { uptime } from '../../../format/uptime.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { COLUMN_GAP } from '../../../format/columns.js'
import {
  dateRange,
  emit,
  naturalWidth,
  note,
  printLine,
  printRows,
  terminalWidth,
  type Column,
} from '../../output.js'
import { gameAction, gameCommand, rangeQuery, type RangeOpts } from './shared.js'

export interface FunnelOpts extends RangeOpts {
  game: string
  steps: string
  window?: FunnelWindow
  groupBy?: PlayerGroup
}

/** A step's name as typed: `level_complete:level=3`. */
export const stepName = (s: FunnelStep) => (s.condition ? `${s.eventType}:${s.condition}` : s.eventType)
/** A ratio (0-1) as a percentage with one decimal; `-` when null (nothing to divide by). */
export const ratioText = (r: number | null) => (r === null ? '-' : percent(r * 100, 1))
/** Median seconds as a short duration (`3m 12s`); `-` on step 1 or when nobody reached it. */
export const medianText = (s: number | null) =>
  s === null ? '-' : s < 1 ? `${Math.round(s * 1000)}ms` : uptime(s)

type Row = FunnelStep & { group?: string }

/**
 * The longest bar: 30 characters, or the room the terminal leaves beside the figures; under 10,
 * no bars (the figures say it all).
 */
const BAR_MAX = 30
const BAR_MIN = 10

function columns(ctx: Ctx, rows: readonly Row[], grouped: boolean): Column<Row>[] {
  const tty = ctx.isTTY
  const top = rows[0]?.players ?? 0
  const figures: Column<Row>[] = [
    ...(grouped && !tty ? [{ header: 'GROUP', value: (r: Row) => r.group }] : []),
    { header: 'STEP', value: (r) => r.step },
    { header: 'EVENT', value: (r) => stepName(r) },
    { header: 'PLAYERS', value: (r) => r.players },
    { header: 'CONVERSION', value: (r) => (tty ? ratioText(r.conversion) : r.conversion) },
    {
      header: 'FROM PREVIOUS',
      name: 'step-conversion',
      value: (r) => (tty ? ratioText(r.stepConversion) : r.stepConversion),
    },
    {
      header: tty ? 'MEDIAN TIME' : 'MEDIAN SECONDS',
      name: 'median',
      value: (r) => (tty ? medianText(r.medianSecondsFromPrevious) : r.medianSecondsFromPrevious),
    },
  ]
  // Bars on a terminal only, scaled to the room left (a bar cut short would misstate its step).
  const used = figures.reduce((n, c) => n + COLUMN_GAP + naturalWidth(c, rows), 0)
  const width = Math.min(BAR_MAX, terminalWidth(ctx) - used)
  if (width < BAR_MIN) return figures
  return [...figures, { header: '', name: 'bar', only: 'tty', value: (r) => bar(r.players, top, width) }]
}

export async function runAnalyticsFunnel(o: FunnelOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const f: Funnel = await (
    await ctx.client()
  ).analytics.gameFunnel({
    gameId: o.game,
    steps: o.steps,
    ...(o.window ? { window: o.window } : {}),
    ...(o.groupBy ? { groupBy: o.groupBy } : {}),
    ...rangeQuery(o),
  })
  await emit(ctx, f, async () => {
    if (!f.groups) await printRows(ctx, f.data, columns(ctx, f.data, false))
    else if (!ctx.isTTY) {
      const rows = f.groups.flatMap((g) => g.steps.map((s) => ({ ...s, group: g.group })))
      await printRows(ctx, rows, columns(ctx, rows, true))
    } else {
      // The whole funnel first, as without --group-by, then each group's.
      printLine(ctx, 'All players')
      await printRows(ctx, f.data, columns(ctx, f.data, false))
      for (const g of f.groups) {
        ctx.stdout.write('\n')
        printLine(ctx, g.group)
        await printRows(ctx, g.steps, columns(ctx, g.steps, true))
      }
    }
    if (ctx.isTTY) note(ctx, `${dateRange(f.range.startDate, f.range.endDate)}, window ${o.window ?? '1d'}`)
  })
}

export function register(analytics: Command): void {
  gameCommand(
    analytics,
    'funnel',
    'players at each ordered step of a funnel, conversion and median time between steps (bars on a terminal)',
  )
    .requiredOption('--steps <steps>', '2-10 comma-separated event types, each optionally type:field=value')
    .addOption(
      new Option('--window <window>', 'from step 1 to the last step (default 1d)').choices(
        Object.keys(FUNNEL_WINDOWS),
      ),
    )
    .addOption(new Option('--group-by <group>', 'one funnel per value of the player').choices(PLAYER_GROUPS))
    .action(gameAction<Omit<FunnelOpts, 'game'>>(runAnalyticsFunnel))
}
