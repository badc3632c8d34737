/**
 * How a long-running command (`webhooks listen`, `fraud watch`) stops on a signal. The first
 * SIGINT (Ctrl-C), SIGTERM or SIGHUP ends its wait; the command cleans up (deletes its temporary
 * webhook) and linkctl exits with the shell's code for the signal, 128 + its number. A further
 * signal while the clean-up runs exits at once, after the command has said what it left behind.
 */
import { StoppedBySignal, SIGNAL_EXIT_CODES, type StopSignal } from './exit-codes.js'

export { StoppedBySignal, SIGNAL_EXIT_CODES, type StopSignal }

export const STOP_SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]

export interface StopSignals {
  /** Resolves with the first signal. */
  readonly first: Promise<StopSignal>
  /**
   * Waits for `work` (the clean-up); a signal meanwhile calls `abandon` (which says what is left
   * undone) and exits the process at once with that signal's code.
   */
  during<T>(work: Promise<T>, abandon: (signal: StopSignal) => void): Promise<T>
  /** Stops listening: the signals' default action (ending the process) is back. */
  release(): void
}

/** Listens for SIGINT, SIGTERM and SIGHUP until `release()`. */
export function stopSignals(): StopSignals {
  let resolve: (signal: StopSignal) => void = () => undefined
  const first = new Promise<StopSignal>((r) => (resolve = r))
  let received = false
  let abandon: ((signal: StopSignal) => void) | undefined
  // Kept for every signal (never `once`): a second Ctrl-C must reach this handler rather than
  // end the process by the default action before the command has said what it left.
  const listener = (signal: NodeJS.Signals) => {
    const s = signal as StopSignal
    if (!received) {
      received = true
      resolve(s)
      return
    }
    abandon?.(s)
    process.exit(SIGNAL_EXIT_CODES[s])
  }
  for (const s of STOP_SIGNALS) process.on(s, listener)
  return {
    first,
    async during(work, say) {
      abandon = say
      try {
        return await work
      } finally {
        abandon = undefined
      }
    },
    release() {
      for (const s of STOP_SIGNALS) process.off(s, listener)
    },
  }
}
