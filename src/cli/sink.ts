/**
 * Export destinations of the CLI (links export, analytics export), and why a file named on the
 * command line cannot be read or written, in words.
 */
import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Ctx } from '../session/context.js'
import { createProgress, type Progress } from './progress.js'
import { CliError, EXIT } from '../session/exit-codes.js'

/** Where an export is written: stdout, or a file that appears (renamed) only when complete. */
export interface Sink {
  write(s: string | Uint8Array): Promise<void>
  close(): Promise<void>
  abort(): Promise<void>
}

export function stdoutSink(ctx: Ctx): Sink {
  return {
    // Waits for 'drain' when stdout's buffer is full: a million-row export to a slow pipe stays
    // within the stream's buffer instead of queueing in memory.
    write: (s) =>
      new Promise<void>((resolve) => {
        const stream = ctx.stdout as typeof ctx.stdout & {
          once?: (event: 'drain', listener: () => void) => unknown
        }
        if (ctx.stdout.write(s) !== false || typeof stream.once !== 'function') resolve()
        else stream.once('drain', () => resolve())
      }),
    close: async () => undefined,
    abort: async () => undefined,
  }
}

/**
 * A usage error when `file` cannot be an output file: a directory, or in one that does not exist
 * (checked before an export starts, and before a temporary file is made beside it).
 */
export async function checkOutputFile(file: string): Promise<void> {
  if (file.trim() === '') throw new CliError('-o/--output needs a file name (or - for stdout)', EXIT.usage)
  const refuse = (why: string) => new CliError(`cannot write ${file}: ${why}`, EXIT.usage)
  if ((await stat(file).catch(() => undefined))?.isDirectory() || /[/\\]$/.test(file))
    throw refuse('it is a directory; name a file in it')
  const dir = dirname(file)
  const parent = await stat(dir).catch(() => undefined)
  if (!parent) throw refuse(`there is no directory ${dir}`)
  if (!parent.isDirectory()) throw refuse(`${dir} is not a directory`)
}

/** A file system error in words ("no such file"), else its message. */
function fileTrouble(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'no such file'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EISDIR') return 'it is a directory'
  if (code === 'ENOSPC') return 'no space left on the device'
  return err instanceof Error ? err.message : String(err)
}

/**
 * Why a file named on the command line (`what`: the file, or its flag and the file) cannot be
 * read: a usage error, like an output file that cannot be (checkOutputFile).
 */
export function readFailure(what: string, err: unknown): CliError {
  return new CliError(`cannot read ${what}: ${fileTrouble(err)}`, EXIT.usage)
}

/** Why writing `file` failed, in its name (never the temporary file's). */
export function writeFailure(file: string, tmp: string, err: unknown): CliError {
  return new CliError(`cannot write ${file}: ${fileTrouble(err).replaceAll(tmp, file)}`, EXIT.error)
}

/** A temporary file beside `file`, renamed to it on close and removed on abort. */
export async function fileSink(file: string): Promise<Sink> {
  await checkOutputFile(file)
  const tmp = `${file}.tmp-${process.pid}`
  const fail = (err: unknown) => writeFailure(file, tmp, err)
  let handle: FileHandle
  try {
    handle = await open(tmp, 'w', 0o644)
  } catch (err) {
    throw fail(err)
  }
  return {
    async write(s) {
      try {
        if (typeof s === 'string') await handle.write(s)
        else await handle.write(s)
      } catch (err) {
        throw fail(err)
      }
    },
    async close() {
      try {
        await handle.close()
        await rename(tmp, file)
      } catch (err) {
        throw fail(err)
      }
    },
    async abort() {
      await handle.close().catch(() => undefined)
      await rm(tmp, { force: true })
    },
  }
}

/**
 * Runs an export into `output` (a file, or stdout when absent or `-`) with a progress line on a
 * terminal's stderr: the file appears only when `write` completes; on an error it is removed.
 * Returns whether a file was written.
 */
export async function exportTo(
  ctx: Ctx,
  output: string | undefined,
  write: (sink: Sink, progress: Progress) => Promise<void>,
  /** `progress: false` draws no line even on a terminal (--json). */
  opts: { progress?: boolean } = {},
): Promise<boolean> {
  const toFile = output !== undefined && output !== '-'
  const sink = toFile ? await fileSink(output) : stdoutSink(ctx)
  const progress = createProgress(ctx.stderr, {
    label: 'Exporting',
    enabled: ctx.stderr.isTTY === true && opts.progress !== false,
  })
  try {
    await write(sink, progress)
    await sink.close()
  } catch (err) {
    await sink.abort()
    throw err
  } finally {
    progress.finish()
  }
  return toFile
}
