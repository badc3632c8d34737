/**
 * `linkctl links ...`: short links over /api/use/links. create/list/get/update/delete live here;
 * open and qr (links-share.ts), stats (links-stats.ts), import (links-import.ts) and export
 * (links-export.ts) are loaded only when run.
 */
import { Argument, Option, type Command } from 'commander'
import {
  ANALYTICS_INTERVALS,
  LINK_LIMITS,
  LINK_SORT_FIELDS,
  LINK_STATUSES,
  PAGE_SIZES,
  QR_FORMATS,
  REDIRECT_TYPES,
  SORT_ORDERS,
  type LinkStatus,
} from '../../contract/limits.js'
import { action, jsonOption } from '../action.js'
import { requireKey, type Ctx } from '../context.js'
import { CliError, EXIT, UsageError } from '../exit-codes.js'
import { emit, note, printRecord, printRows } from '../output.js'
import { collect, expiryArg, intArg } from '../parse.js'
import {
  createBody,
  findLink,
  linkColumns,
  linkFields,
  linkIdOf,
  metaArg,
  parseInstant,
  updateBody,
  type LinkFlags,
} from './links-view.js'

export interface LinkRefOpts {
  /** A link id (lnk_...), short code or short URL. */
  ref: string
}
export interface ListLinksOpts {
  search?: string
  status?: LinkStatus
  tag?: string
  sort?: (typeof LINK_SORT_FIELDS)[number]
  order?: (typeof SORT_ORDERS)[number]
  page?: number
  limit?: string | number
}
export interface DeleteLinkOpts extends LinkRefOpts {
  yes?: boolean
}

export async function runLinksCreate(opts: LinkFlags & { url?: string }, ctx: Ctx): Promise<void> {
  const body = createBody(opts.url, opts)
  await requireKey(ctx)
  const link = await (await ctx.client()).links.create(body)
  await emit(ctx, link, () => void ctx.stdout.write(`${link.shortUrl}\n`))
}

export async function runLinksList(opts: ListLinksOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const page = await (
    await ctx.client()
  ).links.list({
    ...(opts.page !== undefined ? { page: opts.page } : {}),
    ...(opts.limit !== undefined ? { limit: Number(opts.limit) } : {}),
    ...(opts.search ? { search: opts.search } : {}),
    ...(opts.status ? { status: opts.status } : {}),
    ...(opts.tag ? { tag: opts.tag } : {}),
    ...(opts.sort ? { sortBy: opts.sort } : {}),
    ...(opts.order ? { sortOrder: opts.order } : {}),
  })
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No links match.')
    await printRows(ctx, page.data, linkColumns(ctx.isTTY))
    if (!ctx.isTTY) return
    const first = page.data.length === 0 ? 0 : (page.page - 1) * page.perPage + 1
    const more = page.hasMore ? `; next: --page ${page.page + 1}` : ''
    note(ctx, `Showing ${first}-${first + Math.max(0, page.data.length - 1)} of ${page.total}${more}`)
  })
}

export async function runLinksGet(opts: LinkRefOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const link = await findLink(await ctx.client(), opts.ref)
  await emit(ctx, link, () => printRecord(ctx, linkFields(link, ctx.isTTY)))
}

export async function runLinksUpdate(opts: LinkRefOpts & LinkFlags, ctx: Ctx): Promise<void> {
  const body = updateBody(opts)
  await requireKey(ctx)
  const client = await ctx.client()
  const link = await client.links.update(await linkIdOf(client, opts.ref), body)
  await emit(ctx, link, () => printRecord(ctx, linkFields(link, ctx.isTTY)))
}

export async function runLinksDelete(opts: DeleteLinkOpts, ctx: Ctx): Promise<void> {
  if (!opts.yes) {
    if (!ctx.canPrompt) throw new UsageError('refusing to delete without confirmation: pass --yes')
    if (!(await ctx.prompt.confirm(`Delete link ${opts.ref}? Its short URL stops working.`))) {
      throw new CliError('aborted', EXIT.error)
    }
  }
  await requireKey(ctx)
  const client = await ctx.client()
  const id = await linkIdOf(client, opts.ref)
  await client.links.delete(id)
  note(ctx, `Deleted link ${id}`)
}

