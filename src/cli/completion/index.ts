/**
 * Shell completion scripts generated from the commander tree: commands, aliases, options,
 * option-argument choices and argument choices all come from the program, never from a list
 * kept here. The checked-in completions/ files are compared with this output by a test.
 */
import type { Command } from 'commander'
import { bashCompletion } from './bash.js'
import { fishCompletion } from './fish.js'
import { zshCompletion } from './zsh.js'

export const SHELLS = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof SHELLS)[number]
export const COMPLETION_FILES: Readonly<Record<Shell, string>> = {
  bash: 'linkctl.bash',
  zsh: '_linkctl',
  fish: 'linkctl.fish',
}

export function completionScript(shell: Shell, program: Command): string {
  if (shell === 'bash') return bashCompletion(program)
  if (shell === 'zsh') return zshCompletion(program)
  return fishCompletion(program)
}
