/**
 * `linkctl analytics funnel <game> --steps a,b:level=3,c`: players at each ordered step, with
 * conversion and the median time from the previous step; bars on a terminal, one table per group
 * with --group-by (piped: one table with a GROUP column).
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
import { dateRange, emit, note, printLine, printRows, type Column } from '../../output.js'
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

function columns(ctx: Ctx, top: number, grouped: boolean): Column<Row>[] {
  const tty = ctx.isTTY
  return [
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
    // Bars on a terminal only, shortened first when the table is wider than it.
    { header: '', name: 'bar', only: 'tty', fit: 'flex', value: (r) => bar(r.players, top, 30) },
  ]
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
    if (!f.groups) await printRows(ctx, f.data, columns(ctx, f.data[0]?.players ?? 0, false))
    else if (!ctx.isTTY)
      await printRows(
        ctx,
        f.groups.flatMap((g) => g.steps.map((s) => ({ ...s, group: g.group }))),
        columns(ctx, 0, true),
      )
    else
      for (const g of f.groups) {
        ctx.stdout.write('\n')
        printLine(ctx, g.group)
        await printRows(ctx, g.steps, columns(ctx, g.steps[0]?.players ?? 0, true))
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
