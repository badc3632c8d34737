/**
 * `links import [file|-]`: CSV (header destinationUrl,title,customSlug,tags,expiresAt) or JSON
 * lines, read as a stream and sent in chunks to POST /api/use/links/bulk. Each chunk covers a
 * fixed run of input records and carries an X-Idempotency-Key hashed from its position and
 * content, so re-running the same import replays the chunks the daemon already accepted
 * instead of creating the links again. Failed rows are reported by input line.
 */
import { createHash } from 'node:crypto'
import { open } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'
import { setTimeout as sleep } from 'node:timers/promises'
import { Argument, Option, type Command } from 'commander'
import type { BulkCreateResult } from '../../../contract/links.js'
import { LINK_LIMITS } from '../../../contract/limits.js'
import type { LinkdClient } from '../../../client/index.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { CliError, EXIT, UsageError } from '../../exit-codes.js'
import { note, printJson } from '../../output.js'
import { intArg, parseExpiry } from '../../parse.js'
import { createProgress, type Progress } from '../../progress.js'
import { CsvParser, type CsvRecord } from '../../csv.js'

export interface ImportOpts {
  file?: string
  format?: 'csv' | 'jsonl'
  chunkSize?: number
  generateCodes?: boolean
  json?: boolean
}

export const DEFAULT_CHUNK_SIZE = 500
/**
 * Bytes of link bodies per request: under the daemon's default body limit (1 MiB) with room for
 * the envelope. Chunk boundaries stay a function of the input, so re-runs keep their keys.
 */
export const CHUNK_BYTES_MAX = 900_000
export const CSV_COLUMNS = ['destinationUrl', 'title', 'customSlug', 'tags', 'expiresAt'] as const

export interface RowError {
  line: number
  error: string
  message: string
}
/** One input record: a create body to send, or why it cannot be sent. */
export type Row = { line: number; body: Record<string, unknown> } | RowError

export interface ImportSummary {
  created: number
  failed: number
  errors: RowError[]
}

type Text = AsyncIterable<string | Buffer>

/** Records of a CSV text: the header (line 1 or the first non-blank line) names the columns. */
export async function* csvRows(text: Text, opts: { generateCodes?: boolean } = {}): AsyncGenerator<Row> {
  const parser = new CsvParser()
  let columns: Map<string, number> | undefined
  let width = 0
  const handle = function* (records: CsvRecord[]): Generator<Row> {
    for (const r of records) {
      if (!columns) {
        if ('error' in r)
          throw new CliError(`line ${r.line}: cannot read the CSV header: ${r.error}`, EXIT.error)
        columns = new Map()
        r.fields.forEach((name, i) => {
          const known = CSV_COLUMNS.find((c) => c.toLowerCase() === name.trim().toLowerCase())
          if (known && !columns?.has(known)) columns?.set(known, i)
        })
        width = r.fields.length
        if (!columns.has('destinationUrl'))
          throw new CliError(
            `line ${r.line}: the CSV header must name the columns (${CSV_COLUMNS.join(',')}); destinationUrl is missing`,
            EXIT.error,
          )
        continue
      }
      if ('error' in r) yield { line: r.line, error: 'ParseError', message: r.error }
      else if (r.fields.length !== width)
        yield {
          line: r.line,
          error: 'ParseError',
          message: `expected ${width} fields like the header, found ${r.fields.length}`,
        }
      else yield csvBody(r.line, r.fields, columns, opts.generateCodes === true)
    }
  }
  for await (const chunk of text) yield* handle(parser.push(String(chunk)))
  yield* handle(parser.end())
}

function csvBody(line: number, fields: string[], columns: Map<string, number>, generateCodes: boolean): Row {
  const cell = (name: (typeof CSV_COLUMNS)[number]) => {
    const i = columns.get(name)
    return i === undefined ? '' : (fields[i] ?? '').trim()
  }
  const destinationUrl = cell('destinationUrl')
  if (!destinationUrl) return { line, error: 'ValidationError', message: 'destinationUrl: is empty' }
  const body: Record<string, unknown> = { destinationUrl }
  const title = cell('title')
  if (title) body.title = title
  const slug = cell('customSlug')
  if (slug && !generateCodes) body.customSlug = slug
  const tags = cell('tags')
  if (tags)
    body.tags = [
      ...new Set(
        tags
          .split(/[;|]/)
          .map((t) => t.trim())
          .filter((t) => t.length > 0),
      ),
    ]
  const expires = cell('expiresAt')
  if (expires) {
    try {
      const at = parseExpiry(expires)
      if (at) body.expiresAt = at
    } catch (err) {
      return { line, error: 'ValidationError', message: `expiresAt: ${(err as Error).message}` }
    }
  }
  return { line, body }
}

