/**
 * Destination safety: an organization's lists of hosts (feed files it uploads), the one check
 * every link destination passes at create and update (assertDestinationsAllowed), and the
 * re-check that flags stored links whose destination was listed later (and clears the flags
 * no list holds any more). The redirect never asks: the flag is stored on the link.
 */
import type { Readable } from 'node:stream'
import { DAY_MS, iso } from '../../clock.js'
import { newId } from '../../crypto.js'
import { chunked } from '../../db/chunked.js'
import { AppError, notFound, type ErrorDetail } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { PageQuery } from '../../../src/contract/common.js'
import { plural } from '../../../src/contract/numbers.js'
import { SAFETY_LIMITS, type SafetyList, type UploadSafetyListQuery } from '../../../src/contract/safety.js'
import type { Destination, SafetyMatch } from '../links/index.js'
import { candidateHosts, hostOfUrl, readFeed } from './parse.js'
import type { HostMatch, UploadRecord } from './store.js'
import type { RecheckResult, SafetyService, SafetyServiceDeps } from './api.js'

/** Links read per re-check page. */
const RECHECK_PAGE = 500
/** Hosts deleted per statement when a list goes. */
const DELETE_CHUNK = 10_000
/** An upload still loading after this long was abandoned (a stopped process): purged. */
const ABANDONED_MS = DAY_MS

const present = (u: UploadRecord): SafetyList => ({
  id: u.listId,
  name: u.name,
  format: u.format,
  entries: u.entries,
  skipped: u.skipped,
  createdAt: iso(u.createdAt),
  updatedAt: iso(u.updatedAt),
})

