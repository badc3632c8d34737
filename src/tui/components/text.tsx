/**
 * Ink's Text with every string child made visible (control characters shown as `\xNN`): the TUI
 * shows data anyone with an SDK key can set (player ids, reasons), and an escape sequence in it
 * must print as text, never retitle or clear the terminal. Screens import Text from here.
 */
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
 * from the qrcode package). Never for data: that goes through Text.
 */
export function Drawing({ children }: { children: string }): ReactNode {
  return <InkText>{children}</InkText>
}
