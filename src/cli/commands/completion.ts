/** `linkctl completion bash|zsh|fish|all [--write]`: scripts generated from the command tree. */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Argument, type Command } from 'commander'
import { action } from '../action.js'
import type { Ctx } from '../../session/context.js'
import { UsageError } from '../../session/exit-codes.js'
import { note } from '../output.js'
import { packageRoot } from '../../version.js'

/** Mirrors SHELLS of ../completion/index.ts, which is loaded only when a script is generated. */
const SHELL_CHOICES = ['bash', 'zsh', 'fish', 'all'] as const

export interface CompletionOpts {
  shell: string
  write?: boolean
  dir?: string
}

/** `buildProgram` is the program's own builder, handed in by it (this file never imports the program). */
export async function runCompletion(
  opts: CompletionOpts,
  ctx: Ctx,
  buildProgram: () => Command,
): Promise<void> {
  const { completionScript, COMPLETION_FILES, SHELLS } = await import('../completion/index.js')
  const shells = opts.shell === 'all' ? [...SHELLS] : SHELLS.filter((s) => s === opts.shell)
  if (shells.length === 0) throw new UsageError(`unknown shell "${opts.shell}": use bash, zsh, fish or all`)
  if (!opts.write) {
    if (shells.length > 1) throw new UsageError('`completion all` needs --write (one script per file)')
    ctx.stdout.write(completionScript(shells[0] ?? 'bash', buildProgram()))
    return
  }
  const dir = opts.dir ?? join(packageRoot(), 'completions')
  await mkdir(dir, { recursive: true })
  for (const shell of shells) {
    const file = join(dir, COMPLETION_FILES[shell])
    await writeFile(file, completionScript(shell, buildProgram()))
    note(ctx, `wrote ${file}`)
  }
}

export function register(program: Command, buildProgram: () => Command): void {
  program
    .command('completion')
    .description('print the shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'target shell').choices(SHELL_CHOICES))
    .option('--write', "write the file(s) into the package's completions/ directory instead of printing")
    .option('--dir <dir>', 'with --write: the directory to write into')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  source <(linkctl completion bash)\n' +
        '  mkdir -p ~/.zfunc && linkctl completion zsh > ~/.zfunc/_linkctl\n' +
        '    (and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath))\n' +
        '  mkdir -p ~/.config/fish/completions\n' +
        '  linkctl completion fish > ~/.config/fish/completions/linkctl.fish\n' +
        '  linkctl completion all --write',
    )
    .action(
      action<Omit<CompletionOpts, 'shell'>>(([shell], opts, ctx) =>
        runCompletion({ ...opts, shell: shell ?? '' }, ctx, buildProgram),
      ),
    )
}
