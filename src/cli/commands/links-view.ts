/** How short links look on the terminal, how link flags become request bodies, and id-or-code look-ups. */
import { InvalidArgumentError } from 'commander'
import type { CreateLinkBody, Link, UpdateLinkBody } from '../../contract/links.js'
import { LINK_LIMITS } from '../../contract/limits.js'
import type { LinkdClient } from '../../client/index.js'
import { CliError, EXIT, UsageError } from '../exit-codes.js'
import type { Column, Field } from '../output.js'
import { when } from './keys-view.js'

/** Flags shared by `links create` and `links update`, as commander parses them. */
export interface LinkFlags {
  destination?: string
  title?: string
  slug?: string
  expiresAt?: string | null
  tag?: string[]
  meta?: Record<string, string>
  redirectType?: string
  /** create only: a verified custom domain (by name or dom_ id) the link goes on. */
  domain?: string
  /** update only */
  status?: 'active' | 'inactive'
  clearTags?: boolean
  clearMeta?: boolean
  /** `--no-expiry` sets this to false. */
  expiry?: boolean
}

/** `--meta key=value`, repeatable: collected into one object (a later key wins). */
export function metaArg(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const eq = value.indexOf('=')
  if (eq <= 0) throw new InvalidArgumentError('expected key=value')
  return { ...(previous ?? {}), [value.slice(0, eq)]: value.slice(eq + 1) }
}

function tagsOf(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter((t) => t.length > 0))]
}

export function createBody(destination: string | undefined, flags: LinkFlags): CreateLinkBody {
  if (destination && flags.destination && destination !== flags.destination)
    throw new UsageError('give the destination URL once: as the argument or with --destination')
  const url = destination ?? flags.destination
  if (!url)
    throw new UsageError(
      'a destination URL is required: linkctl links create <url>, or --destination <url> (--url is the address of linkd)',
    )
  const body: CreateLinkBody = { destinationUrl: url }
  if (flags.title !== undefined && flags.title !== '') body.title = flags.title
  if (flags.slug !== undefined) body.customSlug = flags.slug
  if (flags.expiresAt) body.expiresAt = flags.expiresAt
  if (flags.tag) body.tags = tagsOf(flags.tag)
  if (flags.meta) body.metadata = flags.meta
  if (flags.redirectType) body.redirectType = Number(flags.redirectType) as CreateLinkBody['redirectType']
  if (flags.domain) {
    if (/^dom_/.test(flags.domain)) body.customDomainId = flags.domain
    else body.domain = flags.domain
  }
  return body
}

export function updateBody(flags: LinkFlags): UpdateLinkBody {
  if (flags.slug !== undefined) throw new UsageError('the short code of a link cannot be changed')
  if (flags.clearTags && flags.tag) throw new UsageError('use either --tag or --clear-tags, not both')
  if (flags.clearMeta && flags.meta) throw new UsageError('use either --meta or --clear-meta, not both')
  if (flags.expiry === false && flags.expiresAt !== undefined)
    throw new UsageError('use either --expires-at or --no-expiry, not both')
  const body: UpdateLinkBody = {}
  if (flags.destination !== undefined) body.destinationUrl = flags.destination
  if (flags.title !== undefined) body.title = flags.title === '' ? null : flags.title
  if (flags.status) body.status = flags.status
  if (flags.expiry === false) body.expiresAt = null
  else if (flags.expiresAt !== undefined) body.expiresAt = flags.expiresAt
  if (flags.clearTags) body.tags = []
  else if (flags.tag) body.tags = tagsOf(flags.tag)
  if (flags.clearMeta) body.metadata = {}
  else if (flags.meta) body.metadata = flags.meta
  if (flags.redirectType) body.redirectType = Number(flags.redirectType) as UpdateLinkBody['redirectType']
  if (Object.keys(body).length === 0) throw new UsageError('nothing to update: pass at least one field flag')
  return body
}

/** Long values cut to `max` characters on a terminal, whole when piped. */
export function clip(s: string | null | undefined, max: number, tty: boolean): string {
  if (!s) return ''
  return tty && s.length > max ? `${s.slice(0, max - 1)}…` : s
}

