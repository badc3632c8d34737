/** Runs linkctl on an argv with given streams and returns the exit code (main.ts and tests use it). */
import type { Command, Option } from 'commander'
import { attachIo, noColor, processIo, type Io } from '../session/context.js'
import {
  exitCodeFor,
  formatError,
  formatJsonError,
  isCommanderError,
  StoppedBySignal,
} from '../session/exit-codes.js'
import { buildProgram } from './program.js'
import { visible } from '../format/visible.js'
import { shellWord } from '../format/terms.js'

/** `--json` among the options (before a `--`): errors are then printed as JSON too. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json')
}

function configure(cmd: Command, io: Io, json: boolean): void {
  cmd.exitOverride()
  cmd.configureOutput({
    writeOut: (s) => void io.stdout.write(s),
    // Commander's errors quote the arguments given: control characters shown, not run. With
    // --json its error text is left out; runCli prints the error as JSON instead.
    writeErr: (s) => void (json ? undefined : io.stderr.write(visible(s))),
    getOutHasColors: () => io.stdout.isTTY === true && !noColor(io.env),
    getErrHasColors: () => io.stderr.isTTY === true && !noColor(io.env),
  })
  explainMisplacedValue(cmd)
  for (const sub of cmd.commands) configure(sub, io, json)
}

const ORDINALS = ['first', 'second', 'third', 'fourth']

/** "this command's first argument: linkctl analytics funnel [options] <game>" */
function argumentAdvice(cmd: Command, at: number): string {
  const path: string[] = []
  for (let c: Command | null = cmd; c; c = c.parent) path.unshift(c.name())
  const nth = ORDINALS[at] ?? `number ${at + 1}`
  return `this command's ${nth} argument: ${path.join(' ')} ${cmd.usage()}`
}

/** `a, b and c` */
const listed = (items: string[], last: 'and' | 'or') =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`

/**
 * An argument written as an option (`--game g` where the game is an argument; other commands take
 * `--game`), or missing after `--url` (linkd's address, not the argument `url`): the usage error
 * says how to give it; so does a value given as an argument where a required option takes it
 * (`games create "Space Race"`: `did you mean --name 'Space Race'?`, the options it fits).
 */
function explainMisplacedValue(cmd: Command): void {
  const names = cmd.registeredArguments.map((a) => a.name())
  const own = cmd as unknown as {
    unknownOption(flag: string): void
    missingArgument(name: string): void
    missingMandatoryOptionValue(option: Option): void
  }
  const missingOption = own.missingMandatoryOptionValue.bind(cmd)
  own.missingMandatoryOptionValue = (option) => {
    // One word too many: it was meant for a required option that is missing, one whose choices
    // (if any) take it. Named when it is the only one missing, suggested among several.
    const extra = cmd.args.slice(names.length)
    const missing = cmd.options.filter(
      (o) => o.mandatory && cmd.getOptionValue(o.attributeName()) === undefined,
    )
    const word = extra[0]
    const takers = missing.filter((o) => !o.argChoices || o.argChoices.includes(word ?? ''))
    if (extra.length !== 1 || word!.startsWith('-') || takers.length === 0) return missingOption(option)
    const given = `"${word}" was given as an argument`
    const written = takers.map((o) => `${o.long} ${shellWord(word!)}`)
    cmd.error(
      missing.length === 1
        ? `error: required option '${option.flags}' not specified (${given}: write ${written[0]})`
        : `error: required options ${listed(
            missing.map((o) => `'${o.flags}'`),
            'and',
          )} not specified (${given}: did you mean ${listed(written, 'or')}?)`,
      { code: 'commander.missingMandatoryOptionValue' },
    )
  }
  if (names.length === 0) return
  const [unknownOption, missingArgument] = [own.unknownOption.bind(cmd), own.missingArgument.bind(cmd)]
  own.unknownOption = (flag) => {
    const at = flag.startsWith('--') ? names.indexOf(flag.slice(2).split('=')[0]!) : -1
    if (at < 0) return unknownOption(flag)
    cmd.error(`error: unknown option '${flag}': the ${names[at]} is ${argumentAdvice(cmd, at)}`, {
      code: 'commander.unknownOption',
    })
  }
  own.missingArgument = (name) => {
    const at = names.indexOf(name)
    if (name !== 'url' || at < 0 || cmd.getOptionValueSourceWithGlobals('url') !== 'cli')
      return missingArgument(name)
    cmd.error(
      `error: missing required argument 'url' (--url is linkd's address; give the url as ${argumentAdvice(cmd, at)})`,
      { code: 'commander.missingArgument' },
    )
  }
}

export async function runCli(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const program = buildProgram()
  attachIo(program, io)
  const json = wantsJson(argv)
  configure(program, io, json)
  try {
    await program.parseAsync(argv, { from: 'user' })
    return 0
  } catch (err) {
    // Commander has already printed its own usage errors (`error: ...`). Never a stack trace.
    const code = exitCodeFor(err)
    // Stopped by Ctrl-C or a kill after cleaning up: the command has said all there is.
    if (err instanceof StoppedBySignal) return code
    if (json) {
      if (code !== 0) io.stderr.write(formatJsonError(err))
    } else if (!isCommanderError(err)) io.stderr.write(formatError(err))
    return code
  }
}
