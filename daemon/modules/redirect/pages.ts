/**
 * The redirect's pages: the 404/410 pages for browsers, and when a 3xx (sent with no body: why in
 * docs/decisions/redirect-hot-path.md) is cached. Its Location: locationOf (daemon/urls.ts).
 */
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

export const CACHE_CONTROL = 'private, max-age=90'
