/**
 * `links stats` and `smart-links stats`: a link's analytics as a summary and tables, or the API's
 * body with --json. A smart link's adds its platforms and installs, a link with variants the
 * figures of each; the game revenue of the players a link brought shows when the daemon reports it.
 */
import { Option, type Command } from 'commander'
import type { LinkAnalytics } from '../../../contract/click-analytics.js'
import { ANALYTICS_INTERVALS } from '../../../contract/limits.js'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import {
  money,
  percent,
  printJson,
  dateRange,
  printRecord,
  printRows,
  round,
  utcMinute,
  type Column,
  type Field,
} from '../../output.js'
import { parseInstant } from '../../parse.js'
import type { LinkdClient } from '../../../client/index.js'
import { linkIdOf, REF_HELP, refAction } from './refs.js'

export interface StatsOpts {
  ref: string
  start?: string
  end?: string
  interval?: (typeof ANALYTICS_INTERVALS)[number]
}

type InstallRevenue = NonNullable<LinkAnalytics['installRevenue']>[number]

/** Rows shown per dimension on a terminal (all of them when piped). */
const TOP = 10

const pct = (n: number) => percent(n, 1)

/** How a verb turns its argument (an id, short code or short URL) into the id to ask about. */
type IdOf = (client: LinkdClient, ref: string) => Promise<string>

export async function runLinksStats(opts: StatsOpts, ctx: Ctx, idOf: IdOf = linkIdOf): Promise<void> {
  if (opts.start && opts.end && opts.start > opts.end) throw new UsageError('--start is after --end')
  await requireKey(ctx)
  const client = await ctx.client()
  const id = await idOf(client, opts.ref)
  const a = await client.analytics.link(id, {
    ...(opts.start ? { startDate: opts.start } : {}),
    ...(opts.end ? { endDate: opts.end } : {}),
    ...(opts.interval ? { interval: opts.interval } : {}),
  })
  if (ctx.json) return printJson(ctx, a)
  await printStats(ctx, a)
}

function range(a: LinkAnalytics, tty: boolean): string {
  // A period, not an event: absolute on a terminal too (UTC, to the minute).
  return tty
    ? `${dateRange(utcMinute(a.range.startDate), utcMinute(a.range.endDate))} UTC`
    : dateRange(a.range.startDate, a.range.endDate)
}

export function summaryFields(a: LinkAnalytics, tty: boolean): Field[] {
  return [
    ['LINK', a.linkId],
    ['RANGE', range(a, tty)],
    ['CLICKS', a.totalClicks],
    ['UNIQUE VISITORS', a.uniqueVisitors],
    ['BOTS', tty ? `${a.botDetection.count} (${pct(a.botDetection.percentage)})` : a.botDetection.count],
    ...(tty ? [] : ([['BOTS %', a.botDetection.percentage]] as Field[])),
    // Visitors stopped by the safety warning page (counted among the bots too).
    ...(a.blockedVisits > 0 ? ([['BLOCKED VISITS', a.blockedVisits]] as Field[]) : []),
    ['QR SCANS', a.qrScans],
    ['BOUNCE RATE', tty ? pct(a.bounceRate) : a.bounceRate],
    ['RESPONSE TIME', tty ? `${round(a.responseTime, 2)} ms` : a.responseTime],
    ...(a.installs !== undefined ? ([['INSTALLS', a.installs]] as Field[]) : []),
  ]
}

/**
 * Before a section: a blank line, and its title on a terminal. Piped, each section is a bare
 * tab-separated table (its header row names it), so the output splits on blank lines.
 */
