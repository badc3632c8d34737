/** Runs linkctl on an argv with given streams and returns the exit code (main.ts and tests use it). */
import type { Command } from 'commander'
import { attachIo, noColor, processIo, type Io } from './context.js'
import { exitCodeFor, formatError, isCommanderError } from './exit-codes.js'
import { buildProgram } from './program.js'
import { visible } from './visible.js'

function configure(cmd: Command, io: Io): void {
  cmd.exitOverride()
  cmd.configureOutput({
    writeOut: (s) => void io.stdout.write(s),
    // Commander's errors quote the arguments given: control characters shown, not run.
    writeErr: (s) => void io.stderr.write(visible(s)),
    getOutHasColors: () => io.stdout.isTTY === true && !noColor(io.env),
    getErrHasColors: () => io.stderr.isTTY === true && !noColor(io.env),
  })
  for (const sub of cmd.commands) configure(sub, io)
}

export async function runCli(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const program = buildProgram()
  attachIo(program, io)
  configure(program, io)
  try {
    await program.parseAsync(argv, { from: 'user' })
    return 0
  } catch (err) {
    // Commander has already printed its own usage errors (`error: ...`). Never a stack trace.
    if (!isCommanderError(err)) io.stderr.write(formatError(err))
    return exitCodeFor(err)
  }
}