/** Fields of a link object that a create body does not take (export and `get --json` output). */
const LINK_ONLY = ['id', 'shortUrl', 'clicks', 'status', 'createdAt', 'updatedAt']

/** Records of a JSON lines text: one object per line; blank lines are skipped. */
export async function* jsonlRows(text: Text, opts: { generateCodes?: boolean } = {}): AsyncGenerator<Row> {
  let rest = ''
  let line = 0
  let first = true
  const parse = (raw: string): Row | undefined => {
    line++
    let s = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (first) {
      first = false
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1)
    }
    if (s.trim() === '') return undefined
    let value: unknown
    try {
      value = JSON.parse(s)
    } catch (err) {
      return { line, error: 'ParseError', message: `invalid JSON: ${(err as Error).message}` }
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      return { line, error: 'ParseError', message: 'expected a JSON object' }
    const body: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    for (const k of LINK_ONLY) delete body[k]
    if (typeof body.shortCode === 'string' && body.customSlug === undefined) body.customSlug = body.shortCode
    delete body.shortCode
    if (body.customDomainId === null) delete body.customDomainId
    if (opts.generateCodes) delete body.customSlug
    return { line, body }
  }
  for await (const chunk of text) {
    const parts = (rest + String(chunk)).split('\n')
    rest = parts.pop() ?? ''
    for (const p of parts) {
      const row = parse(p)
      if (row) yield row
    }
  }
  const last = parse(rest)
  if (last) yield last
}

/** Reads until the first non-blank character and picks the format: `{` is JSON lines, else CSV. */
async function detect(text: Text): Promise<{ format: 'csv' | 'jsonl'; text: Text }> {
  const it = text[Symbol.asyncIterator]()
  const seen: string[] = []
  let format: 'csv' | 'jsonl' = 'csv'
  for (;;) {
    const next = await it.next()
    if (next.done) break
    const s = String(next.value)
    seen.push(s)
    const c = /[^\s\ufeff]/.exec(s)?.[0]
    if (c !== undefined) {
      format = c === '{' ? 'jsonl' : 'csv'
      break
    }
  }
  async function* replay(): AsyncGenerator<string> {
    yield* seen
    for (;;) {
      const next = await it.next()
      if (next.done) return
      yield String(next.value)
    }
  }
  return { format, text: replay() }
}

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
  const extra = (e.details ?? []).filter((d) => !e.message.includes(d.message))
  const details = extra.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message))
  return details.length > 0 ? `${e.message} (${details.join('; ')})` : e.message
}

const RETRIES = 5

/** Sends one chunk; 429/503 are retried after Retry-After (the idempotency key makes it safe). */
async function sendChunk(
  client: LinkdClient,
  bodies: unknown[],
  key: string,
): Promise<{ result: BulkCreateResult; replayed: boolean } | BulkItemErr> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await client.links.bulk({ links: bodies }, key)
      return { result: res.body, replayed: res.headers['idempotent-replayed'] === 'true' }
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

async function openInput(opts: ImportOpts, ctx: Ctx): Promise<{ text: Text; size: number | undefined }> {
  if (opts.file === undefined || opts.file === '-') {
    if (opts.file === undefined && ctx.stdin.isTTY === true)
      throw new UsageError('no input: pass a file, or pipe the rows in (linkctl links import - < links.csv)')
    return { text: ctx.stdin as AsyncIterable<Buffer>, size: undefined }
  }
  try {
    const handle = await open(opts.file)
    const { size } = await handle.stat()
    return { text: handle.createReadStream({ encoding: 'utf8' }), size }
  } catch (err) {
    throw new CliError(`cannot read ${opts.file}: ${(err as Error).message}`, EXIT.error)
  }
}