const PAGE_SIZE_CHOICES = PAGE_SIZES.map(String)
const REDIRECT_CHOICES = REDIRECT_TYPES.map(String)

function linkFieldOptions(cmd: Command, mode: 'create' | 'update'): Command {
  // Not --url: that is linkctl's global flag (the daemon's address), wherever it is written.
  cmd
    .option(
      '-d, --destination <url>',
      mode === 'create' ? 'destination URL (or the argument)' : 'new destination URL',
    )
    .option('--title <text>', mode === 'update' ? 'title ("" clears it)' : 'title')
  if (mode === 'create') {
    cmd.option(
      '--slug <code>',
      `custom short code (${LINK_LIMITS.slugMin}-${LINK_LIMITS.slugMax} letters, digits, - and _)`,
    )
    cmd.option(
      '--domain <domain>',
      'verified custom domain for the short URL (name or dom_ id; default: the default domain)',
    )
  }
  cmd
    .option('--expires-at <when>', 'expiry: ISO date/time, 30d/12h/90m/2w from now, or never', expiryArg)
    .option(
      '--tag <tag>',
      mode === 'update' ? 'tag (repeatable; replaces the tags)' : 'tag (repeatable)',
      collect,
    )
    .option(
      '--meta <key=value>',
      mode === 'update'
        ? 'metadata entry (repeatable; replaces the metadata)'
        : 'metadata entry (repeatable)',
      metaArg,
    )
    .addOption(
      new Option('--redirect-type <status>', 'HTTP status of the redirect').choices(REDIRECT_CHOICES),
    )
  if (mode === 'update') {
    cmd
      .addOption(
        new Option('--status <status>', 'enable or disable the link').choices(['active', 'inactive']),
      )
      .option('--clear-tags', 'remove every tag')
      .option('--clear-meta', 'remove every metadata entry')
      .option('--no-expiry', 'remove the expiry date')
  }
  return cmd
}

const refAction = <O>(run: (opts: O & LinkRefOpts, ctx: Ctx) => Promise<void>) =>
  action<O>(([ref], opts, ctx) => run({ ...opts, ref: ref ?? '' }, ctx))
const REF_HELP = 'link id (lnk_...), short code or short URL'

