/** A yes/no question on one line: `y` runs the action, any other key cancels. */
import { useCapture, useKeys } from '../hooks/use-keys.js'
import { Text } from './text.js'
import { useState } from 'react'
import { tint, useTui } from '../context.js'

export interface Confirmation {
  question: string
  run(): Promise<void>
}

export function Confirm(props: { ask: Confirmation; active: boolean; done(): void }) {
  const env = useTui()
  const [busy, setBusy] = useState(false)
  useCapture()
  useKeys((input) => {
    if (busy) return
    if (input === 'y' || input === 'Y') {
      setBusy(true)
      props.ask
        .run()
        .catch((err: unknown) => env.say(`failed: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => props.done())
      return
    }
    env.say('cancelled')
    props.done()
  }, props.active)
  return <Text color={tint(env, 'yellow')}>{busy ? 'working…' : `${props.ask.question} [y/N]`}</Text>
}
