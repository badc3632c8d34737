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
import { fetchList } from '../../paging.js'
import type { RowSource } from './import-input.js'

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
 * The short codes and destinations of the organization's links, read once through the list
 * (pages of 100, like `links list --all`): one request per 100 links instead of one look-up
 * per row. The rows the import sends are added as they are sent, so a row repeated in the input
 * is created once.
 */
export class ExistingLinks {
  private readonly codes = new Set<string>()
  private readonly destinations = new Set<string>()

  static async load(client: LinkdClient, ctx: Ctx): Promise<ExistingLinks> {
    const existing = new ExistingLinks()
    const page = await fetchList(ctx, { all: true }, (query) => client.links.list(query))
    for (const link of page.data) existing.add(link)
    return existing
  }

  /** A link that exists, or a create body about to be sent (its code and destination are taken). */
  add(link: Pick<Link, 'shortCode' | 'destinationUrl'> | Record<string, unknown>): void {
    const code = 'shortCode' in link ? link.shortCode : link.customSlug
    if (typeof code === 'string') this.codes.add(code)
    if (typeof link.destinationUrl === 'string') this.destinations.add(link.destinationUrl)
  }

  /** Why a create body names a link that already exists, or undefined. */
  has(body: Record<string, unknown>): 'customSlug' | 'destinationUrl' | undefined {
    if (typeof body.customSlug === 'string' && this.codes.has(body.customSlug)) return 'customSlug'
    if (typeof body.destinationUrl === 'string' && this.destinations.has(body.destinationUrl))
      return 'destinationUrl'
    return undefined
  }
}
