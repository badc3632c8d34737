/**
 * Ink's Text with every string child made visible (control characters shown as `\xNN`): the TUI
 * shows data anyone with an SDK key can set (player ids, reasons), and an escape sequence in it
 * must print as text, never retitle or clear the terminal. Screens import Text from here.
 */
import { stripVTControlCharacters } from 'node:util'
import { Children, isValidElement, type ReactNode } from 'react'
import { Text as InkText, type TextProps } from 'ink'
import { visible } from '../../format/visible.js'

const safe = (node: ReactNode): ReactNode =>
  typeof node === 'string' ? visible(node) : Array.isArray(node) ? Children.map(node, safe) : node

export function Text(props: TextProps): ReactNode {
  const { children, ...rest } = props
  return <InkText {...rest}>{isValidElement(children) ? children : safe(children)}</InkText>
}

/**
 * A drawing made by linkctl's own code whose colour codes must reach the terminal (the QR code
 * from the qrcode package), in at most `rows` lines: one taller is not drawn (a cut QR code does
 * not scan, and Ink would lay the lines around it over each other), `tooTall` is said instead.
 * Lines that show nothing (colour codes only) at its end are dropped. Never for data: that goes
 * through Text.
 */
export function Drawing(props: { children: string; rows: number; tooTall: string }): ReactNode {
  const lines = props.children.split('\n')
  while (lines.length > 0 && stripVTControlCharacters(lines.at(-1)!).trim() === '') lines.pop()
  if (lines.length > props.rows)
    return (
      <Text wrap="wrap">{`${props.tooTall}: the drawing needs ${lines.length} rows, ${Math.max(0, props.rows)} are free here; a taller terminal shows it.`}</Text>
    )
  return <InkText>{lines.join('\n')}</InkText>
}