export function linkColumns(tty: boolean): Column<Link>[] {
  return [
    { header: 'ID', value: (l) => l.id },
    { header: 'SHORT URL', value: (l) => l.shortUrl },
    { header: 'DESTINATION', value: (l) => clip(l.destinationUrl, 40, tty) },
    { header: 'TITLE', value: (l) => clip(l.title, 24, tty) },
    { header: 'STATUS', value: (l) => l.status },
    { header: 'CLICKS', value: (l) => l.clicks },
    { header: 'TAGS', value: (l) => l.tags.join(tty ? ', ' : ',') },
    { header: 'CREATED', value: (l) => when(l.createdAt, tty) },
    { header: 'EXPIRES', value: (l) => when(l.expiresAt, tty) },
  ]
}

export function linkFields(l: Link, tty: boolean): Field[] {
  const meta = Object.keys(l.metadata).length > 0 ? JSON.stringify(l.metadata) : ''
  return [
    ['ID', l.id],
    ['SHORT URL', l.shortUrl],
    ['SHORT CODE', l.shortCode],
    ['DESTINATION', l.destinationUrl],
    ['TITLE', l.title],
    ['STATUS', l.status],
    ['CLICKS', l.clicks],
    ['REDIRECT', l.redirectType],
    ['TAGS', l.tags.join(tty ? ', ' : ',')],
    ['METADATA', meta],
    ['DOMAIN', l.customDomainId],
    ['EXPIRES', when(l.expiresAt, tty)],
    ['CREATED', when(l.createdAt, tty)],
    ['UPDATED', when(l.updatedAt, tty)],
  ]
}

const ID_RE = /^lnk_/

/** The short code a reference names: a code, or the last path segment of a short URL. */
function codeOf(ref: string): string {
  if (/^https?:\/\//i.test(ref)) {
    try {
      return new URL(ref).pathname.split('/').filter(Boolean).pop() ?? ref
    } catch {
      return ref
    }
  }
  return ref
}

/**
 * The link a reference names: its id (`lnk_...`), its short code or its short URL. A code is
 * looked up with the list's search (exact match on the short code). Unknown: exit 5.
 */
export async function findLink(client: LinkdClient, ref: string): Promise<Link> {
  if (ID_RE.test(ref)) return client.links.get(ref)
  const code = codeOf(ref)
  if (code.length === 0 || code.length > LINK_LIMITS.slugMax)
    throw new CliError(`no link with the id or short code "${ref}"`, EXIT.notFound)
  const page = await client.links.list({ search: code, limit: 100 })
  const found = page.data.find((l) => l.shortCode === code)
  if (!found) throw new CliError(`no link with the id or short code "${ref}"`, EXIT.notFound)
  return found
}

/** The id a reference names, without a request when it is already an id. */
export async function linkIdOf(client: LinkdClient, ref: string): Promise<string> {
  return ID_RE.test(ref) ? ref : (await findLink(client, ref)).id
}

const AGO_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/**
 * A point in time for analytics ranges: an ISO date or date-time, `now`, or a duration ago
 * (`7d`, `12h`, `90m`, `2w`). A plain date as the end of a range means the end of that day.
 */
export function parseInstant(value: string, edge: 'start' | 'end', now: number = Date.now()): string {
  if (value === 'now') return new Date(now).toISOString()
  const rel = /^(\d+)([mhdw])$/.exec(value)
  if (rel) return new Date(now - Number(rel[1]) * (AGO_MS[rel[2] ?? 'd'] ?? 0)).toISOString()
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const t = Date.parse(`${value}T00:00:00Z`)
    if (Number.isFinite(t)) return new Date(edge === 'end' ? t + 86_400_000 - 1 : t).toISOString()
  } else if (/^\d{4}-\d{2}-\d{2}[T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?$/.test(value)) {
    const t = Date.parse(value)
    if (Number.isFinite(t)) return new Date(t).toISOString()
  }
  throw new InvalidArgumentError('expected an ISO date or date-time, now, or 7d/12h/90m/2w ago')
}
