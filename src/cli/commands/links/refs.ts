/**
 * How linkctl finds the link a reference names (an id, a short code or a short URL), and the
 * reference argument of the verbs that name one link.
 */
import type { Link } from '../../../contract/links.js'
import { LINK_LIMITS } from '../../../contract/limits.js'
import type { LinkdClient } from '../../../client/index.js'
import { ApiError } from '../../../client/http.js'
import type { PageOf } from '../../../contract/common.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import type { Ctx } from '../../../session/context.js'
import { action, type ActionExtra } from '../../action.js'

/** A verb that names one link: the reference as given (id, short code or short URL). */
export interface LinkRefOpts {
  /** A link id (lnk_...), short code or short URL. */
  ref: string
}

const ID_RE = /^lnk_/

/** A reference as a short URL: `https://host/code`, or `host/code` (a code has no `/`); else undefined. */
export function shortUrlOf(ref: string): URL | undefined {
  const text = /^https?:\/\//i.test(ref) ? ref : ref.includes('/') ? `http://${ref}` : undefined
  if (text === undefined) return undefined
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** The short code a reference names: a code, or the last path segment of a short URL. */
export function codeOf(ref: string): string {
  const url = shortUrlOf(ref)
  return url ? (url.pathname.split('/').filter(Boolean).pop() ?? ref) : ref
}

/**
 * Which of the links or smart links with a reference's short code it names: a code is unique per
 * domain, so a short URL picks the one on its host (or the only one), and a code alone on several
 * domains is a usage error listing their short URLs.
 */
export function pickByRef<T extends { shortUrl: string }>(
  ref: string,
  found: T[],
  noun = 'link',
): T | undefined {
  if (found.length <= 1) return found[0]
  const host = shortUrlOf(ref)?.hostname
  const onHost = found.filter((l) => shortUrlOf(l.shortUrl)?.hostname === host)
  if (host !== undefined && onHost.length === 1) return onHost[0]
  throw new UsageError(
    `short code "${codeOf(ref)}" is on several domains (${found
      .map((l) => l.shortUrl)
      .sort()
      .join(', ')}): give the short URL or the ${noun} id`,
  )
}

/**
 * The rows of a list with exactly the short `code`: by the list's `shortCode` filter or, from a
 * linkd older than that filter (a 400 naming it), by every page of a search of the code.
 */
export async function withCode<T extends { shortCode: string }>(
  list: (q: { shortCode?: string; search?: string; limit: 100; page?: number }) => Promise<PageOf<T>>,
  code: string,
): Promise<T[]> {
  try {
    return (await list({ shortCode: code, limit: 100 })).data.filter((l) => l.shortCode === code)
  } catch (err) {
    const unknownFilter =
      err instanceof ApiError && err.status === 400 && err.body.details?.some((d) => d.field === 'shortCode')
    if (!unknownFilter) throw err
  }
  const out: T[] = []
  for (let page = 1; ; page++) {
    const p = await list({ search: code, limit: 100, page })
    out.push(...p.data.filter((l) => l.shortCode === code))
    if (!p.hasMore) return out
  }
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
  const found = pickByRef(ref, await withCode((q) => client.links.list(q), code))
  if (!found) {
    // Links and smart links share short codes: say so when the code is the other kind's.
    const other = (await withCode((q) => client.smartLinks.list(q), code)).length
      ? ': it is a smart link (linkctl smart-links)'
      : ''
    throw new CliError(`no link with the id or short code "${ref}"${other}`, EXIT.notFound)
  }
  return found
}

/**
 * The id a reference names, without a request when it is already an id. A smart link's id
 * passes too: `links stats` reads its analytics (the other verbs get the API's 404).
 */
export async function linkIdOf(client: LinkdClient, ref: string): Promise<string> {
  return ID_RE.test(ref) || ref.startsWith('sml_') ? ref : (await findLink(client, ref)).id
}

/** A commander action for verbs whose first argument is a link reference. */
export const refAction = <O>(run: (opts: O & LinkRefOpts, ctx: Ctx) => Promise<void>, extra?: ActionExtra) =>
  action<O>(([ref], opts, ctx) => run({ ...opts, ref: ref ?? '' }, ctx), extra)
export const REF_HELP = 'link id (lnk_...), short code or short URL'