/** Text of the input (UTF-8, characters split across chunks joined), counting its bytes for the progress bar. */
async function* counted(text: Text, onBytes: (n: number) => void): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8')
  for await (const chunk of text) {
    if (typeof chunk === 'string') {
      onBytes(Buffer.byteLength(chunk))
      yield chunk
    } else {
      onBytes(chunk.length)
      yield decoder.write(chunk)
    }
  }
  const end = decoder.end()
  if (end) yield end
}

export async function runLinksImport(opts: ImportOpts, ctx: Ctx): Promise<void> {
  const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE
  await requireKey(ctx)
  const client = await ctx.client()
  const input = await openInput(opts, ctx)
  let bytes = 0
  const text = counted(input.text, (n) => (bytes += n))
  const detected = opts.format ? { format: opts.format, text } : await detect(text)
  const rows =
    detected.format === 'jsonl'
      ? jsonlRows(detected.text, { generateCodes: opts.generateCodes === true })
      : csvRows(detected.text, { generateCodes: opts.generateCodes === true })

  const summary: ImportSummary = { created: 0, failed: 0, errors: [] }
  let replayed = 0
  let seen = 0
  const progress: Progress = createProgress(ctx.stderr, {
    label: 'Importing',
    enabled: ctx.stderr.isTTY === true,
  })
  const show = () =>
    progress.update(
      input.size ? Math.min(bytes, input.size) : seen,
      input.size || undefined,
      input.size
        ? `bytes, ${summary.created} created, ${summary.failed} failed`
        : `rows, ${summary.failed} failed`,
    )
  const fail = (e: RowError) => {
    summary.failed++
    summary.errors.push(e)
  }

  const flush = async (chunk: Row[]) => {
    const valid = chunk.filter((r): r is { line: number; body: Record<string, unknown> } => 'body' in r)
    const errors: RowError[] = chunk.filter((r): r is RowError => 'error' in r)
    if (valid.length > 0) {
      const first = chunk[0]?.line ?? 0
      const bodies = valid.map((r) => r.body)
      const sent = await sendChunk(client, bodies, chunkKey(first, bodies))
      if ('result' in sent) {
        if (sent.replayed) replayed += sent.result.created
        summary.created += sent.result.created
        for (const item of sent.result.results) {
          if (item.status !== 'failed') continue
          const line = valid[item.index]?.line ?? 0
          const e = item.error ?? { error: 'Failed', message: 'failed' }
          errors.push({ line, error: e.error, message: reason(e) })
        }
      } else {
        for (const r of valid) errors.push({ line: r.line, error: sent.error, message: reason(sent) })
      }
    }
    errors.sort((a, b) => a.line - b.line)
    for (const e of errors) {
      fail(e)
      progress.log(`line ${e.line}: ${e.message}`)
    }
    show()
  }

  let chunk: Row[] = []
  let chunkBytes = 0
  const send = async () => {
    await flush(chunk)
    chunk = []
    chunkBytes = 0
  }
  try {
    for await (const row of rows) {
      seen++
      // A chunk also ends before its request body would pass the daemon's body limit.
      const size = 'body' in row ? Buffer.byteLength(JSON.stringify(row.body)) + 1 : 0
      if (chunk.length > 0 && chunkBytes + size > CHUNK_BYTES_MAX) await send()
      chunk.push(row)
      chunkBytes += size
      if (chunk.length >= chunkSize) await send()
    }
    if (chunk.length > 0) await send()
  } catch (err) {
    progress.finish()
    if (summary.created > 0 || summary.failed > 0)
      note(
        ctx,
        `import stopped after ${summary.created} created and ${summary.failed} failed; ` +
          're-run the same command to go on (chunks already accepted are replayed, not duplicated)',
      )
    throw err
  }
  progress.finish()

  if (ctx.json) printJson(ctx, summary)
  else if (seen === 0) note(ctx, 'Nothing to import.')
  else {
    const again = replayed > 0 ? ` (${replayed} of them by an earlier run of this import)` : ''
    ctx.stdout.write(
      `Created ${summary.created} link${summary.created === 1 ? '' : 's'}${again}; ${summary.failed} failed\n`,
    )
  }
  if (summary.failed > 0)
    throw new CliError(`${summary.failed} of ${seen} rows failed (see the lines above)`, EXIT.error)
}

export function register(links: Command): void {
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
    action<Omit<ImportOpts, 'file' | 'json'>>(([file], opts, ctx) =>
      runLinksImport({ ...opts, ...(file ? { file } : {}) }, ctx),
    ),
  )
}
