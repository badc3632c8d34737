/** Interactive prompts on stderr. Callers check `ctx.canPrompt` first: prompts never hang without a TTY. */
import { createInterface } from 'node:readline/promises'
import { Writable } from 'node:stream'

export interface Prompter {
  /** Reads a line without echoing it. */
  secret(question: string): Promise<string>
  /** y/N question; anything but y/yes is no. */
  confirm(question: string): Promise<boolean>
  /** A line of text (echoed). */
  text?(question: string): Promise<string>
}

export function terminalPrompter(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Prompter {
  return {
    async secret(question) {
      output.write(question)
      const muted = new Writable({ write: (_chunk, _enc, done) => done() })
      const rl = createInterface({ input, output: muted, terminal: true })
      try {
        return (await rl.question('')).trim()
      } finally {
        rl.close()
        output.write('\n')
      }
    },
    async text(question) {
      const rl = createInterface({ input, output })
      try {
        return (await rl.question(question)).trim()
      } finally {
        rl.close()
      }
    },
    async confirm(question) {
      const rl = createInterface({ input, output })
      try {
        const answer = (await rl.question(`${question} [y/N] `)).trim().toLowerCase()
        return answer === 'y' || answer === 'yes'
      } finally {
        rl.close()
      }
    },
  }
}
