/**
 * Results go to stdout, diagnostics to stderr. `--json` prints JSON; otherwise a borderless
 * table (like gh) cut to the terminal's width when stdout is a TTY, and tab-separated lines
 * (header row first, whole values) when it is piped. Timestamps: relative ("3 minutes ago") on a
 * terminal, ISO 8601 when piped and in --json.
 */
import { noColor, type Ctx } from './context.js'

export interface Column<T> {
  header: string
  value: (row: T) => string | number | boolean | null | undefined
  /** On a narrow terminal, cut this column only when the others cannot give more room (ids). */
  keep?: boolean
}

export type Field = readonly [label: string, value: string | number | boolean | null | undefined]

export function printJson(ctx: Ctx, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

/** A diagnostic line on stderr. */
export function note(ctx: Ctx, message: string): void {
  ctx.stderr.write(`${message}\n`)
}

/** A warning on stderr, yellow when stderr is a colour terminal. */
export function warn(ctx: Ctx, message: string): void {
  const colour = ctx.stderr.isTTY === true && !noColor(ctx.env)
  ctx.stderr.write(colour ? `\x1b[33mwarning:\x1b[0m ${message}\n` : `warning: ${message}\n`)
}

function cell(v: Field[1]): string {
  if (v === null || v === undefined) return ''
  return String(v).replace(/\t/g, ' ')
}

/** One TSV field: tabs and line breaks would break the format, so they become spaces. */
function tsv(v: Field[1]): string {
  return cell(v).replace(/[\t\r\n]+/g, ' ')
}

/** Characters as a terminal shows them (code points; line breaks flattened). */
function flat(s: string): string {
  return s.replace(/[\r\n]+/g, ' ')
}
const widthOf = (s: string) => [...s].length

/** `s` cut to `width` characters, the last one an ellipsis when something was cut. */
export function truncate(s: string, width: number): string {
  const chars = [...s]
  if (chars.length <= width) return s
  return width <= 0 ? '' : `${chars.slice(0, width - 1).join('')}…`
}

/** Width of the terminal: COLUMNS (tests, narrow panes) > the stream's columns > 80. */
export function terminalWidth(ctx: Ctx): number {
  const fromEnv = Number(ctx.env.COLUMNS)
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv
  return ctx.stdout.columns && ctx.stdout.columns > 0 ? ctx.stdout.columns : 80
}

const GAP = 2
/** A column is never narrowed below this (or its natural width, when smaller). */
const MIN_COLUMN = 6

/**
 * Column widths that fit `total` characters with GAP spaces between columns: while too wide,
 * the widest column gives up one character, so short columns (statuses, counts) stay whole
 * and long ones (URLs, titles) are cut. Columns give way down to their header's width
 * (`floors`), then on a narrow terminal down to MIN_COLUMN; `keep` columns (ids) only when
 * no other column can.
 */
export function fitWidths(
  natural: readonly number[],
  total: number,
  keep: readonly boolean[] = [],
  floors: readonly number[] = [],
): number[] {
  const widths = [...natural]
  const room = total - GAP * Math.max(0, widths.length - 1)
  let used = widths.reduce((a, b) => a + b, 0)
  const widestOf = (kept: boolean, headerFloor: boolean) => {
    let widest = -1
    for (let i = 0; i < widths.length; i++) {
      const floor = headerFloor ? Math.max(MIN_COLUMN, floors[i] ?? 0) : MIN_COLUMN
      if ((keep[i] === true) !== kept || (widths[i] ?? 0) <= floor) continue
      if (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0)) widest = i
    }
    return widest
  }
  const order: [kept: boolean, headerFloor: boolean][] = [
    [false, true],
    [false, false],
    [true, true],
    [true, false],
  ]
  while (used > room) {
    const widest = order.map(([kept, floor]) => widestOf(kept, floor)).find((i) => i >= 0)
    if (widest === undefined) break
    widths[widest] = (widths[widest] ?? 0) - 1
    used--
  }
  return widths
}

const bold = (ctx: Ctx, s: string) => (ctx.color ? `\x1b[1m${s}\x1b[22m` : s)

