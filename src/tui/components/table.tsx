/** A table laid out with Box rows (ink-table does not work with Ink 6): header, rows, selection. */
import { Box } from 'ink'
import { Text } from './text.js'
import { truncate } from '../../format/cells.js'

export interface TableColumn<T> {
  header: string
  width: number
  value(row: T): string | number | null | undefined
  align?: 'right'
  colour?(row: T): string | undefined
}

function cell(text: string, width: number, align: 'right' | undefined): string {
  const cut = truncate(text, width)
  return align === 'right' ? cut.padStart(width) : cut.padEnd(width)
}

export function Table<T>(props: {
  columns: TableColumn<T>[]
  rows: readonly (T | undefined)[]
  /** Index in `rows` of the selected row (drawn inverse). */
  selected?: number
  color: boolean
  /** Text of a row not loaded yet. */
  loading?: string
}) {
  const { columns, rows, selected, color } = props
  // Each row is one line cut at the screen's edge: a row wider than the terminal never wraps
  // onto the next line.
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {columns.map((c) => cell(c.header, c.width, c.align)).join(' ')}
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
                {cell(String(c.value(row) ?? ''), c.width, c.align)}
                {j < columns.length - 1 ? ' ' : ''}
              </Text>
            ))}
          </Text>
        ),
      )}
    </Box>
  )
}
