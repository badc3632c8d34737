/**
 * A small form: fields one per line, ↑/↓ or Tab between them, Enter on the last one or Ctrl+S on
 * any submits (long forms need not be walked to the end), Esc cancels. The API's validation messages are shown under it, as the API said them.
 */
import { useCapture, useKeys } from '../hooks/use-keys.js'
import { Box } from 'ink'
import { Text } from './text.js'
import { useRef, useState } from 'react'
import { validationLines } from '../api.js'
import { tint, useTui } from '../context.js'
import { editText, Field } from './field.js'

/**
 * Lines of the focused field's value (the others take one, their end shown) and of the API's
 * messages: a form of 14 fields with long values and a refusal still fits 80x24.
 */
const FOCUSED_LINES = 3
const ERROR_LINES = 3

export interface FormField {
  name: string
  label: string
  value?: string
  /** Shown as dots (a password): its text is never drawn. */
  secret?: boolean
}

export function Form(props: {
  title: string
  fields: FormField[]
  active: boolean
  submit(values: Record<string, string>): Promise<void>
  cancel(): void
}) {
  const env = useTui()
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(props.fields.map((f) => [f.name, f.value ?? ''])),
  )
  const [focus, setFocusState] = useState(0)
  // Keys can come faster than renders: the handler reads and writes these, the render shows them.
  const focusRef = useRef(0)
  const valuesRef = useRef(values)
  const setFocus = (next: (f: number) => number) => {
    focusRef.current = next(focusRef.current)
    setFocusState(focusRef.current)
  }
  const [errors, setErrors] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  useCapture()

  useKeys((input, key) => {
    if (busy) return
    if (key.escape) return props.cancel()
    const last = props.fields.length - 1
    if (key.upArrow || (key.tab && key.shift)) return setFocus((f) => Math.max(0, f - 1))
    if (key.downArrow || key.tab) return setFocus((f) => Math.min(last, f + 1))
    const focus = focusRef.current
    const save = key.ctrl && input === 's'
    if (key.return || save) {
      if (key.return && focus < last) return setFocus(() => focus + 1)
      setBusy(true)
      props
        .submit(valuesRef.current)
        .catch((err: unknown) => setErrors(validationLines(err)))
        .finally(() => setBusy(false))
      return
    }
    const name = props.fields[focus]?.name
    if (name === undefined) return
    const next = editText(valuesRef.current[name] ?? '', input, key)
    if (next === null) return
    valuesRef.current = { ...valuesRef.current, [name]: next }
    setValues(valuesRef.current)
  }, props.active)

  return (
    <Box flexDirection="column">
      <Text bold>{props.title}</Text>
      {props.fields.map((f, i) => (
        <Field
          key={f.name}
          label={f.label}
          value={values[f.name] ?? ''}
          focused={i === focus}
          secret={f.secret}
          lines={i === focus ? FOCUSED_LINES : 1}
        />
      ))}
      <Text dimColor>
        {busy ? 'saving…' : 'Enter: next field / save on the last · Ctrl+S: save · Esc: cancel'}
      </Text>
      {(errors.length > ERROR_LINES
        ? [...errors.slice(0, ERROR_LINES - 1), `(and ${errors.length - ERROR_LINES + 1} more problems)`]
        : errors
      ).map((line, i) => (
        <Text key={i} color={tint(env, 'red')}>
          {line}
        </Text>
      ))}
    </Box>
  )
}
