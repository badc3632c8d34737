/** Where the QR image commands send an image: a file (`--output`), or its bytes on stdout. */
import { rename, rm, writeFile } from 'node:fs/promises'
import { extname } from 'node:path'
import type { Ctx } from '../session/context.js'
import { CliError, EXIT } from '../session/exit-codes.js'
import { checkOutputFile, writeFailure } from './sink.js'

type Format = 'svg' | 'png'

/** The format a file name asks for: `.png`/`.svg`, SVG without an extension; any other is a usage error. */
function formatOfFile(file: string): Format {
  const ext = extname(file).toLowerCase()
  if (ext === '.png') return 'png'
  if (ext === '.svg' || ext === '') return 'svg'
  throw new CliError(
    `cannot write a ${ext} image: name the file .png or .svg, or pass --format png|svg`,
    EXIT.usage,
  )
}

/**
 * Fetches the image in `--format`, else the output file's extension's, else SVG, and writes it:
 * into the file whole (a temporary file renamed, so no half image is left), or to stdout.
 * Returns what was written to a file, undefined for stdout.
 */
export async function sendImage(
  ctx: Ctx,
  opts: { format?: Format; output?: string },
  fetch: (format: Format) => Promise<{ body: Buffer }>,
): Promise<{ format: Format; file: string; bytes: number } | undefined> {
  const file = opts.output !== undefined && opts.output !== '-' ? opts.output : undefined
  const format = opts.format ?? (file === undefined ? 'svg' : formatOfFile(file))
  if (file !== undefined) await checkOutputFile(file)
  const image = await fetch(format)
  if (file === undefined) {
    ctx.stdout.write(image.body)
    return undefined
  }
  const tmp = `${file}.tmp-${process.pid}`
  try {
    await writeFile(tmp, image.body)
    await rename(tmp, file)
  } catch (err) {
    await rm(tmp, { force: true })
    throw writeFailure(file, tmp, err)
  }
  return { format, file, bytes: image.body.length }
}
