/** `links open`: the short URL in a browser ($BROWSER, else the OS opener). */
import { spawn } from 'node:child_process'
import type { Command } from 'commander'
import { delimiter } from 'node:path'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT } from '../../../session/exit-codes.js'
import { note } from '../../output.js'
import { findLink, REF_HELP, refAction } from './refs.js'

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

export function register(links: Command): void {
  links
    .command('open')
    .description("open a link's short URL in the browser ($BROWSER when set)")
    .argument('<link>', REF_HELP)
    .option('--print', 'only print the short URL')
    .action(refAction<{ print?: boolean }>(runLinksOpen))
}
