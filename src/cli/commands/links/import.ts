/**
 * `links import [file|-]`: linkd's CSV or JSON lines, or (--from) another shortener's export,
 * streamed in chunks to /links/import as linkd JSON lines (with each row's short URL and creation
 * date), a dry run the same way. A chunk's idempotency key hashes
 * its position and content, so a re-run replays what was accepted. --failed-out and
 * --skip-existing: import-rerun.ts.
 */
import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { Argument, Option, type Command } from 'commander'
import type { BulkCreateResult, ImportLinksResult } from '../../../contract/links.js'
import { IMPORT_SOURCES, LINK_LIMITS } from '../../../contract/limits.js'
import { inTermsOf } from '../../../format/terms.js'
import type { LinkdClient } from '../../../client/index.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT, UsageError, unstatedDetails } from '../../../session/exit-codes.js'
import { stopSignals, StoppedBySignal, type StopSignal } from '../../../session/signals.js'
import { helpText, note, plural, printJson, visible } from '../../output.js'
import { intArg } from '../../parse.js'
import { createProgress, type Progress } from '../../progress.js'
import {
  BASE_CSV_COLUMNS,
  type BodyRow,
  IMPORT_ONLY_CSV_COLUMNS,
  type ImportSource,
  OPTION_CSV_COLUMNS,
  type Row,
  type RowError,
  type RowSource,
} from '../../../import/index.js'
import { countRows, openInput, readRows } from './import-input.js'
import { codeOfRow, ExistingLinks, FailedOut } from './import-rerun.js'

export interface ImportOpts {
  file?: string
  /** The product that wrote the file (default linkd). */
  from?: ImportSource
  /** Checks every row with the daemon and creates nothing. */
  dryRun?: boolean
  format?: 'csv' | 'jsonl'
  chunkSize?: number
  generateCodes?: boolean
  /** Writes the failed rows here, in the input's format, with an `error` column / field. */
  failedOut?: string
  /**
   * Skips rows whose short code is already in use, and rows without one whose destination a link
   * already goes to (import-rerun.ts).
   */
  skipExisting?: boolean
  json?: boolean
}

/** A row --skip-existing left out: its input line, its short code (null: none) and why. */
export interface SkippedRow {
  line: number
  shortCode: string | null
  reason: string
}

export interface ImportSummary {
  /** A dry run: `created` counts the links the import would create. */
  dryRun: boolean
  created: number
  /** Of `created`, the links an earlier run of this import created (its chunks were replayed). */
  replayed: number
  /** Rows left out by --skip-existing (their link already exists), each in `skippedRows`. */
  skipped: number
  failed: number
  errors: RowError[]
  skippedRows: SkippedRow[]
}

export const DEFAULT_CHUNK_SIZE = 500
/**
 * Bytes of link bodies per request: under the daemon's default body limit (1 MiB) with room for
 * the envelope. Chunk boundaries stay a function of the input, so re-runs keep their keys.
 */
export const CHUNK_BYTES_MAX = 900_000
/** The idempotency key of a chunk: its first input line and its bodies, hashed. */
export function chunkKey(firstLine: number, bodies: readonly unknown[]): string {
  const hash = createHash('sha256')
    .update(JSON.stringify({ v: 1, firstLine, links: bodies }))
    .digest('hex')
  return `linkctl-import-${hash.slice(0, 40)}`
}

function isApiError(
  err: unknown,
): err is Error & { status: number; retryAfter: number | null; body: BulkItemErr } {
  return (
    err instanceof Error &&
    err.name === 'ApiError' &&
    typeof (err as { status?: unknown }).status === 'number'
  )
}

type BulkItemErr = {
  error: string
  message: string
  details?: { field: string; message: string }[] | undefined
}

/** One line of explanation: the message, plus the field details it does not already say. */
export function reason(e: BulkItemErr): string {
  const details = unstatedDetails(e.message, e.details).map((d) =>
    d.field ? `${d.field}: ${d.message}` : d.message,
  )
  return details.length > 0 ? `${e.message} (${details.join('; ')})` : e.message
}

