/**
 * How a table's columns share the terminal's width, for linkctl's tables (src/cli/output.ts) and
 * the TUI's (src/tui/components/table.tsx) alike: ids, codes, times and figures are shown whole;
 * long text gives way (cut with an ellipsis, or wrapped between words).
 */

const widthOf = (s: string) => [...s].length

/** Spaces between two columns of linkctl's tables. */
export const COLUMN_GAP = 2

/** A column is never narrowed below this (or its natural width, when smaller). */
const MIN_COLUMN = 6
/** Room a flex column (URL, title) keeps before droppable columns are left out. */
const FLEX_MIN = 30
/** The same for a wrap column (lists of short words). */
const WRAP_MIN = 16

export interface ColumnFit {
  /** Widest value or header. */
  natural: number
  header: number
  /** Widest value alone, when known: a header wider than it is cut before any value is. */
  cells?: number | undefined
  fit?: 'flex' | 'wrap' | undefined
  drop?: number | undefined
}

/**
 * Which columns to show and how wide, to fit `total` characters with `gap` spaces between them.
 * While the columns (flex ones at FLEX_MIN, wrap ones at WRAP_MIN) do not fit, the droppable
 * column with the highest `drop` is left out. Then flex and wrap columns give way (widest first)
 * down to those floors, then to MIN_COLUMN; then headers wider than their values (cut, the values
 * whole); only then columns shown whole, down to their header's width and then MIN_COLUMN (a table
 * of such columns only, on a very narrow terminal).
 */
export function fitColumns(
  cols: readonly ColumnFit[],
  total: number,
  gap = COLUMN_GAP,
): { shown: number[]; widths: number[] } {
  const flexible = (c: ColumnFit) => c.fit !== undefined
  const floor = (c: ColumnFit) =>
    flexible(c) ? Math.min(c.natural, Math.max(c.header, c.fit === 'wrap' ? WRAP_MIN : FLEX_MIN)) : c.natural
  let shown = cols.map((_, i) => i)
  const need = (idx: number[], size: (c: ColumnFit) => number) =>
    idx.reduce((a, i) => a + size(cols[i] as ColumnFit), 0) + gap * Math.max(0, idx.length - 1)
  while (need(shown, floor) > total) {
    let out = -1
    for (const i of shown) {
      const d = cols[i]?.drop
      if (d !== undefined && (out < 0 || d >= (cols[out]?.drop ?? 0))) out = i
    }
    if (out < 0) break
    shown = shown.filter((i) => i !== out)
  }
  const widths = shown.map((i) => cols[i]?.natural ?? 0)
  let over = need(shown, (c) => c.natural) - total
  const stages: [(c: ColumnFit) => boolean, (c: ColumnFit) => number][] = [
    [flexible, (c) => Math.max(MIN_COLUMN, floor(c))],
    [flexible, () => MIN_COLUMN],
    [(c) => !flexible(c), (c) => Math.max(MIN_COLUMN, c.cells ?? c.natural)],
    [(c) => !flexible(c), (c) => Math.max(MIN_COLUMN, c.header)],
    [(c) => !flexible(c), () => MIN_COLUMN],
  ]
  for (const [eligible, limit] of stages) {
    while (over > 0) {
      let widest = -1
      shown.forEach((i, k) => {
        const c = cols[i] as ColumnFit
        if (!eligible(c) || (widths[k] ?? 0) <= limit(c)) return
        if (widest < 0 || (widths[k] ?? 0) > (widths[widest] ?? 0)) widest = k
      })
      if (widest < 0) break
      widths[widest] = (widths[widest] ?? 0) - 1
      over--
    }
  }
  return { shown, widths }
}

/** `text` in lines of at most `width` characters, broken between words (a longer word is split). */
export function wrapWords(text: string, width: number): string[] {
  if (width <= 0 || widthOf(text) <= width) return [text]
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`
    if (widthOf(candidate) <= width) {
      line = candidate
      continue
    }
    if (line !== '') lines.push(line)
    let rest = [...word]
    while (rest.length > width) {
      lines.push(rest.slice(0, width).join(''))
      rest = rest.slice(width)
    }
    line = rest.join('')
  }
  if (line !== '' || lines.length === 0) lines.push(line)
  return lines
}
