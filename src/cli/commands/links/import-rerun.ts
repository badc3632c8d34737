/**
 * What makes `links import` re-runnable after fixing rows: the failed rows written back in the
 * input's own format with the reason as an extra `error` column or field (`--failed-out`), and
 * the links that already exist, so that their rows are skipped (`--skip-existing`).
 */
import { createWriteStream, type WriteStream } from 'node:fs'
import type { Link } from '../../../contract/links.js'
import type { LinkdClient } from '../../../client/index.js'
import type { Ctx } from '../../../session/context.js'
import { CliError, EXIT } from '../../../session/exit-codes.js'
import { csvRow } from '../../../contract/csv.js'
import { uriReference } from '../../../contract/uri.js'
import { fetchList } from '../../paging.js'
import type { RowSource } from '../../../import/index.js'

export interface FailedRow {
  line: number
  message: string
  source?: RowSource | undefined
}

/** The failed-rows file: CSV (the input's header plus `error`) or JSON lines (each object plus `error`). */
export class FailedOut {
  private header: string[] | undefined
  private headerWritten = false
  private failures = 0

  private constructor(
    private readonly path: string,
    private readonly stream: WriteStream,
    private readonly format: () => 'csv' | 'jsonl',
  ) {}

  /** Creates (or empties) `path` before the import starts, so a bad path fails at once. */
  static async open(path: string, format: () => 'csv' | 'jsonl'): Promise<FailedOut> {
    const stream = createWriteStream(path, { flags: 'w' })
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve())
      stream.once('error', (err) => reject(new CliError(`cannot write ${path}: ${err.message}`, EXIT.error)))
    })
    return new FailedOut(path, stream, format)
  }

  /** The CSV input's header (its columns are kept as they were, `error` added at the end). */
  setHeader(fields: string[]): void {
    this.header = fields
  }

  write(row: FailedRow): void {
    this.failures++
    const reason = `line ${row.line}: ${row.message}`
    if (this.format() === 'jsonl') {
      const source = row.source
      const object =
        source && 'object' in source
          ? { ...source.object, error: reason }
          : { error: reason, input: source && 'text' in source ? source.text : '' }
      this.stream.write(`${JSON.stringify(object)}\n`)
      return
    }
    const width = this.header?.length ?? 0
    if (!this.headerWritten) {
      this.stream.write(csvRow([...(this.header ?? []), 'error']))
      this.headerWritten = true
    }
    // A record that did not parse goes back as it was, for the user to fix.
    if (row.source && 'text' in row.source) {
      this.stream.write(`${row.source.text},${csvRow([reason])}`)
      return
    }
    const fields = row.source && 'fields' in row.source ? [...row.source.fields] : []
    while (fields.length < width) fields.push('')
    this.stream.write(csvRow([...fields, reason]))
  }

  /** Flushes and closes the file; returns how many rows it holds. */
  async close(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.stream.end((err?: Error | null) =>
        err ? reject(new CliError(`cannot write ${this.path}: ${err.message}`, EXIT.error)) : resolve(),
      )
    })
    return this.failures
  }
}

/**
 * What --skip-existing skips: a row whose short code is already in use (by a link, or by an
 * earlier row of this import), and a row without a short code when a link already goes to its
 * destination (such a row gets a new code each time, so its destination is the only sign that an
 * earlier run created it). A row with a new code is never skipped for its destination. The
 * organization's links are read once through the list (pages of 100, like `links list --all`);
 * the rows the import sends are added as they are sent.
 */
export class ExistingLinks {
  /** Short code → who has it: a link id, or `line N` of this import. */
  private readonly codes = new Map<string, string>()
  /** Destination → who goes there. */
  private readonly destinations = new Map<string, string>()

  static async load(client: LinkdClient, ctx: Ctx): Promise<ExistingLinks> {
    const existing = new ExistingLinks()
    const page = await fetchList(ctx, { all: true }, (query) => client.links.list(query))
    for (const link of page.data) existing.addLink(link)
    return existing
  }

  /** A link that exists (the first one listed is named for a code or destination). */
  addLink(link: Pick<Link, 'id' | 'shortCode' | 'destinationUrl'>): void {
    if (!this.codes.has(link.shortCode)) this.codes.set(link.shortCode, link.id)
    const url = asStored(link.destinationUrl)
    if (!this.destinations.has(url)) this.destinations.set(url, link.id)
  }

  /** A create body about to be sent from input line `line`. */
  addRow(line: number, body: Record<string, unknown>): void {
    const code = codeOfRow(body)
    if (code !== undefined && !this.codes.has(code)) this.codes.set(code, `line ${line}`)
    if (typeof body.destinationUrl !== 'string') return
    const url = asStored(body.destinationUrl)
    if (!this.destinations.has(url)) this.destinations.set(url, `line ${line}`)
  }

  /** Why the row is skipped, or undefined when it is to be sent. */
  skip(body: Record<string, unknown>): string | undefined {
    const code = codeOfRow(body)
    if (code !== undefined) {
      const holder = this.codes.get(code)
      return holder ? `short code "${code}" is already in use (${holder})` : undefined
    }
    const url = typeof body.destinationUrl === 'string' ? body.destinationUrl : undefined
    const holder = url === undefined ? undefined : this.destinations.get(asStored(url))
    return holder ? `no short code, and ${holder} already goes to ${url}` : undefined
  }
}

/** A destination as linkd stores it (percent-encoded where a URI needs it); as given when not a URL. */
function asStored(url: string): string {
  try {
    return uriReference(url)
  } catch {
    return url
  }
}

/** The short code a create body asks for, if any. */
export function codeOfRow(body: Record<string, unknown>): string | undefined {
  return typeof body.customSlug === 'string' ? body.customSlug : undefined
}