const RETRIES = 5

/**
 * Sends one chunk to POST /api/use/links/import as linkd JSON lines (each row's short URL and
 * creation date kept for the daemon), for every source, dry run or not, so that a dry run
 * checks exactly what the import does; 429/503 are retried after Retry-After (the idempotency
 * key makes it safe). The answer in bulk's shape (a dry run's rows that would be created count
 * as created). A dry run sends no idempotency key: its answer must be today's, never a replay.
 */
async function sendImportChunk(
  client: LinkdClient,
  rows: BodyRow[],
  dryRun: boolean,
): Promise<{ result: BulkCreateResult; replayed: boolean } | BulkItemErr> {
  const lines = rows.map((r) =>
    JSON.stringify({
      ...r.body,
      ...(r.host !== undefined && { shortUrl: `https://${r.host}/` }),
      ...(r.createdAt !== undefined && { createdAt: r.createdAt }),
      ...(r.inactive === true && { status: 'inactive' }),
    }),
  )
  const key = dryRun ? undefined : chunkKey(rows[0]?.line ?? 0, [{ via: 'import' }, ...lines])
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await client.links.import({ source: 'linkd', file: lines.join('\n'), dryRun }, key)
      return { result: asBulk(res.body), replayed: res.headers['idempotent-replayed'] === 'true' }
    } catch (err) {
      if (!isApiError(err)) throw err
      if ((err.status === 429 || err.status === 503) && attempt < RETRIES) {
        await sleep(Math.min(60, Math.max(1, err.retryAfter ?? attempt)) * 1000)
        continue
      }
      // Auth failures and server errors stop the import; a refused chunk fails its rows.
      if (err.status === 401 || err.status === 403 || err.status >= 500 || err.status === 429) throw err
      return err.body
    }
  }
}

/** An import answer for chunk lines 1..n as bulk results by index (line - 1). */
function asBulk(r: ImportLinksResult): BulkCreateResult {
  return {
    created: r.created + r.wouldCreate,
    failed: r.failed,
    results: r.results.map((x) => ({
      index: x.line - 1,
      status: x.status === 'failed' ? ('failed' as const) : ('created' as const),
      ...(x.link && { link: x.link }),
      ...(x.error && { error: x.error }),
    })),
  }
}

type FailedRow = RowError & { source?: RowSource | undefined }