export function register(program: Command): void {
  const links = program.command('links').description('manage short links, their QR codes and analytics')

  jsonOption(
    linkFieldOptions(
      links
        .command('create')
        .description('create a short link and print its short URL')
        .argument('[url]', 'destination URL (http:// or https://)'),
      'create',
    ),
  ).action(action<LinkFlags>(([url], opts, ctx) => runLinksCreate({ ...opts, ...(url ? { url } : {}) }, ctx)))

  const list = links.command('list').alias('ls').description('list short links')
  list
    .option('--search <text>', 'match title, short code or destination URL')
    .addOption(new Option('--status <status>', 'only links with this status').choices(LINK_STATUSES))
    .option('--tag <tag>', 'only links with this tag')
    .addOption(new Option('--sort <field>', 'sort by').choices(LINK_SORT_FIELDS))
    .addOption(new Option('--order <order>', 'sort order').choices(SORT_ORDERS))
    .option('--page <n>', 'page number, from 1', intArg(1))
    .addOption(new Option('--limit <n>', 'page size').choices(PAGE_SIZE_CHOICES))
  jsonOption(list).action(action<ListLinksOpts>((_args, opts, ctx) => runLinksList(opts, ctx)))

  jsonOption(links.command('get').description('show one short link').argument('<link>', REF_HELP)).action(
    refAction(runLinksGet),
  )

  jsonOption(
    linkFieldOptions(
      links.command('update').description('change a short link').argument('<link>', REF_HELP),
      'update',
    ),
  ).action(refAction<LinkFlags>(runLinksUpdate))

  links
    .command('delete')
    .alias('rm')
    .description('delete a short link (asks for confirmation on a terminal)')
    .argument('<link>', REF_HELP)
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(refAction<{ yes?: boolean }>(runLinksDelete))

  links
    .command('open')
    .description("open a link's short URL in the browser ($BROWSER when set)")
    .argument('<link>', REF_HELP)
    .option('--print', 'only print the short URL')
    .action(
      refAction<{ print?: boolean }>(async (opts, ctx) =>
        (await import('./links-share.js')).runLinksOpen(opts, ctx),
      ),
    )

  links
    .command('qr')
    .description('QR code of a link: to a file, to stdout when piped, or drawn on the terminal')
    .argument('<link>', REF_HELP)
    .addOption(
      new Option('--format <format>', 'image format (default: from --output, else svg)').choices(QR_FORMATS),
    )
    .option('-o, --output <file>', 'write the image to this file')
    .option('--size <px>', 'PNG width in pixels (64-2048)', intArg(64, 2048))
    .action(
      refAction<{ format?: 'svg' | 'png'; output?: string; size?: number }>(async (opts, ctx) =>
        (await import('./links-share.js')).runLinksQr(opts, ctx),
      ),
    )

  jsonOption(
    links
      .command('stats')
      .description("a link's click analytics: totals, bots, geography, devices, referrers, UTM, time series")
      .argument('<link>', REF_HELP)
      .option('--start <when>', 'range start: ISO date/time, or 7d/12h/90m/2w ago', (v) =>
        parseInstant(v, 'start'),
      )
      .option(
        '--end <when>',
        'range end: ISO date/time (a date means its end), now, or a duration ago',
        (v) => parseInstant(v, 'end'),
      )
      .addOption(new Option('--interval <interval>', 'time series interval').choices(ANALYTICS_INTERVALS)),
  ).action(
    refAction<{ start?: string; end?: string; interval?: (typeof ANALYTICS_INTERVALS)[number] }>(
      async (opts, ctx) => (await import('./links-stats.js')).runLinksStats(opts, ctx),
    ),
  )

  jsonOption(
    links
      .command('import')
      .description('create links in bulk from CSV or JSON lines (a file, or - / nothing for stdin)')
      .addArgument(new Argument('[file]', 'input file; - or none reads stdin'))
      .addOption(
        new Option('--format <format>', 'input format (default: detected)').choices(['csv', 'jsonl']),
      )
      .option(
        '--chunk-size <n>',
        `rows per bulk request (1-${LINK_LIMITS.bulkMax}, default 500)`,
        intArg(1, LINK_LIMITS.bulkMax),
      )
      .option('--generate-codes', 'ignore customSlug / shortCode: every link gets a new generated code')
      .addHelpText(
        'after',
        '\nCSV header: destinationUrl,title,customSlug,tags,expiresAt (tags separated by ; or |; other\n' +
          'columns are ignored, so an export can be imported). JSON lines: one create body (or link) per line.\n' +
          'Each chunk carries an idempotency key derived from its content: re-running the same import\n' +
          '(within 24 h, same chunk size) replays the accepted chunks instead of creating duplicates.\n' +
          'Failed rows are reported as "line N: reason" on stderr; the exit code is 1 if any row failed.',
      ),
  ).action(
    action<{ format?: 'csv' | 'jsonl'; chunkSize?: number; generateCodes?: boolean }>(
      async ([file], opts, ctx) =>
        (await import('./links-import.js')).runLinksImport({ ...opts, ...(file ? { file } : {}) }, ctx),
    ),
  )

  links
    .command('export')
    .description('write every link as CSV (importable) or a JSON array')
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
    .action(
      action<{
        format?: 'csv' | 'json'
        output?: string
        status?: LinkStatus
        tag?: string
        search?: string
      }>(async (_args, opts, ctx) => (await import('./links-export.js')).runLinksExport(opts, ctx)),
    )
}
