/**
 * Creating a key: its name, then the scope picker (a preset fills the ticks, Space ticks one
 * scope), Enter creates it; the key's value is then shown once, with a copy hint.
 */
import { Box } from 'ink'
import { Text } from '../components/text.js'
import { useRef, useState } from 'react'
import type { ApiKey, ApiKeyWithSecret } from '../../contract/keys.js'
import { PRESET_NAMES, PRESETS, SCOPES } from '../../contract/scopes.js'
import { countryName } from '../../format/cells.js'
import { validationLines } from '../api.js'
import { editText, Field } from '../components/field.js'
import { tint, useTui } from '../context.js'
import { useCapture, useKeys } from '../hooks/use-keys.js'
import { useCursor } from '../hooks/use-list-keys.js'
import { usePoll } from '../hooks/use-poll.js'
import { plural } from '../../contract/numbers.js'

type Row = { preset: (typeof PRESET_NAMES)[number] } | { scope: string }
const ROWS: Row[] = [...PRESET_NAMES.map((preset) => ({ preset })), ...SCOPES.map((scope) => ({ scope }))]

export function KeyCreate(props: {
  active: boolean
  height: number
  done(created: ApiKeyWithSecret | null): void
}) {
  const env = useTui()
  const [step, setStep] = useState<'name' | 'scopes'>('name')
  const [name, setName] = useState('')
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set(PRESETS['read-only']))
  const [errors, setErrors] = useState<string[]>([])
  const busy = useRef(false)
  useCapture()
  const rows = Math.max(3, props.height - 6)
  const pos = useCursor(ROWS.length, rows)

  const create = () => {
    if (busy.current) return
    busy.current = true
    env.client.keys
      .create({ name: name.trim(), permissions: SCOPES.filter((s) => ticked.has(s)) })
      .then((created) => props.done(created))
      .catch((err: unknown) => setErrors(validationLines(err)))
      .finally(() => (busy.current = false))
  }

  useKeys((input, key) => {
    if (key.escape) return props.done(null)
    if (step === 'name') {
      if (key.return) return setStep('scopes')
      setName((n) => editText(n, input, key) ?? n)
      return
    }
    if (pos.move(input, key)) return
    if (input === ' ') {
      const row = ROWS[pos.cursor]
      if (!row) return
      if ('preset' in row) return setTicked(new Set(PRESETS[row.preset]))
      setTicked((t) => {
        const next = new Set(t)
        if (next.has(row.scope)) next.delete(row.scope)
        else next.add(row.scope)
        return next
      })
      return
    }
    if (key.return) create()
  }, props.active)

  const visible = ROWS.slice(pos.top, pos.top + rows)
  return (
    <Box flexDirection="column">
      <Text bold>New API key</Text>
      <Field label="Name" value={name} focused={step === 'name'} />
      {step === 'name' ? (
        <Text dimColor>Enter: choose its scopes · Esc: cancel</Text>
      ) : (
        <>
          <Text
            dimColor
          >{`Space: tick a scope or apply a preset · Enter: create with ${plural(ticked.size, 'scope')} · Esc: cancel`}</Text>
          {visible.map((row, i) => {
            const at = pos.top + i === pos.cursor
            const text =
              'preset' in row
                ? `preset ${row.preset} (${plural(PRESETS[row.preset].length, 'scope')})`
                : `[${ticked.has(row.scope) ? 'x' : ' '}] ${row.scope}`
            return (
              <Text key={text} inverse={at}>
                {text}
              </Text>
            )
          })}
        </>
      )}
      {errors.map((line, i) => (
        <Text key={i} color={tint(env, 'red')}>
          {line}
        </Text>
      ))}
    </Box>
  )
}

/** The new key's value, shown once. */
export function NewKey(props: { created: ApiKeyWithSecret; active: boolean; close(): void }) {
  const env = useTui()
  useKeys(() => props.close(), props.active)
  return (
    <Box flexDirection="column">
      <Text
        bold
      >{`Key "${props.created.name}" created with ${plural(props.created.permissions.length, 'scope')}.`}</Text>
      <Text color={tint(env, 'green')}>{props.created.key}</Text>
      <Text color={tint(env, 'yellow')}>
        Copy it now (select it with the mouse; in tmux, copy mode): it is shown only this once.
      </Text>
      <Text dimColor>Any key: back to the list</Text>
    </Box>
  )
}

/** A key's latest requests (its activity log). */
export function KeyActivityView(props: { apiKey: ApiKey; active: boolean; close(): void }) {
  const env = useTui()
  const poll = usePoll(
    `activity ${props.apiKey.id}`,
    () => env.client.keys.activity(props.apiKey.id, { limit: 20 }),
    [props.apiKey.id],
  )
  useKeys((input, key) => {
    if (key.escape || key.leftArrow || input === 'h') props.close()
  }, props.active)
  const rows = poll.data?.data ?? []
  return (
    <Box flexDirection="column">
      <Text
        bold
      >{`Activity of ${props.apiKey.name} (${props.apiKey.preview}) · ${poll.data?.total ?? 0} requests kept · Esc back`}</Text>
      {poll.data && rows.length === 0 ? <Text dimColor>no requests yet</Text> : null}
      {rows.map((a) => (
        <Text key={a.id} wrap="truncate" color={a.statusCode >= 400 ? tint(env, 'red') : undefined}>
          {`${a.timestamp.slice(5, 19).replace('T', ' ')} ${a.method.padEnd(6)} ${String(a.statusCode).padEnd(4)}${`${a.responseTimeMs} ms`.padStart(9)}  ${(a.ip ?? '').padEnd(15)} ${countryName(a.country).padEnd(8)}${a.endpoint}${a.error ? ` (${a.error})` : ''}`}
        </Text>
      ))}
    </Box>
  )
}