export async function runLinksImport(opts: ImportOpts, ctx: Ctx): Promise<void> {
  const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE
  const from = opts.from ?? 'linkd'
  const dryRun = opts.dryRun === true
  if (from !== 'linkd' && opts.format)
    throw new UsageError(`--format is for linkd's files; a ${from} export has one format`)
  await requireKey(ctx)
  const client = await ctx.client()
  const input = await openInput(opts.file, ctx)
  let format: 'csv' | 'jsonl' = opts.format ?? 'csv'
  const failedOut = opts.failedOut ? await FailedOut.open(opts.failedOut, () => format) : undefined
  const existing = opts.skipExisting ? await ExistingLinks.load(client, ctx) : undefined
  const total = ctx.stderr.isTTY === true ? await countRows(opts.file, opts.format, from) : undefined
  const read = await readRows(
    input,
    opts.format,
    {
      generateCodes: opts.generateCodes === true,
      onHeader: (fields) => failedOut?.setHeader(fields),
    },
    from,
  )
  format = read.format

  const summary: ImportSummary = {
    dryRun,
    created: 0,
    replayed: 0,
    skipped: 0,
    failed: 0,
    errors: [],
    skippedRows: [],
  }
  let seen = 0
  const progress: Progress = createProgress(ctx.stderr, {
    label: dryRun ? 'Checking' : 'Importing',
    enabled: ctx.stderr.isTTY === true,
  })
  // The bar counts rows (created, skipped or failed) of the file's rows; the figures say which.
  const show = () =>
    progress.update(
      summary.created + summary.skipped + summary.failed,
      total,
      `rows: ${summary.created} ${dryRun ? 'would be created' : 'created'}${existing ? `, ${summary.skipped} skipped` : ''}, ${summary.failed} failed`,
    )
  const fail = (failed: FailedRow) => {
    // Said in the file's terms (custom_bitlinks, not customSlug) when it is another product's.
    const e = { ...failed, message: inTermsOf(failed.message, failed.columns ?? {}) }
    summary.failed++
    summary.errors.push({ line: e.line, error: e.error, message: e.message })
    failedOut?.write(e)
    progress.log(`line ${e.line}: ${e.message}`)
  }

  const skip = (row: BodyRow, reason: string) => {
    summary.skipped++
    summary.skippedRows.push({ line: row.line, shortCode: codeOfRow(row.body) ?? null, reason })
  }

  const flush = async (chunk: Row[]) => {
    const errors: FailedRow[] = chunk.filter((r): r is FailedRow => 'error' in r)
    const valid: BodyRow[] = []
    for (const row of chunk) {
      if (!('body' in row)) continue
      const why = existing?.skip(row.body)
      if (why !== undefined) skip(row, why)
      else {
        // Claimed now: the same link further down this chunk is a repeat, not a new link.
        existing?.addRow(row.line, row.body)
        valid.push(row)
      }
    }
    if (valid.length > 0) {
      const sent = await sendImportChunk(client, valid, dryRun)
      if ('result' in sent) {
        if (sent.replayed) summary.replayed += sent.result.created
        summary.created += sent.result.created
        for (const item of sent.result.results) {
          if (item.status !== 'failed') continue
          const row = valid[item.index]
          const e = item.error ?? { error: 'Failed', message: 'failed' }
          // A code taken meanwhile (or by a smart link) is an existing link too.
          if (existing && e.error === 'Conflict' && row) skip(row, reason(e))
          else
            errors.push({
              line: row?.line ?? 0,
              error: e.error,
              message: reason(e),
              source: row?.source,
              columns: row?.columns,
            })
        }
      } else {
        for (const r of valid)
          errors.push({
            line: r.line,
            error: sent.error,
            message: reason(sent),
            source: r.source,
            columns: r.columns,
          })
      }
    }
    errors.sort((a, b) => a.line - b.line)
    for (const e of errors) fail(e)
    show()
  }

  let chunk: Row[] = []
  let chunkBytes = 0
  // Ctrl-C (or SIGTERM, SIGHUP): the chunk in flight finishes, nothing more is read or sent, and
  // the import says how far it got (below); a second signal exits at once.
  let stoppedBy: StopSignal | undefined
  const signals = stopSignals()
  void signals.first.then((s) => {
    stoppedBy = s
    ;(input as { destroy?: () => void }).destroy?.()
  })
  const send = async () => {
    if (stoppedBy) throw new StoppedBySignal(stoppedBy)
    await signals.during(flush(chunk), () =>
      note(ctx, `import stopped during a chunk: re-run the same command to go on`),
    )
    chunk = []
    chunkBytes = 0
  }
  try {
    for await (const row of read.rows) {
      if (stoppedBy) break
      seen++
      // A chunk also ends before its request body would pass the daemon's body limit.
      const size = 'body' in row ? Buffer.byteLength(JSON.stringify(row.body)) + 1 : 0
      if (chunk.length > 0 && chunkBytes + size > CHUNK_BYTES_MAX) await send()
      chunk.push(row)
      chunkBytes += size
      if (chunk.length >= chunkSize) await send()
    }
    if (stoppedBy) throw new StoppedBySignal(stoppedBy)
    if (chunk.length > 0) await send()
  } catch (caught) {
    // The input destroyed by a signal may end its read with an error of its own.
    const err = stoppedBy ? new StoppedBySignal(stoppedBy) : caught
    progress.finish()
    await failedOut?.close()
    if (summary.created > 0 || summary.failed > 0 || stoppedBy)
      note(
        ctx,
        `import stopped after ${summary.created} created and ${summary.failed} failed; ` +
          're-run the same command to go on (chunks already accepted are replayed, not duplicated)',
      )
    throw err
  } finally {
    signals.release()
  }
  progress.finish()
  const written = await failedOut?.close()

  summary.skippedRows.sort((a, b) => a.line - b.line)
  if (ctx.json) printJson(ctx, summary)
  else if (seen === 0) note(ctx, 'Nothing to import.')
  else {
    const again =
      summary.replayed > 0 ? ` (${summary.replayed} of them by an earlier run of this import)` : ''
    const skipped = existing ? `; ${summary.skipped} skipped (already there)` : ''
    ctx.stdout.write(
      dryRun
        ? `Dry run: would create ${plural(summary.created, 'link')}${skipped}; ${summary.failed} would fail; nothing was written\n`
        : `Created ${plural(summary.created, 'link')}${again}${skipped}; ${summary.failed} failed\n`,
    )
    for (const r of summary.skippedRows) ctx.stdout.write(visible(`skipped line ${r.line}: ${r.reason}\n`))
  }
  if (summary.failed > 0) {
    const where =
      written !== undefined && opts.failedOut
        ? `; they are in ${opts.failedOut}: fix them and run linkctl links import${from === 'linkd' ? '' : ` --from ${from}`} ${opts.failedOut} --skip-existing`
        : ' (see the lines above)'
    throw new CliError(`${summary.failed} of ${plural(seen, 'row')} failed${where}`, EXIT.error)
  }
}

