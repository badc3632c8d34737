/** The moves of a list: ↑/↓ and j/k, g/G to the ends, PgUp/PgDn (and Ctrl-U/Ctrl-D) by a screen. */
import type { Key } from 'ink'
import { useLayoutEffect, useRef, useState } from 'react'

export const LIST_KEYS = [
  { keys: '↑/↓ or k/j', does: 'move' },
  { keys: 'g / G', does: 'first / last' },
  { keys: 'PgUp/PgDn, Ctrl-U/D', does: 'a screen up / down' },
]

/** The new cursor after a key, or null when the key is not a move. */
export function moveCursor(
  cursor: number,
  count: number,
  pageRows: number,
  input: string,
  key: Key,
): number | null {
  const last = Math.max(0, count - 1)
  let next: number
  if (key.upArrow || input === 'k') next = cursor - 1
  else if (key.downArrow || input === 'j') next = cursor + 1
  else if (input === 'g' || key.home) next = 0
  else if (input === 'G' || key.end) next = last
  else if (key.pageUp || (key.ctrl && input === 'u')) next = cursor - pageRows
  else if (key.pageDown || (key.ctrl && input === 'd')) next = cursor + pageRows
  else return null
  return Math.max(0, Math.min(last, next))
}

/** The first visible row, moved just enough to keep the cursor in view. */
export function scrollTop(top: number, cursor: number, rows: number): number {
  if (cursor < top) return cursor
  if (cursor >= top + rows) return cursor - rows + 1
  return top
}

export interface Cursor {
  cursor: number
  top: number
  /** Applies a move key; false when the key is not a move. */
  move(input: string, key: Key): boolean
  /** Back to the first row. */
  reset(): void
  /** To row `index` (its row moved: a re-sorted list), scrolled into view. */
  to(index: number): void
}

/** The selected row and the first visible one of a list of `count` rows shown `rows` at a time. */
export function useCursor(count: number, rows: number): Cursor {
  // One state, changed by functional updates: keys can come faster than renders.
  const [pos, setPos] = useState({ cursor: 0, top: 0 })
  const cursor = Math.min(pos.cursor, Math.max(0, count - 1))
  return {
    cursor,
    top: Math.min(pos.top, cursor),
    move(input, key) {
      if (moveCursor(cursor, count, rows, input, key) === null) return false
      setPos((p) => {
        const next =
          moveCursor(Math.min(p.cursor, Math.max(0, count - 1)), count, rows, input, key) ?? p.cursor
        return { cursor: next, top: scrollTop(p.top, next, rows) }
      })
      return true
    },
    reset: () => setPos({ cursor: 0, top: 0 }),
    to: (index) => setPos((p) => ({ cursor: index, top: scrollTop(p.top, index, rows) })),
  }
}

/** The id of a listed resource: what useFollowingCursor follows. */
export const byId = (item: { id: string }): string => item.id

/** Rows a cursor follows an item through: an array, or a paged list's (use-paged-list.ts). */
export interface FollowedRows<T> {
  count: number
  /** The row at an index; undefined while its page loads. */
  rowAt(index: number): T | undefined
  /** The index of the first row at hand that satisfies `ok`, or -1. */
  findIndex(ok: (item: T) => boolean): number
  /** Rows are on their way (a page loading): an item not found may be on one of them. */
  busy?: boolean
}

const arrayRows = <T>(items: readonly T[]): FollowedRows<T> => ({
  count: items.length,
  rowAt: (index) => items[index],
  findIndex: (ok) => items.findIndex(ok),
})

/**
 * useCursor over `items` that stays on the selected item (`idOf`) when a refresh moves its row: a
 * new item listed above it (a live feed, a teammate's webhook or link), a re-sort (a rule's
 * priority). Keys then act on the item the user chose, not on whatever took its row. A move key,
 * `to` and `reset` let go of it; an item that is gone leaves the cursor on its row (once no page
 * that may hold it is loading).
 */
export function useFollowingCursor<T>(
  items: readonly T[] | FollowedRows<T>,
  idOf: (item: T) => string,
  rows: number,
): Cursor {
  const list = Array.isArray(items) ? arrayRows<T>(items) : (items as FollowedRows<T>)
  const pos = useCursor(list.count, rows)
  const followed = useRef<string | null>(null)
  const at = followed.current === null ? -1 : list.findIndex((item) => idOf(item) === followed.current)
  const cursor = at >= 0 ? at : pos.cursor
  useLayoutEffect(() => {
    if (cursor !== pos.cursor) pos.to(cursor)
    // Not found while rows are loading: kept until they are in (a page still on its way, a reload).
    if (at < 0 && followed.current !== null && list.busy) return
    const item = list.rowAt(cursor)
    if (item !== undefined) followed.current = idOf(item)
    else if (cursor >= list.count) followed.current = null
  })
  return {
    cursor,
    top: scrollTop(pos.top, cursor, rows),
    move(input, key) {
      if (!pos.move(input, key)) return false
      followed.current = null
      return true
    },
    reset() {
      followed.current = null
      pos.reset()
    },
    to(index) {
      followed.current = null
      pos.to(index)
    },
  }
}
