/**
 * `links export`: pages through GET /api/use/links (100 a page, oldest first) and writes CSV
 * (the import header plus id, shortUrl, clicks, status, createdAt, then the link options; `links import` reads it
 * back) or a JSON array of link objects. A file is written under a temporary name and renamed
 * when complete, so an interrupted export never leaves a truncated file behind.
 */
import { extname } from 'node:path'
import { Option, type Command } from 'commander'
import type { Link } from '../../../contract/links.js'
import { LINK_STATUSES, type LinkStatus } from '../../../contract/limits.js'
import { action } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { note, plural } from '../../output.js'
import { exportTo } from '../../sink.js'
import { csvRow } from '../../../contract/csv.js'
import { BASE_CSV_COLUMNS, OPTION_CSV_COLUMNS } from '../../../import/index.js'

export interface ExportOpts {
  format?: 'csv' | 'json'
  output?: string
  status?: LinkStatus
  tag?: string
  search?: string
}

export const EXPORT_COLUMNS = [
  ...BASE_CSV_COLUMNS,
  'id',
  'shortUrl',
  'clicks',
  'status',
  'createdAt',
  ...OPTION_CSV_COLUMNS,
] as const

export function exportRow(l: Link): string {
  return csvRow([
    l.destinationUrl,
    l.title,
    l.shortCode,
    l.tags.join(';'),
    l.expiresAt,
    l.id,
    l.shortUrl,
    l.clicks,
    l.status,
    l.createdAt,
    l.expiredUrl,
    l.maxClicks,
    l.startsAt,
    l.forwardQuery,
    l.rules.length ? JSON.stringify(l.rules) : '',
    l.passwordProtected,
    l.og ? JSON.stringify(l.og) : '',
    l.variants.length ? JSON.stringify(l.variants) : '',
  ])
}

export async function runLinksExport(opts: ExportOpts, ctx: Ctx): Promise<void> {
  const format =
    opts.format ?? (opts.output && extname(opts.output).toLowerCase() === '.json' ? 'json' : 'csv')
  await requireKey(ctx)
  const client = await ctx.client()
  let count = 0
  const toFile = await exportTo(ctx, opts.output, async (sink, progress) => {
    await sink.write(format === 'csv' ? csvRow(EXPORT_COLUMNS) : '[')
    for (let page = 1; ; page++) {
      const res = await client.links.list({
        page,
        limit: 100,
        sortBy: 'createdAt',
        sortOrder: 'asc',
        ...(opts.status ? { status: opts.status } : {}),
        ...(opts.tag ? { tag: opts.tag } : {}),
        ...(opts.search ? { search: opts.search } : {}),
      })
      let text = ''
      for (const l of res.data) {
        text += format === 'csv' ? exportRow(l) : `${count === 0 ? '\n' : ',\n'}${JSON.stringify(l)}`
        count++
      }
      await sink.write(text)
      progress.update(count, Math.max(res.total, count), 'links')
      if (!res.hasMore || res.data.length === 0) break
    }
    if (format === 'json') await sink.write(count === 0 ? ']\n' : '\n]\n')
  })
  if (toFile) note(ctx, `Exported ${plural(count, 'link')} to ${opts.output}`)
}

export function register(links: Command): void {
  links
    .command('export')
    .description('write every link as CSV or a JSON array (both importable)')
    .addOption(
      new Option('--format <format>', 'output format (default: from --output, else csv)').choices([
        'csv',
        'json',
      ]),
    )
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .addOption(new Option('--status <status>', 'only links with this status').choices(LINK_STATUSES))
    .option('--tag <tag>', 'only links with this tag')
    .option('--search <text>', 'only links matching this text')
    .action(action<ExportOpts>((_args, opts, ctx) => runLinksExport(opts, ctx)))
}
