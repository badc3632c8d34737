/** `links open` (the short URL in a browser) and `links qr` (the QR code as a file, bytes or terminal drawing). */
import { spawn } from 'node:child_process'
import { rename, rm, writeFile } from 'node:fs/promises'
import { delimiter, extname } from 'node:path'
import { QR_MARKER } from '../../contract/limits.js'
import { requireKey, type Ctx } from '../context.js'
import { CliError, EXIT } from '../exit-codes.js'
import { note } from '../output.js'
import { findLink, linkIdOf } from './links-view.js'

export interface OpenOpts {
  ref: string
  print?: boolean
}

export interface BrowserCommand {
  command: string
  args: string[]
  /** $BROWSER may be a terminal browser: it gets the terminal. */
  inheritStdio: boolean
}

/** How to open `url`: $BROWSER (first entry; `%s` is replaced, else the URL is appended), else the OS opener. */
export function browserCommand(
  url: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): BrowserCommand {
  const browser = (env.BROWSER ?? '')
    .split(delimiter)
    .map((s) => s.trim())
    .find((s) => s.length > 0)
  if (browser) {
    const [command = browser, ...rest] = browser.split(/\s+/)
    const args = rest.some((a) => a.includes('%s')) ? rest.map((a) => a.replace(/%s/g, url)) : [...rest, url]
    return { command, args, inheritStdio: true }
  }
  if (platform === 'darwin') return { command: 'open', args: [url], inheritStdio: false }
  if (platform === 'win32')
    return { command: 'cmd', args: ['/c', 'start', '""', url.replace(/[&^]/g, '^$&')], inheritStdio: false }
  return { command: 'xdg-open', args: [url], inheritStdio: false }
}

function launch(b: BrowserCommand, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(b.command, b.args, {
      env,
      stdio: b.inheritStdio ? 'inherit' : 'ignore',
      windowsVerbatimArguments: b.command === 'cmd',
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${b.command} exited with ${code}`)),
    )
  })
}

export async function runLinksOpen(opts: OpenOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const link = await findLink(await ctx.client(), opts.ref)
  if (opts.print) {
    ctx.stdout.write(`${link.shortUrl}\n`)
    return
  }
  const b = browserCommand(link.shortUrl, ctx.env)
  note(ctx, `Opening ${link.shortUrl} in your browser`)
  try {
    await launch(b, ctx.env)
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err)
    throw new CliError(`cannot open a browser (${why}); the short URL is ${link.shortUrl}`, EXIT.error)
  }
}

export interface QrOpts {
  ref: string
  format?: 'svg' | 'png'
  output?: string
  size?: number
}

/**
 * With --output: the image from the API into the file (format from --format, else the file's
 * extension, else SVG). Without it on a terminal: the QR drawn with text blocks, encoding the
 * same `<shortUrl>?qr=1` as the image. Without it, piped: the image bytes on stdout.
 */
export async function runLinksQr(opts: QrOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const toFile = opts.output !== undefined && opts.output !== '-'
  if (!toFile && opts.output === undefined && ctx.isTTY) {
    const link = await findLink(client, opts.ref)
    // Asking the API for the code too records its creation (qr_code.created) and checks the scope.
    await client.links.qr(link.id, { format: 'svg' })
    const { default: QRCode } = await import('qrcode')
    const text = await QRCode.toString(`${link.shortUrl}?${QR_MARKER}=1`, { type: 'terminal', small: true })
    ctx.stdout.write(`${text}\n${link.shortUrl}\n`)
    return
  }
  const format =
    opts.format ?? (toFile && extname(opts.output ?? '').toLowerCase() === '.png' ? 'png' : 'svg')
  const id = await linkIdOf(client, opts.ref)
  const image = await client.links.qr(id, {
    format,
    ...(opts.size !== undefined ? { size: opts.size } : {}),
  })
  if (!toFile) {
    ctx.stdout.write(image.body)
    return
  }
  const file = opts.output as string
  const tmp = `${file}.tmp-${process.pid}`
  try {
    await writeFile(tmp, image.body)
    await rename(tmp, file)
  } catch (err) {
    await rm(tmp, { force: true })
    throw new CliError(
      `cannot write ${file}: ${err instanceof Error ? err.message : String(err)}`,
      EXIT.error,
    )
  }
  note(ctx, `Wrote the ${format.toUpperCase()} QR code of ${id} to ${file} (${image.body.length} bytes)`)
}