/** organization → listed host → list name (the first list by name when several hold it). */
function indexOf(found: readonly HostMatch[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>()
  for (const m of found) {
    let hosts = out.get(m.organizationId)
    if (!hosts) out.set(m.organizationId, (hosts = new Map()))
    if (!hosts.has(m.host)) hosts.set(m.host, m.list)
  }
  return out
}

/** The most specific listed host of `url` (itself, then its parent domains), or undefined. */
function matchOf(url: string, listed: ReadonlyMap<string, string> | undefined): SafetyMatch | undefined {
  const host = listed && hostOfUrl(url)
  if (!host || !listed) return undefined
  for (const h of candidateHosts(host)) {
    const list = listed.get(h)
    if (list !== undefined) return { host: h, list }
  }
  return undefined
}

const candidatesOf = (urls: readonly string[]) => [
  ...new Set(
    urls.flatMap((u) => {
      const h = hostOfUrl(u)
      return h ? candidateHosts(h) : []
    }),
  ),
]

export function createSafetyService(deps: SafetyServiceDeps): SafetyService {
  const { store, links } = deps
  const now = () => deps.clock.now()
  const running = new Set<Promise<unknown>>()

  /** Background work after a list changes: never awaited by the request, errors reported. */
  function background(what: string, work: () => Promise<unknown>): void {
    const p = work()
      .catch((err: unknown) => deps.onError?.(err, what))
      .finally(() => running.delete(p))
    running.add(p)
  }

  async function removeUpload(uploadId: string): Promise<number> {
    const n = await chunked(DELETE_CHUNK, () => store.deleteHosts(uploadId, DELETE_CHUNK))
    await store.deleteUpload(uploadId)
    return n
  }

  async function firstMatch(
    organizationId: string,
    urls: readonly string[],
  ): Promise<SafetyMatch | undefined> {
    const listed = indexOf(await store.matches([organizationId], candidatesOf(urls))).get(organizationId)
    for (const u of urls) {
      const m = matchOf(u, listed)
      if (m) return m
    }
    return undefined
  }

  /** Whether a stored flag already says what the check found (a match, or none). */
  const sameFlag = (flag: { host: string; list: string } | null, match: SafetyMatch | undefined) =>
    match === undefined ? flag === null : flag?.host === match.host && flag.list === match.list

  /** The links part of a re-check: pages of links, each page's hosts looked up at once. */
  async function recheckLinks(result: RecheckResult, organizationId: string | undefined): Promise<void> {
    let afterId = ''
    for (;;) {
      const page = await links.destinationsPage({
        ...(organizationId !== undefined && { organizationId }),
        afterId,
        limit: RECHECK_PAGE,
      })
      const last = page.at(-1)
      if (!last) return
      afterId = last.id
      const orgs = [...new Set(page.map((l) => l.organizationId))]
      const listed = indexOf(await store.matches(orgs, candidatesOf(page.flatMap((l) => l.urls))))
      for (const l of page) {
        let match: SafetyMatch | undefined
        for (const u of l.urls) if ((match = matchOf(u, listed.get(l.organizationId)))) break
        if (!sameFlag(l.flag, match) && (await links.setFlag(l.organizationId, l.id, match ?? null))) {
          if (match) result.flagged++
          else result.unflagged++
        }
      }
      result.checked += page.length
      if (page.length < RECHECK_PAGE) return
    }
  }

  const service: SafetyService = {
    async assertDestinationsAllowed(organizationId: string, destinations: readonly Destination[]) {
      const urls = destinations.map((d) => d.url)
      const listed = indexOf(await store.matches([organizationId], candidatesOf(urls))).get(organizationId)
      if (!listed) return
      const details: ErrorDetail[] = []
      for (const d of destinations) {
        const m = matchOf(d.url, listed)
        if (m)
          details.push({
            field: d.field,
            message:
              m.host === hostOfUrl(d.url)
                ? `${m.host} is on the safety list "${m.list}"`
                : `${hostOfUrl(d.url) ?? d.url} is under ${m.host}, on the safety list "${m.list}"`,
          })
      }
      const first = details[0]
      if (first)
        throw new AppError(
          'DestinationBlocked',
          `${first.field}: ${first.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`,
          details,
        )
    },

    firstMatch,

    async upload(organizationId: string, q: UploadSafetyListQuery, body: Readable): Promise<SafetyList> {
      const lists = await store.lists(organizationId)
      if (!lists.some((l) => l.name === q.name) && lists.length >= SAFETY_LIMITS.listsMax)
        throw new AppError(
          'Conflict',
          `an organization has at most ${SAFETY_LIMITS.listsMax} safety lists (${lists.map((l) => l.name).join(', ')}); delete one, or upload under one of these names to replace it`,
          [
            {
              field: 'name',
              message: `would be list ${lists.length + 1} of at most ${SAFETY_LIMITS.listsMax}`,
            },
          ],
        )
      const t = now()
      const upload: UploadRecord = {
        id: newId('sfu'),
        listId: newId('sfl'),
        organizationId,
        name: q.name,
        format: q.format === undefined || q.format === 'auto' ? 'domains' : q.format,
        entries: 0,
        skipped: 0,
        state: 'loading',
        createdAt: t,
        updatedAt: t,
      }
      await store.insertUpload(upload)
      let entries = 0
      try {
        const read = await readFeed(
          body,
          q.format === undefined || q.format === 'auto' ? undefined : q.format,
          async (hosts) => {
            entries += await store.addHosts(upload.id, hosts)
            if (entries > SAFETY_LIMITS.entriesMax)
              throw new AppError(
                'ValidationError',
                `the file lists more than ${SAFETY_LIMITS.entriesMax.toLocaleString('en-US')} hosts; split it into several lists`,
                [{ field: 'body', message: `at most ${SAFETY_LIMITS.entriesMax} hosts per list` }],
              )
          },
        )
        if (entries === 0)
          throw new AppError(
            'ValidationError',
            `the file holds no host (read as ${read.format}${read.skipped > 0 ? `, ${plural(read.skipped, 'line')} without one` : ''}); send a hosts file, one domain a line, or URLhaus CSV`,
            [{ field: 'body', message: 'no host found' }],
          )
        const ready = await store.publish(
          upload,
          { entries, skipped: read.skipped, format: read.format },
          now(),
        )
        background('safety list re-check', async () => {
          await service.recheck(organizationId)
          await service.purge()
        })
        return present(ready)
      } catch (err) {
        await store.markDeleting(upload.id, now()).catch(() => undefined)
        background('safety upload clean-up', () => removeUpload(upload.id))
        throw err
      }
    },

    async list(organizationId: string, q: PageQuery) {
      const all = await store.lists(organizationId)
      const p = pageParams(q)
      return pageOf(all.slice(p.offset, p.offset + p.perPage).map(present), all.length, p)
    },

    async get(organizationId: string, id: string) {
      const u = await store.byListId(organizationId, id)
      if (!u) throw notFound(`safety list ${id}`)
      return present(u)
    },

    async delete(organizationId: string, id: string) {
      const u = await store.byListId(organizationId, id)
      if (!u) throw notFound(`safety list ${id}`)
      await store.markDeleting(u.id, now())
      background('safety list re-check', async () => {
        await service.recheck(organizationId)
        await service.purge()
      })
    },

    async recheck(organizationId?: string): Promise<RecheckResult> {
      const result = { checked: 0, flagged: 0, unflagged: 0, rootsFlagged: 0, rootsUnflagged: 0 }
      await recheckLinks(result, organizationId)
      // Custom domains' root redirects: few (a handful per organization), read at once.
      const roots = await deps.domains.rootRedirects(organizationId)
      if (roots.length === 0) return result
      const listed = indexOf(
        await store.matches(
          [...new Set(roots.map((r) => r.organizationId))],
          candidatesOf(roots.map((r) => r.url)),
        ),
      )
      for (const r of roots) {
        const match = matchOf(r.url, listed.get(r.organizationId))
        if (!sameFlag(r.flag, match) && (await deps.domains.setRootRedirectFlag(r, match ?? null))) {
          if (match) result.rootsFlagged++
          else result.rootsUnflagged++
        }
      }
      return result
    },

    async purge(): Promise<number> {
      let total = 0
      for (const id of await store.leftovers(now() - ABANDONED_MS)) total += await removeUpload(id)
      return total
    },

    async settled() {
      while (running.size > 0) await Promise.allSettled([...running])
    },
  }
  return service
}
