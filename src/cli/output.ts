/**
 * Results go to stdout, diagnostics to stderr. `--json` prints JSON; otherwise a borderless
 * table (like gh) fitted to the terminal's width when stdout is a TTY, and tab-separated lines
 * (header row first, whole values) when it is piped. Timestamps: relative ("3 minutes ago") on a
 * terminal, ISO 8601 when piped and in --json.
 *
 * Every human output (tables, records, TSV, notes, warnings, errors) shows control characters
 * escaped (`visible`): a player id or a reason can hold ESC sequences that would retitle the
 * terminal, clear it or fake a hyperlink. --json prints values untouched (JSON escapes them).
 */
import { InvalidArgumentError, Option, type Command } from 'commander'
import { noColor, type Ctx } from '../session/context.js'
import { UsageError } from '../session/exit-codes.js'
import { visible } from '../format/visible.js'
import { countryName, maskKey, money, percent, relativeTime, truncate } from '../format/cells.js'
import { COLUMN_GAP, fitColumns, wrapWords } from '../format/columns.js'
import { plural, round } from '../contract/numbers.js'

// Cell formats the TUI shares (src/format), part of this module's API for the commands.
export {
  countryName,
  fitColumns,
  maskKey,
  money,
  percent,
  plural,
  relativeTime,
  round,
  truncate,
  visible,
  wrapWords,
}

export interface Column<T> {
  header: string
  value: (row: T) => string | number | boolean | null | undefined
  /** The name `--columns` knows it by; default: the header in lower case, dashes for spaces. */
  name?: string
  /**
   * How the column gives way when the table is wider than the terminal. Default: shown whole
   * (ids, codes, statuses, counts, times). `flex`: long text (destination, title, URL) that takes
   * the room left and is cut with an ellipsis, after droppable columns went. `wrap`: a list of
   * words (scopes) wrapped between words onto more lines.
   */
  fit?: 'flex' | 'wrap'
  /** Left out of a table too wide for the terminal, the highest first; without it, always shown. */
  drop?: number
  /** Shown by default only on a terminal or only when piped (`--columns` can name it either way). */
  only?: 'tty' | 'piped'
  /** SGR parameters of a cell (`32` green) on a colour terminal; colours never count in widths. */
  style?: (row: T) => string | undefined
}

export type Field = readonly [label: string, value: string | number | boolean | null | undefined]

