/**
 * A one-line progress bar on stderr for long work (import, export). Drawn only when enabled
 * (stderr is a terminal); otherwise `update` does nothing and `log` just writes its line. Lines
 * logged while the bar is shown are written above it. No dependency: `\r` and erase-line.
 */
import type { Writer } from '../session/context.js'

export interface Progress {
  /** `done` of `total` (unknown total: a counter without a bar); `suffix` follows the figures. */
  update(done: number, total?: number, suffix?: string): void
  /** A diagnostic line (e.g. a failed row), printed above the bar. */
  log(line: string): void
  /** Erases the bar. */
  finish(): void
}

export interface ProgressOptions {
  label: string
  enabled: boolean
  /** Minimum time between two redraws, ms (default 80). */
  intervalMs?: number
  now?: () => number
}

const CLEAR = '\r\x1b[K'

/** `[#####-----]` of `width` cells (at least 1) for done/total. */
export function renderBar(done: number, total: number, width: number): string {
  const w = Math.max(1, width)
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0
  const full = Math.round(ratio * w)
  return `[${'#'.repeat(full)}${'-'.repeat(w - full)}]`
}

/** The text of the bar line for a terminal `columns` wide. */
export function progressLine(
  label: string,
  done: number,
  total: number | undefined,
  suffix: string,
  columns: number,
): string {
  const tail = suffix ? ` ${suffix}` : ''
  if (total === undefined || total <= 0) return `${label} ${done}${tail}`.slice(0, columns - 1)
  const pct = `${String(Math.floor(Math.min(1, done / total) * 100)).padStart(3)}%`
  const text = ` ${pct} ${done}/${total}${tail}`
  const room = columns - 1 - label.length - 1 - text.length - 2
  if (room < 5) return `${label}${text}`.slice(0, columns - 1)
  return `${label} ${renderBar(done, total, Math.min(30, room))}${text}`
}

export function createProgress(stream: Writer, opts: ProgressOptions): Progress {
  if (!opts.enabled) {
    return { update: () => undefined, log: (line) => void stream.write(`${line}\n`), finish: () => undefined }
  }
  const now = opts.now ?? Date.now
  const interval = opts.intervalMs ?? 80
  let last: { done: number; total: number | undefined; suffix: string } | undefined
  let drawnAt = -Infinity
  let shown = false
  const draw = () => {
    if (!last) return
    const columns = stream.columns && stream.columns > 20 ? stream.columns : 80
    stream.write(`${CLEAR}${progressLine(opts.label, last.done, last.total, last.suffix, columns)}`)
    shown = true
    drawnAt = now()
  }
  return {
    update(done, total, suffix = '') {
      last = { done, total, suffix }
      const complete = total !== undefined && done >= total
      if (complete || now() - drawnAt >= interval) draw()
    },
    log(line) {
      stream.write(shown ? `${CLEAR}${line}\n` : `${line}\n`)
      if (shown) draw()
    },
    finish() {
      if (shown) stream.write(CLEAR)
      shown = false
    },
  }
}
