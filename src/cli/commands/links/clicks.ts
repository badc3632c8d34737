/** `links clicks`: the organization's clicks per UTC day over all its links, or the API's body with --json. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { printJson, printRecord, printRows } from '../../output.js'
import { parseInstant } from '../../parse.js'

export interface ClicksOpts {
  start?: string
  end?: string
}

export async function runLinksClicks(opts: ClicksOpts, ctx: Ctx): Promise<void> {
  if (opts.start && opts.end && opts.start > opts.end) throw new UsageError('--start is after --end')
  await requireKey(ctx)
  const client = await ctx.client()
  const c = await client.analytics.clicks({
    ...(opts.start ? { startDate: opts.start } : {}),
    ...(opts.end ? { endDate: opts.end } : {}),
  })
  if (ctx.json) return printJson(ctx, c)
  const days = `${c.days[0]?.date ?? ''} to ${c.days.at(-1)?.date ?? ''}`
  await printRecord(ctx, [
    ['DAYS', ctx.isTTY ? `${days} (UTC)` : days],
    ['CLICKS', c.totalClicks],
    ['BOTS', c.bots],
    ['QR SCANS', c.qrScans],
  ])
  ctx.stdout.write('\n')
  await printRows(ctx, c.days, [
    { header: 'DATE', value: (d) => d.date },
    { header: 'CLICKS', value: (d) => d.clicks },
    { header: 'BOTS', value: (d) => d.bots },
    { header: 'QR SCANS', value: (d) => d.qrScans },
  ])
}

export function register(links: Command): void {
  jsonOption(
    links
      .command('clicks')
      .description(
        "the organization's clicks per UTC day over all its links (humans; bots and QR scans apart)",
      )
      .option('--start <when>', 'first day: ISO date/time, or 7d/12h/90m/2w ago (default 30 days ago)', (v) =>
        parseInstant(v, 'start'),
      )
      .option('--end <when>', 'last day: ISO date/time, now, or a duration ago (default now)', (v) =>
        parseInstant(v, 'end'),
      ),
  ).action(action<ClicksOpts>((_args, opts, ctx) => runLinksClicks(opts, ctx)))
}
