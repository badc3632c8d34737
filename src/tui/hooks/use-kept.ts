/**
 * State a screen keeps while another tab is shown: a screen unmounts when the user switches tabs,
 * so what it has gathered (Home's events feed, the deletions GDPR follows) lives in the app's
 * store (`TuiEnv.kept`) under a name, and is there again when the screen comes back.
 */
import { useCallback, useState } from 'react'
import { useTui } from '../context.js'

/** A box kept under `name` for the life of the app (like useRef, across unmounts). */
export function useKeptRef<T>(name: string, initial: T): { current: T } {
  const { kept } = useTui()
  let box = kept.get(name) as { current: T } | undefined
  if (!box) {
    box = { current: initial }
    kept.set(name, box)
  }
  return box
}

/** Like useState, kept under `name` across unmounts. Updates read the latest value (keys can come faster than renders). */
export function useKept<T>(name: string, initial: T): [T, (next: T | ((previous: T) => T)) => void] {
  const box = useKeptRef(name, initial)
  const [value, setValue] = useState(box.current)
  const set = useCallback(
    (next: T | ((previous: T) => T)) => {
      box.current = typeof next === 'function' ? (next as (previous: T) => T)(box.current) : next
      setValue(box.current)
    },
    [box],
  )
  return [value, set]
}
