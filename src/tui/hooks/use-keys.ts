/**
 * Keys for the components of the TUI. The app reads the keyboard once (Ink's useInput) and hands
 * each key to the components registered here, then applies its own global keys. Components
 * register in a layout effect, in the same commit as the frame that shows them: a key pressed
 * right after a confirmation or a form appears reaches it (Ink's own useInput subscribes in a
 * passive effect, which can run after the frame is on screen), and always the handler of the
 * latest render, never a stale one.
 */
import type { Key } from 'ink'
import { createContext, useContext, useLayoutEffect, useRef } from 'react'
import { useTui } from '../context.js'

export interface KeyHandler {
  handle(input: string, key: Key): void
  active: boolean
}

/** The Ctrl keys screens read (a page up / down in lists, clearing a field); other Ctrl keys are global. */
export const SCREEN_CTRL_KEYS: ReadonlySet<string> = new Set(['u', 'd'])

export type KeyRegistry = Set<{ current: KeyHandler }>

export const KeysContext = createContext<KeyRegistry | null>(null)

export function useKeys(handler: (input: string, key: Key) => void, isActive = true): void {
  const registry = useContext(KeysContext)
  const entry = useRef<KeyHandler>({ handle: handler, active: isActive })
  entry.current = { handle: handler, active: isActive }
  useLayoutEffect(() => {
    if (!registry) return
    registry.add(entry)
    return () => void registry.delete(entry)
  }, [registry])
}

/** Hands a key to every active registered handler, in the order they registered. */
export function dispatchKey(registry: KeyRegistry, input: string, key: Key): void {
  for (const entry of [...registry]) if (entry.current.active) entry.current.handle(input, key)
}

/**
 * While `on`, the component takes every key (a field, a confirmation): the global keys (q,
 * digits, Tab, ?) wait. Set in the frame's own commit, like the handlers.
 */
export function useCapture(on = true): void {
  const { capture } = useTui()
  useLayoutEffect(() => {
    if (!on) return
    capture(true)
    return () => capture(false)
  }, [capture, on])
}
