/**
 * The input of `links import`: the file or stdin as text, read by the source product's reader
 * (src/import: the same readers as linkd's POST /api/use/links/import).
 */
import { open } from 'node:fs/promises'
import type { Ctx } from '../../../session/context.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import {
  ImportFileError,
  readRows as readSourceRows,
  type FileFormat,
  type ImportSource,
  type ReadOptions,
  type Row,
  type Text,
} from '../../../import/index.js'
import { readFailure } from '../../sink.js'

/** The records of `input` from `source` (linkd: `format`, detected when not given). */
export async function readRows(
  input: Text,
  format: FileFormat | undefined,
  opts: ReadOptions,
  source: ImportSource = 'linkd',
): Promise<{ format: FileFormat; rows: AsyncGenerator<Row> }> {
  const read = await readSourceRows(source, input, format, opts).catch((err: unknown) => {
    throw err instanceof ImportFileError ? new CliError(err.message, EXIT.error) : err
  })
  return { format: read.format, rows: fileErrorsAsCli(read.rows) }
}

/** A file that cannot be read stops the import with its reason (exit 1). */
async function* fileErrorsAsCli(rows: AsyncGenerator<Row>): AsyncGenerator<Row> {
  try {
    yield* rows
  } catch (err) {
    if (err instanceof ImportFileError) throw new CliError(err.message, EXIT.error)
    throw err
  }
}

/** The input file, or stdin for `-` or no file (not a terminal). */
export async function openInput(file: string | undefined, ctx: Ctx): Promise<Text> {
  if (file === undefined || file === '-') {
    if (file === undefined && ctx.stdin.isTTY === true)
      throw new UsageError('no input: pass a file, or pipe the rows in (linkctl links import - < links.csv)')
    return ctx.stdin as AsyncIterable<Buffer>
  }
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(file)
  } catch (err) {
    throw readFailure(file, err)
  }
  // A directory opens; reading it fails only later.
  if ((await handle.stat()).isDirectory()) {
    await handle.close()
    throw readFailure(file, { code: 'EISDIR' })
  }
  return handle.createReadStream({ encoding: 'utf8' })
}

/**
 * How many records a file holds, for the progress bar's total (a first quick pass, without
 * sending anything); undefined for stdin or a file that cannot be read twice.
 */
export async function countRows(
  file: string | undefined,
  format: FileFormat | undefined,
  source: ImportSource = 'linkd',
): Promise<number | undefined> {
  if (file === undefined || file === '-') return undefined
  try {
    const handle = await open(file)
    const { rows } = await readSourceRows(source, handle.createReadStream({ encoding: 'utf8' }), format, {})
    let n = 0
    for await (const _ of rows) n++
    return n
  } catch {
    return undefined
  }
}
