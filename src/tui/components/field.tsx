/** A text field drawn with a cursor block, in a few lines at most; editing is done by `editText`. */
import { Box, useStdout, type Key } from 'ink'
import { visible } from '../../format/visible.js'
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
  /** Lines the value may take (default 1): beyond, its start is cut (typing goes at its end). */
  lines?: number
}) {
  const { stdout } = useStdout()
  const columns = props.width ?? (stdout.columns || 80)
  const shown = props.secret ? '•'.repeat(props.value.length) : props.value
  const head = `${props.focused ? '›' : ' '} ${props.label}: `
  // The value beside the label, or under it when the label leaves it less than a third of the
  // line; in lines of the room left (one column kept for the cursor), at most `lines`: a longer
  // value shows its end, its start cut with …. Never more lines: the frame must fit the
  // terminal's height.
  const under = columns - [...head].length < columns / 3
  const indent = under ? 4 : [...head].length
  const room = Math.max(8, columns - indent - 1)
  const lines = valueLines(visible(shown), room, Math.max(1, props.lines ?? 1))
  const cursor = props.focused ? <Text inverse> </Text> : null
  const body = (
    <Box flexDirection="column" marginLeft={under ? indent : 0}>
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate">
          {line}
          {i === lines.length - 1 ? cursor : null}
        </Text>
      ))}
    </Box>
  )
  return under ? (
    <Box flexDirection="column">
      <Text bold={props.focused} wrap="truncate">
        {head}
      </Text>
      {body}
    </Box>
  ) : (
    <Box>
      <Box flexShrink={0}>
        <Text bold={props.focused}>{head}</Text>
      </Box>
      {body}
    </Box>
  )
}

/** `text` in lines of `room` characters, at most `max` of them: the end kept, the start cut with …. */
export function valueLines(text: string, room: number, max: number): string[] {
  let chars = [...text]
  if (chars.length > room * max) chars = ['…', ...chars.slice(chars.length - (room * max - 1))]
  const lines: string[] = []
  for (let i = 0; i < chars.length; i += room) lines.push(chars.slice(i, i + room).join(''))
  return lines.length > 0 ? lines : ['']
}
