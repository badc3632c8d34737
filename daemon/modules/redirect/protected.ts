/**
 * The pages of password-protected links and Open Graph previews: self-contained HTML (no external
 * asset, inline style only) under a strict Content-Security-Policy, everything interpolated
 * escaped. The routes (routes.ts) decide which one a visit gets.
 */
import type { FastifyReply } from 'fastify'
import type { ResolvedLink } from './cache.js'
import { escapeHtml } from './pages.js'

/** Link-preview crawlers that read Open Graph tags (links-and-ops-facts.md, "Link previews"). */
export const PREVIEW_CRAWLERS = [
  'facebookexternalhit',
  'Facebot',
  'Twitterbot',
  'Slackbot-LinkExpanding',
  'Discordbot',
  'LinkedInBot',
  'WhatsApp',
  'TelegramBot',
  'SkypeUriPreview',
  'redditbot',
  'Pinterestbot',
] as const
const CRAWLER = new RegExp(PREVIEW_CRAWLERS.join('|'), 'i')

export function isPreviewCrawler(userAgent: string | undefined): boolean {
  return userAgent !== undefined && CRAWLER.test(userAgent)
}

/** Wrong passwords allowed per address (IPv6: per /64) and link in one window; the next try answers 429. */
export const PASSWORD_TRIES = 10
/**
 * Wrong passwords allowed per link in one window from all addresses together (every linkd process
 * on PostgreSQL); then the link is locked until the window ends: every try answers 429, the right
 * password too.
 */
export const PASSWORD_LINK_TRIES = 100
export const PASSWORD_WINDOW_MS = 15 * 60_000
/** Largest password form body read (a 128-character password fits many times over). */
export const PASSWORD_FORM_BYTES = 4096

/**
 * Nothing loaded from anywhere, inline style only. form-action also allows http(s) targets:
 * browsers apply it to the redirect that answers the form's POST, so 'self' alone would block the
 * way to the destination (Chromium does).
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'"

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#222}' +
  'input,button{font:inherit;padding:.5rem;margin:.25rem 0;width:100%;box-sizing:border-box}' +
  '.error{color:#b00020}'

function page(title: string, body: string, head = ''): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">${head}` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>\n`
  )
}

/**
 * The password form; it posts back to `action` (the short link's own path and query, so rules and
 * forwardQuery apply to the redirect that follows).
 */
export function passwordPage(link: ResolvedLink, action: string, error?: string): string {
  const title = link.title ?? 'Protected link'
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p>This link is protected. Enter its password to continue.</p>` +
      (error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '') +
      `<form method="post" action="${escapeHtml(action)}">` +
      `<label for="password">Password</label>` +
      `<input id="password" name="password" type="password" required autofocus autocomplete="current-password">` +
      `<button type="submit">Continue</button></form>`,
  )
}

/** A page saying why a try was refused (too many tries, a bad form, a link that takes no password). */
export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`)
}

/**
 * What a link-preview crawler gets for a link with `og`: the tags, og:url the short URL and, when
 * the link is not protected, a refresh and a link to `destination` (null: protected, never shown).
 */
export function previewPage(link: ResolvedLink, destination: string | null): string {
  const og = link.og!
  const title = og.title ?? link.title ?? link.shortUrl
  const meta = (attr: string, name: string, content: string | null) =>
    content === null ? '' : `<meta ${attr}="${name}" content="${escapeHtml(content)}">`
  const head =
    meta('property', 'og:title', title) +
    meta('property', 'og:description', og.description) +
    meta('property', 'og:image', og.imageUrl) +
    meta('property', 'og:url', link.shortUrl) +
    meta('property', 'og:type', 'website') +
    meta('name', 'twitter:card', og.imageUrl ? 'summary_large_image' : 'summary') +
    meta('name', 'twitter:title', title) +
    meta('name', 'twitter:description', og.description) +
    meta('name', 'twitter:image', og.imageUrl) +
    (og.description === null ? '' : meta('name', 'description', og.description)) +
    (destination === null ? '' : `<meta http-equiv="refresh" content="0;url=${escapeHtml(destination)}">`)
  const body =
    `<h1>${escapeHtml(title)}</h1>` +
    (og.description === null ? '' : `<p>${escapeHtml(og.description)}</p>`) +
    (destination === null
      ? '<p>This link is protected by a password.</p>'
      : `<p><a href="${escapeHtml(destination)}">Continue</a></p>`)
  return page(title, body, head)
}

/**
 * What a visit of a link flagged by a safety list gets instead of the redirect: the listed host,
 * and no way through (no link to the destination). `what`: 'address' for a custom domain's root.
 */
export function flaggedPage(
  link: Pick<ResolvedLink, 'shortUrl'>,
  flag: { host: string; list: string },
  what: 'short link' | 'address' = 'short link',
): string {
  const title = 'Warning: this link was blocked'
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>` +
      `<p>The ${what} ${escapeHtml(link.shortUrl)} leads to <strong>${escapeHtml(flag.host)}</strong>, ` +
      `which is on a list of sites known for phishing or malware (${escapeHtml(flag.list)}).</p>` +
      '<p>You were not sent there. If you trust the link anyway, ask whoever shared it for the address.</p>',
  )
}

/**
 * The warning page of a custom domain's root redirect flagged by a safety list (domains' host
 * routes), without a body for HEAD, as a flagged link's.
 */
export function sendFlaggedRoot(
  reply: FastifyReply,
  url: string,
  flag: { host: string; list: string },
  head: boolean,
) {
  return pageHeaders(reply.code(200)).send(head ? undefined : flaggedPage({ shortUrl: url }, flag, 'address'))
}

/** Headers of every page above: no caching, no indexing, nothing loaded from elsewhere. */
export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
}
