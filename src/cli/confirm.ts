/** Confirmation of a destructive verb: `--yes`, or a y/N question on a terminal; never a hang. */
import { noColor, type Ctx } from '../session/context.js'
import { CliError, EXIT, UsageError } from '../session/exit-codes.js'

export interface ConfirmOptions {
  /** `--yes` was given. */
  yes?: boolean | undefined
  /** What is refused without a terminal, e.g. `revoke key key_123`. */
  action: string
  /** The y/N question asked on a terminal. */
  question: string
}

/** Returns when the user agreed (or passed --yes); otherwise a usage error (no TTY) or "aborted". */
export async function confirmOrStop(ctx: Ctx, opts: ConfirmOptions): Promise<void> {
  if (opts.yes) return
  if (!ctx.canPrompt)
    throw new UsageError(
      `refusing to ${opts.action} without confirmation: add --yes (stdin is not a terminal)`,
    )
  if (!(await ctx.prompt.confirm(opts.question))) throw new CliError('aborted', EXIT.error)
}

/** A loud warning on stderr: bold red on a colour terminal. */
export function shout(ctx: Ctx, message: string): void {
  const colour = ctx.stderr.isTTY === true && !noColor(ctx.env)
  ctx.stderr.write(colour ? `\x1b[1;31mWARNING: ${message}\x1b[0m\n` : `WARNING: ${message}\n`)
}
