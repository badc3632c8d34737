/**
 * A program in a tmux server of its own (the `linkctl tui` e2e test, the bench and the README's
 * screenshots): start it at a size, read the pane as text (`capture-pane`), wait for texts,
 * type keys.
 */
import { execFileSync } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { findBinary } from './binaries.js'

export const tmuxBinary = findBinary('tmux')

export class Tmux {
  constructor(
    /** The tmux server's socket name (`tmux -L`). */
    readonly server: string,
  ) {}

  run(args: string[], env?: NodeJS.ProcessEnv): string {
    if (!tmuxBinary) throw new Error('tmux is not installed')
    return execFileSync(tmuxBinary, ['-L', this.server, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(env ? { env } : {}),
    })
  }

  /** Starts `command` (a shell line) in a detached session of `columns`×`rows`. */
  start(command: string, env: NodeJS.ProcessEnv, columns = 80, rows = 24): void {
    this.run(['new-session', '-d', '-x', String(columns), '-y', String(rows), command], env)
  }

  /** The pane as text (with `-e`, its colour codes too). */
  screen(withEscapes = false): string {
    return this.run(['capture-pane', '-p', ...(withEscapes ? ['-e'] : [])])
  }

  /** The pane once it shows every text (polls; fails after `timeoutMs` with what it saw). */
  async paneWith(texts: string[], timeoutMs = 15_000): Promise<string> {
    const end = Date.now() + timeoutMs
    for (;;) {
      const pane = this.screen()
      if (texts.every((t) => pane.includes(t))) return pane
      if (Date.now() > end) throw new Error(`the pane never showed ${texts.join(', ')}:\n${pane}`)
      await sleep(100)
    }
  }

  /** Types keys: named keys (Enter, Escape, Down) as tmux names them, anything else as it is. */
  async keys(...sequence: string[]): Promise<void> {
    for (const k of sequence) {
      this.run(['send-keys', ...(/^[A-Z][a-z]+$/.test(k) ? [k] : ['-l', k])])
      await sleep(150)
    }
  }

  /**
   * Sends `data` as it is in one `send-keys -l`: the program reads the keys together, in one
   * chunk, as over SSH or with key repeat (four Backspaces, several Enters).
   */
  write(data: string): void {
    this.run(['send-keys', '-l', data])
  }

  /** The process id of the pane's program (the shell, or what it `exec`ed). */
  panePid(): number {
    return Number(this.run(['display', '-p', '#{pane_pid}']).trim())
  }

  kill(): void {
    try {
      this.run(['kill-server'])
    } catch {
      // already gone
    }
  }
}
