/** The commander tree as plain data (for completions/ and docs/reference/cli.md), plus shell helpers. */
import type { Argument, Command, Option } from 'commander'
import { API_METHODS } from '../commands/api.js'
import { HELP_TOPICS } from '../commands/help.js'
import { API_PATHS } from './api-paths.js'

export interface OptSpec {
  names: string[]
  description: string
  /** undefined: a flag; [] free text; ['__files'] / ['__dirs'] paths; else the choices. */
  values: string[] | undefined
}
export interface CmdSpec {
  path: string
  names: string[]
  description: string
  /** The arguments as help shows them: `<url>`, `[file]`, `<ids...>`. */
  usage: string
  options: OptSpec[]
  args: string[]
  /** The second argument's words, by the first one (`api`: each method's paths). */
  secondArgs?: Record<string, readonly string[]>
  /** An argument is a file (`links import [file]`): its words are file names. */
  fileArgs?: true
  children: CmdSpec[]
}

function humanArgName(a: Argument): string {
  const name = `${a.name()}${a.variadic ? '...' : ''}`
  return a.required ? `<${name}>` : `[${name}]`
}

function optSpec(o: Option): OptSpec {
  const names = [o.short, o.long].filter((n): n is string => typeof n === 'string')
  let values: string[] | undefined
  if (o.required || o.optional) {
    if (o.argChoices) values = [...o.argChoices]
    else if (/<file>|\[file\]/.test(o.flags)) values = ['__files']
    else if (/<dir>|\[dir\]/.test(o.flags)) values = ['__dirs']
    else values = []
  }
  return { names, description: o.description, values }
}

/** The tree as plain data; global options (the root's) are kept on the root only. */
function model(cmd: Command, parentPath: string | null): CmdSpec {
  const help = cmd.createHelp()
  const path = parentPath === null ? '' : parentPath ? `${parentPath} ${cmd.name()}` : cmd.name()
  const children = help.visibleCommands(cmd).map((c) => model(c, path))
  let args = cmd.registeredArguments.flatMap((a) => a.argChoices ?? [])
  // `help [command...]` completes the top-level commands and the extra help topics.
  if (cmd.name() === 'help' && cmd.parent && !cmd.parent.parent) {
    args = [...cmd.parent.commands.filter((c) => c !== cmd).map((c) => c.name()), ...HELP_TOPICS]
  }
  // `api <method> <path>`: the methods it takes, then the paths linkd serves with that method (HEAD
  // those of GET).
  let secondArgs: Record<string, readonly string[]> | undefined
  if (cmd.name() === 'api' && cmd.parent && !cmd.parent.parent) {
    args = [...API_METHODS]
    secondArgs = {}
    for (const m of API_METHODS) {
      const paths = API_PATHS[m === 'HEAD' ? 'GET' : m]
      if (paths?.length) secondArgs[m] = paths
    }
  }
  return {
    path,
    names: [cmd.name(), ...cmd.aliases()],
    description: cmd.description(),
    usage: cmd.registeredArguments.map((a) => humanArgName(a)).join(' '),
    options: help.visibleOptions(cmd).map(optSpec),
    args,
    ...(secondArgs ? { secondArgs } : {}),
    ...(cmd.registeredArguments.some((a) => a.name() === 'file') ? { fileArgs: true as const } : {}),
    children,
  }
}

export function walk(spec: CmdSpec, fn: (c: CmdSpec) => void): void {
  fn(spec)
  for (const c of spec.children) walk(c, fn)
}

export const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
export const fishq = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
export const firstLine = (s: string) => (s.split('\n')[0] ?? '').trim()

/**
 * The shell functions bash and zsh share (same case syntax): _linkctl_descend, _linkctl_takes_value,
 * _linkctl_has_second, _linkctl_second, _linkctl_file_args. `second(words)` is the shell's command
 * that offers the second argument's words (`api GET <path>`), given as-is or lowercase.
 */
export function shCases(
  root: CmdSpec,
  globals: OptSpec[],
  second: (words: readonly string[]) => string,
): string {
  const descend: string[] = []
  const takes: string[] = globals
    .filter((o) => o.values)
    .flatMap((o) => o.names.map((n) => `*${sq(`|${n}`)}`))
  const hasSecond: string[] = []
  const seconds: string[] = []
  const fileArgs: string[] = []
  walk(root, (c) => {
    if (c.fileArgs) fileArgs.push(sq(c.path))
    for (const child of c.children) {
      descend.push(`    ${child.names.map((n) => sq(`${c.path}|${n}`)).join('|')}) echo ${sq(child.path)} ;;`)
    }
    if (c !== root) {
      for (const o of c.options) if (o.values) takes.push(...o.names.map((n) => sq(`${c.path}|${n}`)))
    }
    if (c.secondArgs) hasSecond.push(sq(c.path))
    for (const [first, words] of Object.entries(c.secondArgs ?? {})) {
      const cases = [...new Set([first, first.toLowerCase()])].map((f) => sq(`${c.path}|${f}`))
      seconds.push(`    ${cases.join('|')}) ${second(words)} ;;`)
    }
  })
  const fn = (name: string, body: string) => `_linkctl_${name}() {\n${body}\n}`
  return [
    fn('descend', `  case "$1|$2" in\n${descend.join('\n')}\n  esac`),
    fn(
      'takes_value',
      takes.length
        ? `  case "$1|$2" in\n    ${takes.join('|')}) return 0 ;;\n  esac\n  return 1`
        : '  return 1',
    ),
    fn('has_second', `  case "$1" in\n    ${hasSecond.join('|') || "''"}) return 0 ;;\n  esac\n  return 1`),
    fn('second', `  case "$1|$2" in\n${seconds.join('\n')}\n  esac`),
    fn('file_args', `  case "$1" in\n    ${fileArgs.join('|') || "''"}) return 0 ;;\n  esac\n  return 1`),
  ].join('\n\n')
}

export function rootAndGlobals(program: Command): { root: CmdSpec; globals: OptSpec[] } {
  const root = model(program, null)
  // --json is read anywhere too, but offered only where a command has JSON output (others refuse it).
  const local = ['--version', '-V', '--json']
  const globals = root.options.filter((o) => !o.names.some((n) => local.includes(n)))
  return { root, globals }
}

/** Options offered at a command: its own, plus the root's global ones below the root. */
export function optionsAt(c: CmdSpec, root: CmdSpec, globals: OptSpec[]): OptSpec[] {
  if (c === root) return c.options
  const own = new Set(c.options.flatMap((o) => o.names))
  return [...c.options, ...globals.filter((g) => !g.names.some((n) => own.has(n)))]
}
