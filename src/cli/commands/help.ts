/** `linkctl help [command...]`, plus the `exit-codes` topic. */
import { Argument, type Command } from 'commander'
import { ioFor } from '../../session/context.js'
import { exitCodesHelp, UsageError } from '../../session/exit-codes.js'

export const HELP_TOPICS = ['exit-codes'] as const

export function register(program: Command): void {
  program.helpCommand(false)
  program
    .command('help')
    .description('show help for a command, or a topic: exit-codes')
    .addArgument(new Argument('[command...]', 'command path (e.g. keys create) or topic'))
    .action((words: string[], _opts: unknown, cmd: Command) => {
      if (words.length === 1 && (HELP_TOPICS as readonly string[]).includes(words[0] ?? '')) {
        ioFor(cmd).stdout.write(exitCodesHelp())
        return
      }
      let target: Command = program
      for (const word of words) {
        const next = target.commands.find((c) => c.name() === word || c.aliases().includes(word))
        if (!next) throw new UsageError(`unknown command or help topic "${words.join(' ')}"`)
        target = next
      }
      target.outputHelp()
    })
}
