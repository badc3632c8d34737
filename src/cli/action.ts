/** Glue between commander actions and run functions: builds the context from the parsed flags. */
import type { Command } from 'commander'
import { createContext, ioFor, type ContextOptions, type Ctx, type GlobalFlags } from '../session/context.js'
import { UsageError } from '../session/exit-codes.js'
import type { FlagTerms, RepeatedFlag } from './diagnose.js'

/** `linkctl links create`: the command's path, for messages. */
function commandPath(cmd: Command): string {
  const names: string[] = []
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name())
  return names.join(' ')
}

/**
 * Wraps `run(args, opts, ctx)` as a commander action. `args` are the positional arguments,
 * `opts` the command's own options. The global flags (`--url`, `--api-key`, `--profile`, `--json`)
 * are the program's, read before or after the command; `--json` sets `ctx.json` on a command that
 * has it (`jsonOption`) and is refused by one that has not.
 */
export interface ActionExtra extends Pick<ContextOptions, 'allowNewProfile'> {
  /**
   * Body fields the command sets with a flag, and that flag: an API refusal naming the field is
   * said with the flag (`customSlug may only contain…` → `--short-code may only contain…`). A field
   * named as a flag's camelCase attribute needs no entry (`requestLimit` → `--request-limit`).
   * A repeatable flag's field ends in `[]` (a list, an item per occurrence: `'rules[]': '--rule'`)
   * or `{}` (an object, a `Name: value` per occurrence: `'headers{}': '--header'`); its items are
   * said as the occurrence (`rules.1.destinationUrl` → `the 2nd --rule's destinationUrl`), quoting
   * what was typed when that is known (`allowedOrigins.0` → `--allowed-origin notaurl`).
   */
  flagOf?: Readonly<Record<string, string>>
}

/**
 * The flags a refusal may name: each option whose attribute is a camelCase word, as the API
 * names that field (one-word names such as `name` are left out: they also occur in prose), then
 * the command's own `flagOf`, its repeatable flags among them when given.
 */
function flagsOf(cmd: Command, flagOf: Readonly<Record<string, string>> = {}): FlagTerms {
  const names: Record<string, string> = {}
  for (const o of cmd.options)
    if (o.long && !o.negate && /[A-Z]/.test(o.attributeName())) names[o.attributeName()] = o.long
  const items: RepeatedFlag[] = []
  for (const [field, flag] of Object.entries(flagOf)) {
    const repeated = /^(.+)(\[\]|\{\})$/.exec(field)
    if (!repeated) {
      names[field] = flag
      continue
    }
    const option = cmd.options.find((o) => o.long === flag)
    if (!option || cmd.getOptionValueSource(option.attributeName()) !== 'cli') continue
    const value: unknown = cmd.getOptionValue(option.attributeName())
    const typed = Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined
    items.push({ field: repeated[1]!, flag, keyed: repeated[2] === '{}', ...(typed && { typed }) })
  }
  return { names, items }
}

export function action<O>(
  run: (args: (string | undefined)[], opts: O, ctx: Ctx) => Promise<void>,
  extra: ActionExtra = {},
): (...all: unknown[]) => Promise<void> {
  return async (...all) => {
    const cmd = all[all.length - 1] as Command
    const opts = cmd.opts() as O & { columns?: string[] }
    const globals = cmd.optsWithGlobals() as GlobalFlags & { json?: boolean }
    const json = globals.json === true
    if (json && !cmd.options.some((o) => o.long === '--json'))
      throw new UsageError(`${commandPath(cmd)} has no JSON output: leave out --json`)
    if (json && opts.columns)
      throw new UsageError("option '--columns <names>' cannot be used with option '--json'")
    const args = all.slice(0, -2) as (string | undefined)[]
    const ctx = createContext({
      io: ioFor(cmd),
      flags: { url: globals.url, apiKey: globals.apiKey, profile: globals.profile },
      json,
      columns: opts.columns,
      allowNewProfile: extra.allowNewProfile,
    })
    try {
      await run(args, opts, ctx)
    } catch (err) {
      // Said for humans: where a refused key came from, a server that is not linkd, TLS mismatches,
      // the flag behind a refused field.
      throw await import('./diagnose.js').then((m) => m.explain(err, ctx, flagsOf(cmd, extra.flagOf)))
    }
  }
}

/** Gives a command `--json` (the program reads the flag wherever it is written; see `action`). */
export function jsonOption(cmd: Command): Command {
  return cmd.option('--json', 'print the result as JSON')
}

/** Like `action`, for verbs whose first argument is an id: it becomes `opts.id`. */
export function idAction<O>(
  run: (opts: O & { id: string }, ctx: Ctx) => Promise<void>,
  extra?: ActionExtra,
): (...all: unknown[]) => Promise<void> {
  return action<O>(([id], opts, ctx) => run({ ...opts, id: id ?? '' }, ctx), extra)
}
