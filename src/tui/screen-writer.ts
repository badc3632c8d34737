/**
 * Between Ink and the terminal: Ink renders each frame whole into a stand-in stdout, and only the
 * changed lines are written, each at its row, in one synchronized update (DEC 2026). Why not Ink's
 * own modes: docs/decisions/tui-rendering.md.
 */
import { EventEmitter } from 'node:events'

const ESC = '\x1b['
/** Begin / end synchronized update (DEC private mode 2026). */
export const BEGIN_SYNC = `${ESC}?2026h`
export const END_SYNC = `${ESC}?2026l`
/**
 * Autowrap off (DECAWM) / on again (when the TUI ends). Off, a line wider than the terminal is
 * clipped at its edge instead of running onto the next row, so each row holds exactly the line
 * written to it: after a resize to fewer columns Ink renders once more at the old width before
 * the app lays out for the new one, and the rows below its wide lines stay as the writer knows them.
 */
export const AUTOWRAP_OFF = `${ESC}?7l`
export const AUTOWRAP_ON = `${ESC}?7h`
/** Before a whole frame: autowrap off, then the screen cleared. */
const WHOLE = `${AUTOWRAP_OFF}${ESC}H${ESC}2J`

/** Moves to `row` (0-based), column 1, and erases that line. */
const lineAt = (row: number) => `${ESC}${row + 1};1H${ESC}2K`

export interface Terminal {
  write(data: string): unknown
  readonly rows?: number | undefined
}

/**
 * Keeps the lines on the screen and writes the difference to the next frame. Lines are compared
 * as the strings Ink rendered (colour codes included), so a change of colour alone is redrawn and
 * wide characters need no measuring: every changed line is rewritten from its first column. The
 * line is erased before it is written, not after: erasing to the end of the line after a line as
 * wide as the terminal would erase its last character on terminals that keep the cursor there.
 */
export class ScreenWriter {
  /** The lines on the screen; null: unknown (first frame, resize, redraw), so all are written. */
  private shown: string[] | null = null
  private last = ''

  constructor(private readonly terminal: Terminal) {}

  /** Writes `frame` (lines separated by \n): only what differs from the lines on the screen. */
  frame(frame: string): void {
    this.last = frame
    const rows = this.terminal.rows && this.terminal.rows > 0 ? this.terminal.rows : Infinity
    const lines = frame.split('\n').slice(0, rows)
    const shown = this.shown
    let update = shown === null ? WHOLE : ''
    for (const [row, line] of lines.entries()) {
      if (shown === null ? line === '' : line === shown[row]) continue
      update += lineAt(row) + line
    }
    // A shorter frame: the lines left below it are erased.
    for (let row = lines.length; row < (shown?.length ?? 0); row++) update += lineAt(row)
    this.shown = lines
    if (update !== '') this.terminal.write(BEGIN_SYNC + update + END_SYNC)
  }

  /** The terminal's content is unknown (a resize): the next frame is written whole. */
  invalidate(): void {
    this.shown = null
  }

  /** Writes the last frame again, whole (Ctrl-L: whatever else wrote on the screen is gone). */
  redraw(): void {
    this.invalidate()
    this.frame(this.last)
  }
}

/**
 * The stdout Ink is given: it reports the terminal's size and resizes, and hands each frame Ink
 * writes to the writer. On a resize the writer forgets the screen before Ink renders for the new
 * size, so that frame is written whole. `detach` stops both (the terminal is being restored).
 */
export function frameStdout(
  terminal: NodeJS.WriteStream,
  writer: ScreenWriter,
): { stdout: NodeJS.WriteStream; detach(): void } {
  const stand = new EventEmitter() as EventEmitter & {
    isTTY: boolean
    columns: number
    rows: number
    write(data: string, callback?: () => void): boolean
  }
  stand.isTTY = true
  Object.defineProperty(stand, 'columns', { get: () => terminal.columns })
  Object.defineProperty(stand, 'rows', { get: () => terminal.rows })
  let attached = true
  stand.write = (data: string, callback?: () => void) => {
    if (attached && data !== '') writer.frame(data)
    callback?.()
    return true
  }
  const onResize = () => {
    writer.invalidate()
    stand.emit('resize')
  }
  terminal.on('resize', onResize)
  return {
    stdout: stand as unknown as NodeJS.WriteStream,
    detach: () => {
      attached = false
      terminal.off('resize', onResize)
    },
  }
}