/** Borderless table lines like gh's: headers first, columns GAP apart, cut to fit the terminal. */
function tableLines(
  ctx: Ctx,
  head: readonly string[],
  body: readonly string[][],
  keep: readonly boolean[],
): string[] {
  const natural = head.map((h, i) => Math.max(widthOf(h), ...body.map((r) => widthOf(r[i] ?? ''))))
  const widths = fitWidths(natural, terminalWidth(ctx), keep, head.map(widthOf))
  const line = (cells: readonly string[], header: boolean) =>
    cells
      .map((c, i) => {
        const width = widths[i] ?? 0
        const text = truncate(c, width)
        const padded = i === cells.length - 1 ? text : text + ' '.repeat(Math.max(0, width - widthOf(text)))
        return header ? bold(ctx, padded) : padded
      })
      .join(' '.repeat(GAP))
      .trimEnd()
  return [line(head, true), ...body.map((r) => line(r, false))]
}

/** Rows as a table (TTY) or tab-separated lines with a header row (piped). */
export async function printRows<T>(
  ctx: Ctx,
  rows: readonly T[],
  columns: readonly Column<T>[],
): Promise<void> {
  if (!ctx.isTTY) {
    const lines = [columns.map((c) => c.header.trim())]
    for (const row of rows) lines.push(columns.map((c) => tsv(c.value(row))))
    ctx.stdout.write(lines.map((l) => `${l.join('\t')}\n`).join(''))
    return
  }
  const body = rows.map((row) => columns.map((c) => flat(cell(c.value(row))) || '-'))
  const lines = tableLines(
    ctx,
    columns.map((c) => c.header),
    body,
    columns.map((c) => c.keep === true),
  )
  ctx.stdout.write(`${lines.join('\n')}\n`)
}

/** `text` in lines of at most `width` characters (long values of a record wrap, not cut). */
function wrap(text: string, width: number): string[] {
  const chars = [...text]
  if (width <= 0 || chars.length <= width) return [text]
  const lines: string[] = []
  for (let i = 0; i < chars.length; i += width) lines.push(chars.slice(i, i + width).join(''))
  return lines
}

/** One record: label and value lines (TTY, long values wrapped) or a header and a value row (piped). */
export async function printRecord(ctx: Ctx, fields: readonly Field[]): Promise<void> {
  if (!ctx.isTTY) {
    // Labels indented under another on a terminal ("  IAP" under REVENUE) are plain headers here.
    ctx.stdout.write(
      `${fields.map((f) => tsv(f[0]).trim()).join('\t')}\n${fields.map((f) => tsv(f[1])).join('\t')}\n`,
    )
    return
  }
  const labelWidth = Math.max(...fields.map((f) => widthOf(f[0])))
  const room = Math.max(10, terminalWidth(ctx) - labelWidth - GAP)
  const lines: string[] = []
  for (const [label, value] of fields) {
    const [first = '', ...rest] = wrap(flat(cell(value)) || '-', room)
    const pad = ' '.repeat(labelWidth - widthOf(label) + GAP)
    lines.push(`${bold(ctx, label)}${pad}${first}`)
    for (const more of rest) lines.push(`${' '.repeat(labelWidth + GAP)}${more}`)
  }
  ctx.stdout.write(`${lines.join('\n')}\n`)
}

/** Prints `value` as JSON with --json, else runs the human printer. */
export async function emit(ctx: Ctx, value: unknown, human: () => Promise<void> | void): Promise<void> {
  if (ctx.json) printJson(ctx, value)
  else await human()
}

/** Masked form of a key, as the daemon shows it: lk_••• and the last four characters. */
export function maskKey(key: string | undefined): string {
  if (!key) return ''
  return `lk_•••${key.slice(-4)}`
}

// Cell values: how timestamps, numbers and long text look. A terminal gets the short form; piped
// output keeps the full value so scripts can parse it.

const UNITS: readonly [name: string, ms: number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

/** `then` relative to `now`: "3 minutes ago", "in 2 days", "just now" (under a minute). */
export function relativeTime(then: number, now: number): string {
  const diff = then - now
  const size = Math.abs(diff)
  for (const [name, ms] of UNITS) {
    if (size < ms) continue
    const n = Math.floor(size / ms)
    const text = `${n} ${name}${n === 1 ? '' : 's'}`
    return diff < 0 ? `${text} ago` : `in ${text}`
  }
  return 'just now'
}

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

/** `n` rounded to `digits` decimals (a number, so piped output stays numeric). */
export function round(n: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

/** A percentage as text: `12.5%`; rounded to `digits` decimals when given. */
export function percent(n: number, digits?: number): string {
  return `${digits === undefined ? n : round(n, digits)}%`
}

/**
 * An amount of money with a fixed number of decimals (2 unless told), followed by its currency
 * code when the API names one (`12.30 USD`).
 */
export function money(n: number, decimals = 2, currency?: string): string {
  return currency ? `${n.toFixed(decimals)} ${currency}` : n.toFixed(decimals)
}
