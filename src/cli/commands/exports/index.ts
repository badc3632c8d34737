/**
 * `linkctl exports destinations add|list|remove|run`: the destinations of the daily raw export to
 * S3-compatible object storage, and a run of one day now.
 */
import { Option, type Command } from 'commander'
import { RAW_DATASETS, RAW_FORMATS, type RawDataset, type RawFormat } from '../../../contract/limits.js'
import type { ExportDestination } from '../../../contract/raw-export.js'
import { action, idAction, jsonOption } from '../../action.js'
import { confirmOrStop } from '../../confirm.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { missingOption } from '../../../session/exit-codes.js'
import { columnsOption, emit, note, printRecord, printRows, when, type Column } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { commaChoices, dayArg } from '../../parse.js'

export interface AddOpts {
  endpoint?: string
  bucket: string
  prefix?: string
  region?: string
  accessKeyId?: string
  secretAccessKey?: string
  format?: RawFormat
  datasets: RawDataset[]
  game?: string
}

const columns = (tty: boolean): Column<ExportDestination>[] => [
  { header: 'ID', value: (d) => d.id },
  { header: 'BUCKET', value: (d) => d.bucket },
  { header: 'PREFIX', value: (d) => d.prefix, fit: 'flex', drop: 3 },
  { header: 'DATASETS', value: (d) => d.datasets.join(tty ? ', ' : ',') },
  { header: 'FORMAT', value: (d) => d.format, drop: 2 },
  { header: 'LAST DAY', value: (d) => d.lastExportedDate ?? '' },
  { header: 'LAST RUN', value: (d) => when(d.lastRunAt, tty), drop: 1 },
  { header: 'LAST ERROR', value: (d) => d.lastError ?? '', fit: 'flex' },
]

/** The body fields add sets by a flag of another name (words such as bucket are left alone). */
const ADD_FLAGS = {
  gameId: '--game',
  accessKeyId: '--access-key-id',
  secretAccessKey: '--secret-access-key',
}

export async function runExportsAdd(o: AddOpts, ctx: Ctx): Promise<void> {
  const accessKeyId = o.accessKeyId ?? ctx.env.AWS_ACCESS_KEY_ID
  const secretAccessKey = o.secretAccessKey ?? ctx.env.AWS_SECRET_ACCESS_KEY
  if (!accessKeyId) throw missingOption('--access-key-id <id>', 'set AWS_ACCESS_KEY_ID')
  if (!secretAccessKey) throw missingOption('--secret-access-key <key>', 'set AWS_SECRET_ACCESS_KEY')
  await requireKey(ctx)
  const client = await ctx.client()
  const d = await client.exports.destinations.create({
    bucket: o.bucket,
    accessKeyId,
    secretAccessKey,
    datasets: o.datasets,
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    ...(o.prefix !== undefined ? { prefix: o.prefix } : {}),
    ...(o.region ? { region: o.region } : {}),
    ...(o.format ? { format: o.format } : {}),
    ...(o.game ? { gameId: o.game } : {}),
  })
  await emit(ctx, d, () =>
    printRecord(ctx, [
      ['ID', d.id],
      ['ENDPOINT', d.endpoint ?? 'AWS S3'],
      ['BUCKET', d.bucket],
      ['PREFIX', d.prefix],
      ['DATASETS', d.datasets.join(', ')],
      ['FORMAT', d.format],
      ['GAME', d.gameId],
    ]),
  )
}

export async function runExportsList(o: PageFlags, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, o, (query) => client.exports.destinations.list(query))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No export destinations.')
    await printRows(ctx, page.data, columns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export async function runExportsRemove(o: { id: string; yes?: boolean }, ctx: Ctx): Promise<void> {
  await confirmOrStop(ctx, {
    yes: o.yes,
    action: `remove export destination ${o.id}`,
    question: `Remove export destination ${o.id}? The objects written stay. [y/N]`,
  })
  await requireKey(ctx)
  const client = await ctx.client()
  await client.exports.destinations.remove(o.id)
  if (ctx.json) return emit(ctx, { id: o.id, removed: true }, () => undefined)
  note(ctx, `Removed export destination ${o.id}`)
}

export async function runExportsRun(o: { id: string; date?: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const run = await client.exports.destinations.run(o.id, o.date)
  await emit(ctx, run, () =>
    printRows(ctx, run.objects, [
      { header: 'DATASET', value: (x) => x.dataset },
      { header: 'KEY', value: (x) => x.key, fit: 'flex' },
      { header: 'ROWS', value: (x) => x.rows },
      { header: 'BYTES', value: (x) => x.bytes },
    ]),
  )
}

export function register(program: Command): void {
  const exports = program.command('exports').description('scheduled raw exports to object storage')
  const dest = exports
    .command('destinations')
    .description('where the daily raw export writes (S3 or S3-compatible)')
  jsonOption(dest.command('add').description('add a destination of the daily raw export'))
    .requiredOption('--bucket <bucket>', 'bucket name')
    .addOption(
      new Option('--datasets <list>', 'comma-separated: raw_events, clicks')
        .argParser(commaChoices(RAW_DATASETS))
        .makeOptionMandatory(),
    )
    .option('--endpoint <url>', 'S3-compatible store (MinIO, R2, …); leave out for AWS S3')
    .option('--prefix <prefix>', 'key prefix of every object')
    .option('--region <region>', 'region (default us-east-1)')
    .option('--access-key-id <id>', 'access key id (env AWS_ACCESS_KEY_ID)')
    .option('--secret-access-key <key>', 'secret access key (env AWS_SECRET_ACCESS_KEY); stored encrypted')
    .addOption(new Option('--format <format>', 'file format (default parquet)').choices(RAW_FORMATS))
    .option('--game <game>', 'game id (needed by raw_events)')
    .action(action<AddOpts>((_a, opts, ctx) => runExportsAdd(opts, ctx), { flagOf: ADD_FLAGS }))
  jsonOption(
    columnsOption(
      pageOptions(dest.command('list').alias('ls').description('list destinations and their last run')),
      columns(false),
    ),
  ).action(action<PageFlags>((_a, opts, ctx) => runExportsList(opts, ctx)))
  jsonOption(dest.command('remove').alias('rm').description('remove a destination (asks on a terminal)'))
    .argument('<id>', 'destination id (exd_…)')
    .option('-y, --yes', 'do not ask')
    .action(idAction<{ yes?: boolean }>(runExportsRemove))
  jsonOption(dest.command('run').description('write one UTC day now (default yesterday)'))
    .argument('<id>', 'destination id (exd_…)')
    .option('--date <date>', 'the UTC day to write (YYYY-MM-DD)', dayArg)
    .action(idAction<{ date?: string }>(runExportsRun))
}
