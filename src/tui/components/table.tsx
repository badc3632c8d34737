/**
 * A table laid out with Box rows (ink-table does not work with Ink 6): header, rows, selection.
 * Its columns share the screen's width as linkctl's tables do (src/format/columns.ts): ids,
 * codes, times and figures whole; titles, names and URLs (`fit: 'flex'`) cut with an ellipsis.
 */
import { Box } from 'ink'
import { Text } from './text.js'
import { truncate } from '../../format/cells.js'
import { fitColumns } from '../../format/columns.js'
import { visible } from '../../format/visible.js'

export interface TableColumn<T> {
  header: string
  /**
   * The least a column shown whole is given (it keeps its place while rows change); wider when a
   * value is. A flex column is as wide as its widest value, and gives way first.
   */
  width?: number
  value(row: T): string | number | null | undefined
  align?: 'right'
  colour?(row: T): string | undefined
  /** Long text that gives way (cut with an ellipsis); without it the column is shown whole. */
  fit?: 'flex'
  /** Left out when the row does not fit otherwise, the highest first (before an id is cut). */
  drop?: number
}

/** One space between columns: a terminal of 80 columns has none to spare. */
const GAP = 1

const text = (v: string | number | null | undefined) => String(v ?? '')
const length = (s: string) => [...visible(s)].length

/** Which columns of `rows` to show and how wide, within `total` columns (src/format/columns.ts's rules). */
export function columnWidths<T>(
  columns: readonly TableColumn<T>[],
  rows: readonly (T | undefined)[],
  total: number,
): { shown: number[]; widths: number[] } {
  return fitColumns(
    columns.map((c) => {
      const widest = Math.max(
        length(c.header),
        ...rows.map((r) => (r === undefined ? 0 : length(text(c.value(r))))),
      )
      return {
        natural: Math.max(c.width ?? 0, widest),
        header: length(c.header),
        fit: c.fit,
        drop: c.drop,
      }
    }),
    total,
    GAP,
  )
}

/** How many characters column `index` gets in the table of `rows` (0 when it is left out). */
export function columnWidth<T>(
  columns: readonly TableColumn<T>[],
  rows: readonly (T | undefined)[],
  total: number,
  index: number,
): number {
  const { shown, widths } = columnWidths(columns, rows, total)
  return widths[shown.indexOf(index)] ?? 0
}

function cell(text: string, width: number, align: 'right' | undefined): string {
  const cut = truncate(text, width)
  return align === 'right' ? cut.padStart(width) : cut.padEnd(width)
}

export function Table<T>(props: {
  columns: TableColumn<T>[]
  rows: readonly (T | undefined)[]
  /** The columns the table may use (the screen's width). */
  width: number
  /** Index in `rows` of the selected row (drawn inverse). */
  selected?: number
  color: boolean
  /** Text of a row not loaded yet. */
  loading?: string
}) {
  const { rows, selected, color } = props
  const { shown, widths } = columnWidths(props.columns, rows, props.width)
  const columns = shown.map((i) => props.columns[i]!)
  // Each row is one line cut at the screen's edge: a row wider than the terminal never wraps
  // onto the next line.
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {columns.map((c, j) => cell(c.header, widths[j]!, c.align)).join(' '.repeat(GAP))}
      </Text>
      {rows.map((row, i) =>
        row === undefined ? (
          <Text key={i} dimColor wrap="truncate">
            {props.loading ?? '…'}
          </Text>
        ) : (
          <Text key={i} wrap="truncate">
            {columns.map((c, j) => (
              <Text key={j} inverse={i === selected} color={color ? c.colour?.(row) : undefined}>
                {cell(text(c.value(row)), widths[j]!, c.align)}
                {j < columns.length - 1 ? ' '.repeat(GAP) : ''}
              </Text>
            ))}
          </Text>
        ),
      )}
    </Box>
  )
}