export function printJson(ctx: Ctx, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

/** A diagnostic line on stderr. */
export function note(ctx: Ctx, message: string): void {
  ctx.stderr.write(`${visible(message)}\n`)
}

/** A line of human output on stdout (escaped like every human output). */
export function printLine(ctx: Ctx, text: string): void {
  ctx.stdout.write(`${visible(text)}\n`)
}

/**
 * A command's closing help text, for `addHelpText('after', …)`: each line a paragraph wrapped at
 * the help's width (the terminal's, 80 when piped), as commander wraps the options above it; a
 * line indented by two spaces (an example to copy) is kept as written.
 */
export function helpText(...lines: string[]): () => string {
  return () => {
    const width = (process.stdout.isTTY && process.stdout.columns) || 80
    return `\n${lines.flatMap((l) => (l.startsWith('  ') ? [l] : wrapWords(l, width))).join('\n')}`
  }
}

/** A warning on stderr, yellow when stderr is a colour terminal. */
export function warn(ctx: Ctx, message: string): void {
  const colour = ctx.stderr.isTTY === true && !noColor(ctx.env)
  const text = visible(message)
  ctx.stderr.write(colour ? `\x1b[33mwarning:\x1b[0m ${text}\n` : `warning: ${text}\n`)
}

/** A value as one line of visible text: tabs and line breaks become spaces, controls escaped. */
function cell(v: Field[1]): string {
  if (v === null || v === undefined) return ''
  return visible(String(v).replace(/[\t\r\n]+/g, ' '))
}

const widthOf = (s: string) => [...s].length

/** Width of the terminal: COLUMNS (tests, narrow panes) > the stream's columns > 80. */
export function terminalWidth(ctx: Ctx): number {
  const fromEnv = Number(ctx.env.COLUMNS)
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv
  return ctx.stdout.columns && ctx.stdout.columns > 0 ? ctx.stdout.columns : 80
}

const GAP = COLUMN_GAP

const bold = (ctx: Ctx, s: string) => (ctx.color ? `\x1b[1m${s}\x1b[22m` : s)
const styled = (ctx: Ctx, sgr: string | undefined, s: string) =>
  ctx.color && sgr ? `\x1b[${sgr}m${s}\x1b[0m` : s

/** The name `--columns` knows a column by. */
export function columnName(c: Pick<Column<never>, 'header' | 'name'>): string {
  return c.name ?? c.header.trim().toLowerCase().replace(/\s+/g, '-')
}

/** `--columns a,b,c` on a list command: which table columns to show, in that order. */
export function columnsOption(
  cmd: Command,
  columns: readonly Pick<Column<never>, 'header' | 'name'>[],
): Command {
  const names = columns.map(columnName)
  return cmd.addOption(
    new Option('--columns <names>', `table columns to show, in order (comma-separated): ${names.join(', ')}`)
      // Refused with --json by `action` (--json is the program's flag, so no conflict here sees it).
      .argParser((value: string) => parseColumns(value, names)),
  )
}

function parseColumns(value: string, names: readonly string[]): string[] {
  const asked = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '')
  const unknown = asked.filter((s) => !names.includes(s))
  if (asked.length === 0 || unknown.length > 0)
    throw new InvalidArgumentError(
      `${unknown.length > 0 ? `unknown column ${unknown.map((u) => `"${u}"`).join(', ')}` : 'no column named'}; valid columns: ${names.join(', ')}`,
    )
  return asked
}

/** The columns to print: those `--columns` named, in its order, else the default set for the output. */
function chosen<T>(ctx: Ctx, columns: readonly Column<T>[]): Column<T>[] {
  if (!ctx.columns) return columns.filter((c) => c.only === undefined || (c.only === 'tty') === ctx.isTTY)
  return ctx.columns.map((name) => {
    const c = columns.find((col) => columnName(col) === name)
    if (!c)
      throw new UsageError(`unknown column "${name}"; valid columns: ${columns.map(columnName).join(', ')}`)
    return c
  })
}

/** A column's natural width in printRows' terminal table: its header or widest cell. */
export function naturalWidth<T>(c: Column<T>, rows: readonly T[]): number {
  return Math.max(widthOf(c.header), ...rows.map((row) => widthOf(cell(c.value(row)) || '-')))
}

