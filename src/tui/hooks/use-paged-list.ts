/**
 * A long list read page by page (virtualized): only the pages around the visible window are
 * fetched and kept (at most KEEP_PAGES), so 100k rows scroll with a handful of requests and
 * bounded memory. The visible pages are fetched again every refresh interval; a failed fetch
 * is reported on the status line and retried with backoff, or, when permanent (a refused key:
 * `Trouble.permanent`), not asked for again until the list is reloaded or shown anew.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { PageOf } from '../../contract/common.js'
import { retryDelayMs, troubleOf } from '../api.js'
import { useTui } from '../context.js'
import type { FollowedRows } from './use-list-keys.js'

export const PAGE_SIZE = 100
const KEEP_PAGES = 12

/** Also the rows a cursor follows its item through (useFollowingCursor). */
export interface PagedList<T> extends FollowedRows<T> {
  /** Rows in the list; undefined until the first page answered. */
  total: number | undefined
  /** `total`, 0 until it is known. */
  count: number
  /** The row at an index, or undefined while its page loads. */
  rowAt(index: number): T | undefined
  /** The index of the first row of the pages at hand that satisfies `ok`, or -1. */
  findIndex(ok: (item: T) => boolean): number
  /** A page is loading. */
  busy: boolean
  /** Shows rows [from, to): fetches the pages they are on. */
  show(from: number, to: number): void
  /** Forgets every page and loads again (after a create or delete). */
  reload(): void
  /** Pages requested so far (tests check that scrolling fetches only what it shows). */
  requested: number
}

export function usePagedList<T>(
  source: string,
  fetchPage: (page: number, limit: number) => Promise<PageOf<T>>,
  /** A change (e.g. the search text) starts the list over. */
  key: string,
): PagedList<T> {
  const { refreshMs, report, clock } = useTui()
  const pages = useRef(new Map<number, T[]>())
  const loading = useRef(new Set<number>())
  /** Pages whose fetch failed: not asked for until their retry is due (for good when permanent). */
  const held = useRef(new Set<number>())
  const windowRef = useRef<[number, number]>([0, 1])
  const failures = useRef(0)
  const requested = useRef(0)
  const generation = useRef(0)
  const [total, setTotal] = useState<number | undefined>(undefined)
  const [, setVersion] = useState(0)
  const fetchRef = useRef(fetchPage)
  fetchRef.current = fetchPage

  const load = useCallback(
    (page: number) => {
      if (loading.current.has(page)) return
      loading.current.add(page)
      requested.current += 1
      const started = generation.current
      fetchRef
        .current(page, PAGE_SIZE)
        .then((result) => {
          if (started !== generation.current) return
          // Before the render this answer causes: that render sees whether pages are still loading.
          loading.current.delete(page)
          failures.current = 0
          report(source, null)
          pages.current.set(page, result.data)
          setTotal(result.total)
          // Keep the pages nearest the window; the rest can be fetched again.
          const centre = Math.floor(windowRef.current[0] / PAGE_SIZE) + 1
          const kept = [...pages.current.keys()].sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre))
          for (const far of kept.slice(KEEP_PAGES)) pages.current.delete(far)
          setVersion((v) => v + 1)
        })
        .catch((err: unknown) => {
          if (started !== generation.current) return
          loading.current.delete(page)
          failures.current += 1
          const trouble = troubleOf(err)
          held.current.add(page)
          if (trouble.permanent) return report(source, trouble)
          const wait = retryDelayMs(failures.current, trouble)
          report(source, trouble, wait)
          clock.after(wait, () => {
            if (started !== generation.current) return
            held.current.delete(page)
            setVersion((v) => v + 1)
          })
        })
    },
    [report, source, clock],
  )

  const pagesOf = (from: number, to: number): number[] => {
    const first = Math.floor(from / PAGE_SIZE) + 1
    const last = Math.floor(Math.max(from, to - 1) / PAGE_SIZE) + 1
    const out: number[] = []
    for (let p = first; p <= last; p++) out.push(p)
    return out
  }

  const show = useCallback(
    (from: number, to: number) => {
      windowRef.current = [from, to]
      for (const p of pagesOf(from, to)) if (!pages.current.has(p) && !held.current.has(p)) load(p)
    },
    [load],
  )

  const reload = useCallback(() => {
    generation.current += 1
    pages.current.clear()
    loading.current.clear()
    held.current.clear()
    setVersion((v) => v + 1)
  }, [])

  // A new key (search) starts over, from the render that has it: rows of the old key are never
  // shown (nor followed by a cursor) with it.
  const keyed = useRef(key)
  if (keyed.current !== key) {
    keyed.current = key
    generation.current += 1
    pages.current.clear()
    loading.current.clear()
    held.current.clear()
  }
  useEffect(() => {
    reload()
    setTotal(undefined)
    return () => report(source, null)
  }, [key, reload, report, source])

  // Every refresh, the visible pages again (live click counts).
  useEffect(() => {
    let cancel = () => {}
    const tick = () => {
      const [from, to] = windowRef.current
      for (const p of pagesOf(from, to)) if (!held.current.has(p)) load(p)
      cancel = clock.after(refreshMs, tick)
    }
    cancel = clock.after(refreshMs, tick)
    return () => cancel()
  }, [load, refreshMs, clock])

  const rowAt = (index: number): T | undefined => {
    const rows = pages.current.get(Math.floor(index / PAGE_SIZE) + 1)
    return rows?.[index % PAGE_SIZE]
  }
  const findIndex = (ok: (item: T) => boolean): number => {
    for (const [page, rows] of [...pages.current].sort(([a], [b]) => a - b)) {
      const i = rows.findIndex(ok)
      if (i >= 0) return (page - 1) * PAGE_SIZE + i
    }
    return -1
  }
  return {
    total,
    count: total ?? 0,
    rowAt,
    findIndex,
    busy: loading.current.size > 0,
    show,
    reload,
    requested: requested.current,
  }
}
