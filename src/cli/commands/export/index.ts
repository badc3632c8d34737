/**
 * `linkctl export events <game>|clicks`: every raw row of a range, streamed from the daemon into a file
 * (a temporary file renamed when complete) or stdout, as NDJSON, CSV or Parquet, with a progress
 * line (bytes, and rows for the text formats) on a terminal's stderr, and a summary with the rows
 * (Parquet's read from the file's footer). Constant memory.
 */
import { open } from 'node:fs/promises'
import { extname } from 'node:path'
import { Option, type Command } from 'commander'
import { RAW_FORMATS, type RawFormat } from '../../../contract/limits.js'
import { RAW_EVENT_COLUMNS } from '../../../contract/raw-columns.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit, note, plural } from '../../output.js'
import { checkOutputFile, exportTo } from '../../sink.js'
import type { LinkdClient } from '../../../client/index.js'
import { targetOf } from '../qr/shared.js'
import {
  END_DATE_HELP,
  rangeOptions,
  rangeQuery,
  START_DATE_HELP,
  type RangeOpts,
} from '../analytics/shared.js'

export interface RawExportOpts extends RangeOpts {
  format?: RawFormat
  output?: string
  game?: string
  link?: string
}

const MB = 1024 * 1024
/** A file size as people read it: bytes, KB or MB. */
const size = (bytes: number) =>
  bytes >= MB
    ? `${(bytes / MB).toFixed(1)} MB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${bytes} bytes`

/** The format of a raw export: --format, else the --output file's extension, else ndjson. */
function formatOf(o: RawExportOpts): RawFormat {
  if (o.format) return o.format
  const ext = o.output ? extname(o.output).slice(1).toLowerCase() : ''
  return (RAW_FORMATS as readonly string[]).includes(ext) ? (ext as RawFormat) : 'ndjson'
}

/** The rows of a Parquet file, as its footer says (the text formats' rows are counted as they come). */
async function parquetRows(file: string): Promise<number> {
  const { parquetMetadata } = await import('hyparquet')
  const handle = await open(file, 'r')
  try {
    const { size } = await handle.stat()
    // The file ends with the footer, its length (4 bytes, little-endian) and "PAR1".
    const { buffer: tail } = await handle.read(Buffer.alloc(8), 0, 8, size - 8)
    const length = Math.min(size, tail.readUInt32LE(0) + 8)
    const { buffer: footer } = await handle.read(Buffer.alloc(length), 0, length, size - length)
    return Number(parquetMetadata(footer).num_rows)
  } finally {
    await handle.close()
  }
}

/** The id clicks are exported under: a link's, or a smart link's (both named as the CLI names them). */
async function clickLinkId(client: LinkdClient, ref: string): Promise<string> {
  const target = await targetOf(client, ref)
  return 'linkId' in target ? target.linkId : target.smartLinkId
}

export async function runRawExport(dataset: 'events' | 'clicks', o: RawExportOpts, ctx: Ctx): Promise<void> {
  const format = formatOf(o)
  const toStdout = o.output === undefined || o.output === '-'
  if (format === 'parquet' && toStdout && ctx.stdout.isTTY)
    throw new UsageError('Parquet is binary: write it to a file with -o FILE (or pipe stdout)')
  await requireKey(ctx)
  if (!toStdout) await checkOutputFile(o.output!)
  const client = await ctx.client()
  const range = rangeQuery(o)
  // Asked before the file is created: a 400 or 404 leaves nothing behind.
  const answer =
    dataset === 'events'
      ? await client.exports.rawEvents({ gameId: o.game!, format, ...range })
      : await client.exports.clicks({
          format,
          ...(o.link ? { linkId: await clickLinkId(client, o.link) } : {}),
          ...range,
        })
  let bytes = 0
  let lines = 0
  const toFile = await exportTo(
    ctx,
    o.output,
    async (sink, progress) => {
      for await (const chunk of answer.body) {
        bytes += chunk.length
        if (format !== 'parquet') for (const b of chunk) if (b === 10) lines++
        await sink.write(chunk)
        const rows = format === 'csv' ? Math.max(0, lines - 1) : lines
        progress.update(bytes, undefined, format === 'parquet' ? 'bytes' : `bytes, ${rows} rows`)
      }
    },
    { progress: !ctx.json },
  )
  if (!toFile) return
  const rows =
    format === 'parquet' ? await parquetRows(o.output!) : format === 'csv' ? Math.max(0, lines - 1) : lines
  await emit(ctx, { file: o.output, format, rows, bytes }, () =>
    note(ctx, `Exported ${plural(rows, 'row')}, ${size(bytes)} to ${o.output}`),
  )
}

/** A verb with its format, output and range flags (as the analytics verbs take them). */
function verb(
  parent: Command,
  dataset: 'events' | 'clicks',
  description: string,
  help: { start: string; end: string },
): Command {
  return rangeOptions(jsonOption(parent.command(dataset).description(description)), help)
    .addOption(
      new Option('--format <format>', 'ndjson, csv or parquet (default: from --output, else ndjson)').choices(
        RAW_FORMATS,
      ),
    )
    .option('-o, --output <file>', 'write to this file instead of stdout')
}

export function register(program: Command): void {
  const exp = program.command('export').description('export raw rows: every gaming event or click of a range')
  verb(exp, 'events', `a game's raw events (${RAW_EVENT_COLUMNS.join(', ')})`, {
    start: START_DATE_HELP,
    end: END_DATE_HELP,
  })
    .argument('<game>', 'game id')
    .action(action<RawExportOpts>(([game], opts, ctx) => runRawExport('events', { ...opts, game }, ctx)))
  verb(exp, 'clicks', "the organization's raw clicks, or one link's (no IP, no visitor hash)", {
    start: 'first UTC day (YYYY-MM-DD; default 30 days before the end)',
    end: 'last UTC day (YYYY-MM-DD; default today)',
  })
    .option('--link <link>', "only this link's or smart link's clicks: id, short code or short URL")
    .action(action<RawExportOpts>((_a, opts, ctx) => runRawExport('clicks', opts, ctx)))
}
