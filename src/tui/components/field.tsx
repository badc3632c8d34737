/** A one-line text field drawn with a cursor block; editing is done by `editText`. */
import { Box, type Key } from 'ink'
import { Text } from './text.js'

/** The text after a key press in a field, or null when the key is not an edit. */
export function editText(value: string, input: string, key: Key): string | null {
  if (key.backspace || key.delete) return value.slice(0, -1)
  if (key.ctrl && input === 'u') return ''
  if (key.ctrl || key.meta || key.tab || key.return || key.escape) return null
  if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return null
  if (key.pageUp || key.pageDown || key.home || key.end) return null
  // Pasted text arrives as one input; control characters are dropped.
  const printable = [...input].filter((ch) => ch >= ' ' && ch !== '\u007f').join('')
  return printable === '' ? null : value + printable
}

export function Field(props: {
  label: string
  value: string
  focused: boolean
  width?: number
  secret?: boolean
}) {
  const shown = props.secret ? '•'.repeat(props.value.length) : props.value
  return (
    <Box>
      <Text bold={props.focused}>{`${props.focused ? '›' : ' '} ${props.label}: `}</Text>
      <Text>{shown}</Text>
      {props.focused ? <Text inverse> </Text> : null}
    </Box>
  )
}
