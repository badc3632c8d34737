/** Glue between commander actions and run functions: builds the context from the parsed flags. */
import type { Command } from 'commander'
import { createContext, ioFor, type ContextOptions, type Ctx, type GlobalFlags } from '../session/context.js'

/**
 * Wraps `run(args, opts, ctx)` as a commander action. `args` are the positional arguments,
 * `opts` the command's own options; `--json` (when the command has it) sets `ctx.json`.
 */
export function action<O>(
  run: (args: (string | undefined)[], opts: O, ctx: Ctx) => Promise<void>,
  extra: Pick<ContextOptions, 'allowNewProfile'> = {},
): (...all: unknown[]) => Promise<void> {
  return async (...all) => {
    const cmd = all[all.length - 1] as Command
    const opts = cmd.opts() as O & { json?: boolean; columns?: string[] }
    const globals = cmd.optsWithGlobals() as GlobalFlags
    const args = all.slice(0, -2) as (string | undefined)[]
    const ctx = createContext({
      io: ioFor(cmd),
      flags: { url: globals.url, apiKey: globals.apiKey, profile: globals.profile },
      json: opts.json === true,
      columns: opts.columns,
      ...extra,
    })
    try {
      await run(args, opts, ctx)
    } catch (err) {
      // Said for humans: where a refused key came from, a server that is not linkd, TLS mismatches.
      throw await import('./diagnose.js').then((m) => m.explain(err, ctx))
    }
  }
}

/** Adds `--json` to a command. */
export function jsonOption(cmd: Command): Command {
  return cmd.option('--json', 'print the result as JSON')
}

/** Like `action`, for verbs whose first argument is an id: it becomes `opts.id`. */
export function idAction<O>(
  run: (opts: O & { id: string }, ctx: Ctx) => Promise<void>,
): (...all: unknown[]) => Promise<void> {
  return action<O>(([id], opts, ctx) => run({ ...opts, id: id ?? '' }, ctx))
}
