/**
 * Where a visit of a smart link goes: the target of the visitor's platform (iOS, Android,
 * desktop by the user agent's OS, as click analytics reads it), else the fallback, with the
 * visit's click id appended (the Google Play install referrer on Play store URLs). An iPad's
 * Safari says it is a Mac: the device page asks the browser (docs/reference/links.md).
 */
import { createHash } from 'node:crypto'
import { newId } from '../../crypto.js'
import { osFamily, parseAgent, platformOf } from '../clicks/index.js'
import type { ResolvedLink } from './cache.js'
import { escapeHtml } from './pages.js'

/** A new click id (`clk_…`) for a human visit of a smart link. */
export const newClickId = () => newId('clk')

/** `https://play.google.com/store/apps/details?…`: the Play store reads `referrer` as the install referrer. */
function isGooglePlay(url: string): boolean {
  try {
    const u = new URL(url)
    return u.hostname === 'play.google.com' && u.pathname.startsWith('/store/apps/details')
  } catch {
    return false
  }
}

/**
 * The target with the click id as one more query pair (before any fragment): on Google Play
 * `referrer=linkd_click%3D<id>` (the referrer value URL-encoded), elsewhere `linkd_click=<id>`.
 */
export function withClickId(url: string, clickId: string): string {
  const pair = isGooglePlay(url)
    ? `referrer=${encodeURIComponent(`linkd_click=${clickId}`)}`
    : `linkd_click=${clickId}`
  const hashAt = url.indexOf('#')
  const base = hashAt === -1 ? url : url.slice(0, hashAt)
  const fragment = hashAt === -1 ? '' : url.slice(hashAt)
  const sep = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&'
  return `${base}${sep}${pair}${fragment}`
}

/**
 * The URL a visit of a smart link goes to; `clickId` only for human visits; `ipad`: the device
 * page found touch on a "Mac" (the iOS target); `fallback`: the visit's variant of a split
 * fallback (asked only when the platform has no target).
 */
export function smartTarget(
  link: ResolvedLink,
  userAgent: string,
  clickId: string | undefined,
  ipad = false,
  fallback?: () => string,
): string {
  const smart = link.smart
  if (!smart) return link.destinationUrl
  const platform = ipad ? 'ios' : platformOf(parseAgent(userAgent).os)
  const url =
    (platform === 'other' ? null : smart[platform])?.url ?? (fallback ? fallback() : link.destinationUrl)
  return clickId !== undefined && smart.appendClickId ? withClickId(url, clickId) : url
}

/** The query pairs the device page adds when it sends the browser back: its answer, the Referer. */
export const DEVICE_PARAM = 'linkd_device'
export const REFERRER_PARAM = 'linkd_ref'

/**
 * Whether a visit must ask the browser what it is: a human on Safari for macOS (which iPadOS
 * Safari also claims to be) visiting a smart link whose iOS and desktop targets differ.
 */
export function needsDevicePage(link: ResolvedLink, userAgent: string): boolean {
  const smart = link.smart
  if (!smart) return false
  const a = parseAgent(userAgent)
  if (a.bot !== null || a.browser !== 'Safari' || osFamily(a.os) !== 'macos') return false
  // A split fallback is no URL of its own: '' stands for it (the visitor's variant either way).
  const fallback = link.variants.length ? '' : link.destinationUrl
  return (smart.ios?.url ?? fallback) !== (smart.desktop?.url ?? fallback)
}

/** The device page's answer in a query: 'ipad', 'mac', or undefined when absent or another value. */
export function deviceAnswer(query: Record<string, unknown> | undefined): 'ipad' | 'mac' | undefined {
  const v = query?.[DEVICE_PARAM]
  return v === 'ipad' || v === 'mac' ? v : undefined
}

/** Touch points tell an iPad (5) from a Mac (0); the page comes back with the answer. */
const SCRIPT = 'location.replace(document.getElementById(navigator.maxTouchPoints>1?"ipad":"mac").href)'
export const DEVICE_PAGE_CSP =
  `default-src 'none'; script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'; ` +
  "style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"

/**
 * The device page for the visit of `url` (the short link's path and query): its script goes back
 * to the same URL with linkd_device=ipad|mac and the visit's Referer host; without script, the
 * refresh goes on as a Mac. No click is counted for it: the visit it sends back is the one.
 */
export function devicePage(url: string, referer: string | undefined): string {
  let ref = ''
  try {
    if (referer) ref = `&${REFERRER_PARAM}=${encodeURIComponent(new URL(referer).hostname)}`
  } catch {
    // An unreadable Referer is left out, as the click would leave it out.
  }
  const back = (answer: string) =>
    escapeHtml(`${url}${url.includes('?') ? '&' : '?'}${DEVICE_PARAM}=${answer}${ref}`)
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<noscript><meta http-equiv="refresh" content="0;url=${back('mac')}"></noscript><title>Opening…</title>` +
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}</style>' +
    `</head><body><p>Opening the link… <a id="ipad" href="${back('ipad')}">iPad</a> · ` +
    `<a id="mac" href="${back('mac')}">Mac</a></p><script>${SCRIPT}</script></body></html>\n`
  )
}