/** Rows as a table (TTY) or tab-separated lines with a header row (piped). */
export async function printRows<T>(ctx: Ctx, rows: readonly T[], all: readonly Column<T>[]): Promise<void> {
  const columns = chosen(ctx, all)
  if (!ctx.isTTY) {
    const lines = [columns.map((c) => c.header.trim())]
    for (const row of rows) lines.push(columns.map((c) => cell(c.value(row))))
    ctx.stdout.write(lines.map((l) => `${l.join('\t')}\n`).join(''))
    return
  }
  const body = rows.map((row) => columns.map((c) => cell(c.value(row)) || '-'))
  const { shown, widths } = fitColumns(
    columns.map((c) => ({
      natural: naturalWidth(c, rows),
      header: widthOf(c.header),
      cells: Math.max(0, ...rows.map((row) => widthOf(cell(c.value(row)) || '-'))),
      fit: c.fit,
      // Columns named by --columns are all shown (cut if need be): the user chose them.
      drop: ctx.columns ? undefined : c.drop,
    })),
    terminalWidth(ctx),
  )
  const last = shown.length - 1
  const pad = (text: string, k: number) =>
    k === last ? text : text + ' '.repeat(Math.max(0, (widths[k] ?? 0) - widthOf(text)))
  const out: string[] = [
    shown
      .map((i, k) => bold(ctx, pad(truncate(columns[i]?.header ?? '', widths[k] ?? 0), k)))
      .join(' '.repeat(GAP))
      .trimEnd(),
  ]
  rows.forEach((row, r) => {
    // Each shown cell as lines: a wrap column may take several, the others one.
    const cells = shown.map((i, k) => {
      const text = body[r]?.[i] ?? ''
      const width = widths[k] ?? 0
      return columns[i]?.fit === 'wrap' ? wrapWords(text, width) : [truncate(text, width)]
    })
    const height = Math.max(...cells.map((c) => c.length))
    for (let n = 0; n < height; n++) {
      const line = shown.map((i, k) => {
        const text = cells[k]?.[n] ?? ''
        return styled(ctx, text === '' ? undefined : columns[i]?.style?.(row), pad(text, k))
      })
      out.push(line.join(' '.repeat(GAP)).trimEnd())
    }
  })
  ctx.stdout.write(`${out.join('\n')}\n`)
}

/** One record: label and value lines (TTY, long values wrapped) or a header and a value row (piped). */
export async function printRecord(ctx: Ctx, fields: readonly Field[]): Promise<void> {
  if (!ctx.isTTY) {
    // Labels indented under another on a terminal ("  IAP" under REVENUE) are plain headers here.
    ctx.stdout.write(
      `${fields.map((f) => cell(f[0]).trim()).join('\t')}\n${fields.map((f) => cell(f[1])).join('\t')}\n`,
    )
    return
  }
  const labelWidth = Math.max(...fields.map((f) => widthOf(f[0])))
  const room = Math.max(10, terminalWidth(ctx) - labelWidth - GAP)
  const lines: string[] = []
  for (const [label, value] of fields) {
    const [first = '', ...rest] = wrapWords(cell(value) || '-', room)
    const pad = ' '.repeat(labelWidth - widthOf(label) + GAP)
    lines.push(`${bold(ctx, visible(label))}${pad}${first}`)
    for (const more of rest) lines.push(`${' '.repeat(labelWidth + GAP)}${more}`)
  }
  ctx.stdout.write(`${lines.join('\n')}\n`)
}

/** Prints `value` as JSON with --json, else runs the human printer. */
export async function emit(ctx: Ctx, value: unknown, human: () => Promise<void> | void): Promise<void> {
  if (ctx.json) printJson(ctx, value)
  else await human()
}

// Cell values: how timestamps, numbers and long text look. A terminal gets the short form; piped
// output keeps the full value so scripts can parse it.

/**
 * A timestamp as every command shows it: relative on a terminal ("3 minutes ago", "in 2 days"),
 * the ISO 8601 value when piped (and --json prints the API's value untouched). `to` is kept
 * for callers of the earlier absolute form; `now` is for tests.
 */
export function when(
  iso: string | null | undefined,
  tty: boolean,
  _to: 'minute' | 'second' = 'minute',
  now: number = Date.now(),
): string {
  if (!iso) return ''
  if (!tty) return iso
  const then = Date.parse(iso)
  return Number.isNaN(then) ? iso : relativeTime(then, now)
}

/** A UTC instant to the minute, for labels that must stay absolute (time-series buckets). */
export function utcMinute(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
}

/** Long text cut to `max` characters (with an ellipsis) on a terminal, whole when piped. */
export function clip(s: string | null | undefined, max: number, tty: boolean): string {
  if (!s) return ''
  return tty && s.length > max ? `${s.slice(0, max - 1)}…` : s
}

/** A range of UTC days (or instants) as every command shows it: `2026-11-01 to 2026-11-24`. */
export function dateRange(start: string, end: string): string {
  return `${start} to ${end}`
}
