/**
 * The redirect's answers: the Location of each 3xx (sent with no body: why in
 * docs/decisions/redirect-without-body.md) and the 404/410 pages for browsers.
 */
import type { ResolvedLink } from './cache.js'

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title}</title></head><body>${body}</body></html>\n`

export function errorPage(status: 404 | 410, message: string): string {
  const title = status === 410 ? 'Link expired' : 'Link not found'
  return page(title, `<h1>${title}</h1><p>${escapeHtml(message)}</p>`)
}

/** What GET / answers (404: nothing lives there): where the API, its docs and the health check are. */
export const ROOT_MESSAGE =
  'nothing at /: short links are /<code>; the API and its docs are at /api/docs, health at /health'

export function rootPage(): string {
  return page(
    'linkd',
    '<h1>linkd</h1><p>Nothing lives at <code>/</code>: short links are <code>/&lt;code&gt;</code>.</p>' +
      '<p>The API and its docs: <a href="/api/docs">/api/docs</a> · health: <a href="/health">/health</a></p>',
  )
}

/** Whether the client asked for HTML (browsers do; API clients and curl get the JSON error body). */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';')
    if (type?.trim() !== 'text/html') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  }
  return false
}

export interface RedirectAnswer {
  location: string
}

export const CACHE_CONTROL = 'private, max-age=90'

/** A header-safe Location: destinations with non-ASCII or unsafe characters in their encoded form. */
function locationOf(url: string): string {
  if (!/[^\x21-\x7e]|["<>\\^`{|}]/.test(url)) return url
  try {
    return new URL(url).href
  } catch {
    return encodeURI(url)
  }
}

function answerTo(url: string): RedirectAnswer {
  return { location: locationOf(url) }
}

/** Location per resolved link, computed once while the link sits in the hot-link cache. */
const answers = new WeakMap<ResolvedLink, RedirectAnswer>()
export function answerOf(link: ResolvedLink): RedirectAnswer {
  let a = answers.get(link)
  if (!a) answers.set(link, (a = answerTo(link.destinationUrl)))
  return a
}

/** Answers to a link's rule destinations and expiredUrl, kept as long as the link is. */
const others = new WeakMap<ResolvedLink, Map<string, RedirectAnswer>>()

/**
 * The answer sending a visit of `link` to `url`: the link's own destination, a rule's or its
 * expiredUrl from memory; anything else (a forwarded query) computed for this request.
 */
export function answerAt(link: ResolvedLink, url: string): RedirectAnswer {
  if (url === link.destinationUrl) return answerOf(link)
  if (url !== link.expiredUrl && !link.rules.some((r) => r.destinationUrl === url)) return answerTo(url)
  let m = others.get(link)
  if (!m) others.set(link, (m = new Map()))
  let a = m.get(url)
  if (!a) m.set(url, (a = answerTo(url)))
  return a
}
