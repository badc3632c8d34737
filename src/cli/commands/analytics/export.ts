/**
 * `linkctl analytics export <game> --type T`: the daemon's streamed export (CSV or a JSON array)
 * written to --output FILE (a temporary file renamed when complete) or stdout, with a progress
 * line on stderr when it is a terminal. The body is copied as it arrives: constant memory.
 */
import { extname } from 'node:path'
import { Option, type Command } from 'commander'
import type { ExportQuery } from '../../../contract/gaming.js'
import { ATTRIBUTION_GROUPS, EXPORT_LIMITS, EXPORT_TYPES, REVENUE_GROUPS } from '../../../contract/limits.js'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { note } from '../../output.js'
import { intArg } from '../../parse.js'
import { exportTo } from '../../sink.js'
import { END_DATE_HELP, gameAction, rangeQuery, START_DATE_HELP, type RangeOpts } from './shared.js'

export interface AnalyticsExportOpts extends RangeOpts {
  game: string
  type: ExportQuery['type']
  format?: 'csv' | 'json'
  limit?: number
  granularity?: 'day' | 'week'
  groupBy?: ExportQuery['groupBy']
  output?: string
}

export async function runAnalyticsExport(o: AnalyticsExportOpts, ctx: Ctx): Promise<void> {
  const format =
    o.format ?? (ctx.json || (o.output && extname(o.output).toLowerCase() === '.json') ? 'json' : 'csv')
  await requireKey(ctx)
  const client = await ctx.client()
  // Asked before the file is created: a 400 or 404 leaves nothing behind.
  const answer = await client.analytics.gameExport(o.game, {
    type: o.type,
    format,
    ...rangeQuery(o),
    ...(o.limit ? { limit: o.limit } : {}),
    ...(o.granularity ? { granularity: o.granularity } : {}),
    ...(o.groupBy ? { groupBy: o.groupBy } : {}),
  })
  const decoder = new TextDecoder()
  let lines = 0
  const toFile = await exportTo(ctx, o.output, async (sink, progress) => {
    for await (const chunk of answer.body) {
      const text = decoder.decode(chunk, { stream: true })
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++
      await sink.write(text)
      // CSV: the header is a line; JSON: the opening bracket is.
      progress.update(Math.max(0, lines - 1), undefined, 'rows')
    }
    await sink.write(decoder.decode())
  })
  if (toFile) note(ctx, `Exported ${o.type} to ${o.output}`)
}

export function register(analytics: Command): void {
  jsonOption(analytics.command('export'))
    .description(
      'export a report as CSV or JSON, streamed (to --output through a temporary file: an error leaves nothing)',
    )
    .argument('<game>', 'game id')
    .addOption(new Option('--type <type>', 'what to export').choices(EXPORT_TYPES).makeOptionMandatory())
    .addOption(
      new Option(
        '--format <format>',
        'output format (default: json with --json or a .json --output, else csv)',
      ).choices(['csv', 'json']),
    )
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option(
      '--limit <n>',
      `at most this many rows (default ${EXPORT_LIMITS.default})`,
      intArg(1, EXPORT_LIMITS.max),
    )
    .addOption(
      new Option(
        '--group-by <group>',
        'revenue: day, week, month, platform, source (default day); attribution: affiliate, campaign, source, medium, link (default source)',
      ).choices([...new Set([...REVENUE_GROUPS, ...ATTRIBUTION_GROUPS])]),
    )
    .addOption(
      new Option('--granularity <unit>', 'retention cohorts by day or ISO week').choices(['day', 'week']),
    )
    .option('--start-date <date>', START_DATE_HELP)
    .option('--end-date <date>', END_DATE_HELP)
    .action(gameAction<Omit<AnalyticsExportOpts, 'game'>>(runAnalyticsExport))
}
