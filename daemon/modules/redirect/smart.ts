/**
 * Where a visit of a smart link goes: the target of the visitor's platform (iOS, Android,
 * desktop by the user agent's OS, as click analytics reads it), else the fallback, with the
 * visit's click id appended (the Google Play install referrer on Play store URLs).
 */
import { newId } from '../../crypto.js'
import { parseAgent, platformOf } from '../clicks/index.js'
import type { ResolvedLink } from './cache.js'

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

/** The URL a visit of a smart link goes to; `clickId` only for human visits. */
export function smartTarget(link: ResolvedLink, userAgent: string, clickId: string | undefined): string {
  const smart = link.smart
  if (!smart) return link.destinationUrl
  const platform = platformOf(parseAgent(userAgent).os)
  const url = (platform === 'other' ? null : smart[platform])?.url ?? link.destinationUrl
  return clickId !== undefined && smart.appendClickId ? withClickId(url, clickId) : url
}