function sectionTitle(ctx: Ctx, title: string): void {
  ctx.stdout.write(ctx.isTTY ? `\n${ctx.color ? `\x1b[1m${title}\x1b[22m` : title}\n` : '\n')
}

async function section<T>(
  ctx: Ctx,
  title: string,
  rows: readonly T[],
  columns: readonly Column<T>[],
): Promise<void> {
  if (rows.length === 0) return
  const shown = ctx.isTTY ? rows.slice(0, TOP) : rows
  sectionTitle(ctx, title)
  await printRows(ctx, shown, columns)
  if (shown.length < rows.length) ctx.stdout.write(`(${rows.length - shown.length} more: --json shows all)\n`)
}

/** devices/browsers/os rows: the contract types them as records keyed by the dimension name. */
type ShareRow = Record<string, string | number>
const percentColumn = <T extends { percentage?: string | number }>(tty: boolean): Column<T> => ({
  header: '%',
  value: (r) => (tty ? pct(Number(r.percentage)) : Number(r.percentage)),
})
const share = (key: string, header: string, tty: boolean): Column<ShareRow>[] => [
  { header, value: (r) => r[key] },
  { header: 'CLICKS', value: (r) => r.clicks },
  percentColumn(tty),
]

const counted = (header: string): Column<{ value: string; clicks: number }>[] => [
  { header, value: (r) => r.value },
  { header: 'CLICKS', value: (r) => r.clicks },
]

/** The time series on a terminal: aligned lines with a bar, no table borders (it can be long). */
function seriesLines(a: LinkAnalytics): string {
  const time = (iso: string) => (a.interval === 'hour' ? utcMinute(iso) : iso.slice(0, 10))
  const max = Math.max(0, ...a.timeSeries.map((p) => p.clicks))
  const digits = String(Math.max(max, ...a.timeSeries.map((p) => p.bots))).length
  const [cw, bw] = [Math.max(6, digits), Math.max(4, digits)]
  const line = (t: string, clicks: string, bots: string, bar: string) =>
    `${t}  ${clicks.padStart(cw)}  ${bots.padStart(bw)}  ${bar}`.trimEnd()
  const lines = [line(a.interval.toUpperCase().padEnd(time(a.range.startDate).length), 'CLICKS', 'BOTS', '')]
  for (const p of a.timeSeries) {
    const bar = max > 0 ? '█'.repeat(Math.round((p.clicks / max) * 30)) : ''
    lines.push(line(time(p.timestamp), String(p.clicks), String(p.bots), bar))
  }
  return `${lines.join('\n')}\n`
}

export async function printStats(ctx: Ctx, a: LinkAnalytics): Promise<void> {
  const tty = ctx.isTTY
  await printRecord(ctx, summaryFields(a, tty))
  // A smart link's clicks per target platform.
  await section(ctx, 'Platforms', a.platforms ?? [], [
    { header: 'PLATFORM', value: (r) => r.platform },
    { header: 'CLICKS', value: (r) => r.clicks },
    percentColumn(tty),
  ])
  // Split destinations: each variant's weight and what it got.
  await section(ctx, 'Variants', a.variants ?? [], [
    { header: 'DESTINATION', value: (r) => r.destinationUrl, fit: 'flex' },
    { header: 'WEIGHT', value: (r) => (tty ? `${r.weight}%` : r.weight) },
    { header: 'CLICKS', value: (r) => r.clicks },
    { header: 'VISITORS', value: (r) => r.uniqueVisitors },
    { header: 'INSTALLS', value: (r) => r.installs },
  ])
  // Installs attributed to the link and the revenue of those players, per game (own currency).
  await section(ctx, 'Installs by game', a.installRevenue ?? [], [
    { header: 'GAME', value: (r) => r.gameId },
    { header: 'INSTALLS', value: (r) => r.installs },
    { header: 'REVENUE', value: (r) => money(r.revenue, 2, tty ? r.currency : undefined) },
    ...(tty ? [] : [{ header: 'CURRENCY', value: (r: InstallRevenue) => r.currency }]),
  ])
  await section(ctx, 'Countries', a.geography, [
    { header: 'COUNTRY', value: (r) => r.country },
    { header: 'REGION', value: (r) => r.region },
    { header: 'CLICKS', value: (r) => r.clicks },
    percentColumn(tty),
  ])
  await section(ctx, 'Devices', a.devices, share('device', 'DEVICE', tty))
  await section(ctx, 'Browsers', a.browsers, share('browser', 'BROWSER', tty))
  await section(ctx, 'Operating systems', a.os, share('os', 'OS', tty))
  await section(ctx, 'Referrers', a.referrers, [
    { header: 'DOMAIN', value: (r) => r.domain },
    { header: 'CLICKS', value: (r) => r.clicks },
  ])
  await section(ctx, 'UTM sources', a.utmSources, counted('SOURCE'))
  await section(ctx, 'UTM mediums', a.utmMediums, counted('MEDIUM'))
  await section(ctx, 'UTM campaigns', a.utmCampaigns, counted('CAMPAIGN'))
  if (a.timeSeries.length === 0) return
  sectionTitle(ctx, 'Clicks over time')
  if (tty) ctx.stdout.write(seriesLines(a))
  else
    await printRows(ctx, a.timeSeries, [
      { header: 'TIMESTAMP', value: (p) => p.timestamp },
      { header: 'CLICKS', value: (p) => p.clicks },
      { header: 'BOTS', value: (p) => p.bots },
    ])
}

/** The `stats` verb under `parent` (links or smart-links), its argument read by `idOf`. */
export function registerStats(parent: Command, argument: string, help: string, idOf: IdOf): void {
  jsonOption(
    parent
      .command('stats')
      .description(
        "click analytics (totals, bots, geography, devices, referrers, UTM, time series; a smart link's platforms) and the installs the link brought, with their players' revenue per game",
      )
      .argument(argument, help)
      .option('--start <when>', 'range start: ISO date/time, or 7d/12h/90m/2w ago', (v) =>
        parseInstant(v, 'start'),
      )
      .option(
        '--end <when>',
        'range end: ISO date/time (a date means its end), now, or a duration ago',
        (v) => parseInstant(v, 'end'),
      )
      .addOption(new Option('--interval <interval>', 'time series interval').choices(ANALYTICS_INTERVALS)),
  ).action(refAction<Omit<StatsOpts, 'ref'>>((opts, ctx) => runLinksStats(opts, ctx, idOf)))
}

export function register(links: Command): void {
  registerStats(links, '<link>', `${REF_HELP}, or a smart link id (sml_...)`, linkIdOf)
}