export function register(links: Command): void {
  jsonOption(
    links
      .command('import')
      .description(
        'create links in bulk from CSV, JSON lines or a JSON array (a file, or - / nothing for stdin)',
      )
      .addArgument(new Argument('[file]', 'input file; - or none reads stdin'))
      .addOption(
        new Option('--from <source>', "the product that wrote the file (its own export's format)")
          .choices([...IMPORT_SOURCES])
          .default('linkd'),
      )
      .option('--dry-run', 'check every row with the daemon and create nothing')
      .addOption(
        new Option('--format <format>', 'input format (default: detected)').choices(['csv', 'jsonl']),
      )
      .option(
        '--chunk-size <n>',
        `rows per bulk request (1-${LINK_LIMITS.bulkMax}, default 500)`,
        intArg(1, LINK_LIMITS.bulkMax),
      )
      .option('--generate-codes', 'ignore customSlug / shortCode: every link gets a new generated code')
      .option(
        '--failed-out <file>',
        'write the failed rows to this file, in the input format, with the reason in an error column',
      )
      .option(
        '--skip-existing',
        'skip rows whose short code is already in use, and rows without a short code whose destination a link already goes to (reads your links once first); each skipped row is listed with why',
      )
      .addHelpText(
        'after',
        helpText(
          `CSV columns, named in the header: ${BASE_CSV_COLUMNS.join(', ')} (tags separated by ; or |); ` +
            `optionally the link options ${[...OPTION_CSV_COLUMNS, ...IMPORT_ONLY_CSV_COLUMNS].join(', ')} (rules, og and variants as ` +
            'JSON; empty cells are the defaults); other columns are ignored, so an export can be ' +
            'imported. JSON lines: one create body (or link) per line; a JSON array (an export): one per item, its "line" its position. Each chunk carries an ' +
            'idempotency key derived from its content: re-running the same import (within 24 h, same ' +
            'chunk size) replays the accepted chunks instead of creating duplicates. Failed rows are ' +
            'reported as "line N: reason" on stderr; the exit code is 1 if any row failed. ' +
            'Fix-and-retry: --failed-out failed.csv, edit failed.csv, then linkctl links import ' +
            'failed.csv --skip-existing (the error column is ignored on input). --from bitly|shlink|' +
            "yourls|kutt reads that product's export (Bitly's links CSV, Shlink's short-URL CSV, a " +
            "YOURLS export plugin's CSV, Kutt's links JSON): links keep their codes, titles, tags and " +
            'creation dates, and a short URL on a verified custom domain of yours stays on it.',
        ),
      ),
  ).action(
    action<Omit<ImportOpts, 'file' | 'json'>>(([file], opts, ctx) =>
      runLinksImport({ ...opts, ...(file ? { file } : {}) }, ctx),
    ),
  )
}
