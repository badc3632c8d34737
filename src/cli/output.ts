/**
 * Results go to stdout, diagnostics to stderr. `--json` prints JSON; otherwise a table when
 * stdout is a TTY and tab-separated lines (header row first) when it is piped. cli-table3 is
 * loaded only when a table is actually drawn.
 */
import { noColor, type Ctx } from './context.js'

export interface Column<T> {
  header: string
  value: (row: T) => string | number | boolean | null | undefined
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

async function newTable(ctx: Ctx, head: string[] | undefined, colWidths?: number[]) {
  const { default: Table } = await import('cli-table3')
  // Colour is decided by ctx (TTY and NO_COLOR), not by cli-table3's own detection of the
  // process's stdout, so headers are made bold here.
  return new Table({
    ...(head ? { head: head.map((h) => (ctx.color ? `\x1b[1m${h}\x1b[22m` : h)) } : {}),
    ...(colWidths ? { colWidths } : {}),
    style: { head: [], border: [] },
    wordWrap: true,
  })
}

/** Rows as a table (TTY) or tab-separated lines with a header row (piped). */
export async function printRows<T>(
  ctx: Ctx,
  rows: readonly T[],
  columns: readonly Column<T>[],
): Promise<void> {
  if (!ctx.isTTY) {
    const lines = [columns.map((c) => c.header)]
    for (const row of rows) lines.push(columns.map((c) => tsv(c.value(row))))
    ctx.stdout.write(lines.map((l) => `${l.join('\t')}\n`).join(''))
    return
  }
  const table = await newTable(
    ctx,
    columns.map((c) => c.header),
  )
  for (const row of rows) table.push(columns.map((c) => cell(c.value(row)) || '-'))
  ctx.stdout.write(`${table.toString()}\n`)
}

/** One record: a two-column table (TTY) or a header row and a value row (piped). */
export async function printRecord(ctx: Ctx, fields: readonly Field[]): Promise<void> {
  if (!ctx.isTTY) {
    ctx.stdout.write(
      `${fields.map((f) => tsv(f[0])).join('\t')}\n${fields.map((f) => tsv(f[1])).join('\t')}\n`,
    )
    return
  }
  // Long values wrap within the terminal width (lists of scopes, for instance).
  const labelWidth = Math.max(...fields.map((f) => f[0].length)) + 2
  const valueWidth = Math.max(...fields.map((f) => cell(f[1]).length), 1) + 2
  const room = Math.max(20, (ctx.stdout.columns ?? 100) - labelWidth - 3)
  const table = await newTable(ctx, undefined, [labelWidth, Math.min(valueWidth, room)])
  for (const [label, value] of fields)
    table.push([ctx.color ? `\x1b[1m${label}\x1b[22m` : label, cell(value) || '-'])
  ctx.stdout.write(`${table.toString()}\n`)
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

/** An ISO timestamp shortened for terminals (UTC, to the minute or second); whole when piped. */
export function when(
  iso: string | null | undefined,
  tty: boolean,
  to: 'minute' | 'second' = 'minute',
): string {
  if (!iso) return ''
  if (!tty) return iso
  return `${iso.slice(0, 10)} ${iso.slice(11, to === 'minute' ? 16 : 19)}`
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

/** An amount of money with a fixed number of decimals (2 unless told). */
export function money(n: number, decimals = 2): string {
  return n.toFixed(decimals)
}
