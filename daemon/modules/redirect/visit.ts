/**
 * One decision per visit of a short link, made here for both redirect paths (the fast path in
 * fast-path.ts and the Fastify routes, which only turn the answer into bytes or a reply): the 3xx
 * and its Location (rules, forwarded query, a smart link's target), a page (password form, Open
 * Graph preview, device page), or 404/410, with the click the visit records.
 */
import { botReason, type ClickInput } from '../clicks/index.js'
import type { ResolvedLink } from './cache.js'
import { clickInput, USER_AGENT_MAX, type RedirectRequest } from './click.js'
import { needsVisit, targetOf, type CountryOf } from './options.js'
import { CACHE_CONTROL, ROOT_MESSAGE } from './pages.js'
import { locationOf } from '../../urls.js'
import { flaggedPage, isPreviewCrawler, passwordPage, previewPage } from './protected.js'
import type { VisitAnswer, Visitor, VisitRequest } from './api.js'
import {
  DEVICE_PAGE_CSP,
  deviceAnswer,
  devicePage,
  needsDevicePage,
  newClickId,
  REFERRER_PARAM,
  smartTarget,
} from './smart-target.js'
import { bucketOf, variantAt } from './variants.js'

/** The daily visitor hash of a visit (the clicks module's). */
export type VisitorHash = (ts: number, ip: string, userAgent: string) => string

/**
 * Whether a visit of the link takes one of its maxClicks: a visit that ends in the password form,
 * a preview page or the warning page of a flagged link does not (the unlocked visit after the form does).
 */
export function takesClick(link: ResolvedLink, req: Pick<RedirectRequest, 'headers'>): boolean {
  return (
    link.flagged === null &&
    link.passwordHash === null &&
    !(link.og !== null && isPreviewCrawler(req.headers['user-agent']))
  )
}

/** The request's User-Agent ('' when none). */
export const userAgentOf = (req: Pick<RedirectRequest, 'headers'>) => {
  const ua = req.headers['user-agent']
  return typeof ua === 'string' ? ua : ''
}

/** The answer of an expired link: its expiredUrl (302, no click), else 410. */
function expired(link: ResolvedLink, code: string): VisitAnswer {
  if (link.expiredUrl === null)
    return { kind: 'error', status: 410, message: `short link /${code} has expired` }
  return { kind: 'redirect', status: 302, location: locationOf(link.expiredUrl), cacheControl: 'no-store' }
}

/**
 * The visit decision; `countryOf` answers `country` rules, `visitorHash` picks a variant (the
 * visitor keeps it for the UTC day).
 */
export function createVisitor(countryOf: CountryOf, visitorHash: VisitorHash): Visitor {
  /** The visit's variant of a link with variants; its click records it (and the hash, not worked out twice). */
  function variant(
    link: ResolvedLink,
    req: VisitRequest,
    now: number,
    click: ClickInput | undefined,
  ): string {
    const hashed = visitorHash(now, req.ip, userAgentOf(req).slice(0, USER_AGENT_MAX))
    const url = variantAt(link.variants, bucketOf(hashed, link.id)).destinationUrl
    if (click) {
      click.variant = url
      click.visitorHash = hashed
    }
    return url
  }

  /**
   * Where a visit of a redirecting link goes: rules first, then the visit's variant (a smart
   * link: its platform's target, then the variant of its fallback); a smart link's target
   * carries `clickId`.
   */
  function location(
    link: ResolvedLink,
    req: VisitRequest,
    now: number,
    click: ClickInput | undefined,
    clickId?: string,
    ipad = false,
  ): string {
    const split = link.variants.length ? () => variant(link, req, now, click) : undefined
    if (link.smart) return locationOf(smartTarget(link, userAgentOf(req), clickId, ipad, split))
    // A link without rules or variants visited without a query goes to its own destination.
    if (!needsVisit(link, req.rawQuery)) return locationOf(link.destinationUrl)
    return locationOf(targetOf(link, req, countryOf, split))
  }

  return function visit(found, code, req, now, opts) {
    if (code === '') return { kind: 'error', status: 404, message: ROOT_MESSAGE, root: true }
    if (found.kind === 'reserved') return found
    if (found.kind === 'not-found')
      return { kind: 'error', status: 404, message: `short link /${code} not found` }
    const link = found.link
    // A destination on a safety list: the warning page before anything could lead there (the
    // visit is recorded as blocked, never as a human click).
    if (link.flagged !== null)
      return {
        kind: 'page',
        body: req.method === 'HEAD' ? undefined : flaggedPage(link, link.flagged),
        click: { ...clickInput(link, now, req), blocked: true },
      }
    // Expiry, startsAt (the lookup) and maxClicks come first: an expired link has no form or preview.
    if (found.kind === 'gone' || !opts.capOpen) return expired(link, code)

    if (opts.unlocked) {
      // Always 302 (a 307/308 would send the password form on to the destination); the click is
      // the visit's GET, as a human unless a bot.
      const click = clickInput(link, now, { ...req, method: 'GET' })
      const to = location(link, req, now, click)
      return { kind: 'redirect', status: 302, location: to, cacheControl: 'no-store', click }
    }
    const head = req.method === 'HEAD'
    if (link.og !== null && isPreviewCrawler(req.headers['user-agent'])) {
      // A crawler's visit: recorded (the clicks module counts it as a bot); a protected link's
      // preview never shows the destination.
      const click = clickInput(link, now, req)
      const to = link.passwordHash === null ? location(link, req, now, click) : null
      return { kind: 'page', body: head ? undefined : previewPage(link, to), click }
    }
    if (link.passwordHash !== null)
      return { kind: 'page', body: head ? undefined : passwordPage(link, req.url) }

    // Safari on a "Mac" may be an iPad: its smart link visit asks the browser first (no click
    // yet); the visit the page sends back carries the answer and the Referer's host.
    const agent = userAgentOf(req)
    const asked = req.method === 'GET' && needsDevicePage(link, agent)
    const answer = asked ? deviceAnswer(req.query) : undefined
    if (asked && answer === undefined) {
      const back = req.rawQuery === '' ? `/${code}` : `/${code}?${req.rawQuery}`
      return { kind: 'page', body: devicePage(back, req.headers.referer), csp: DEVICE_PAGE_CSP }
    }

    const click = clickInput(link, now, req)
    if (answer !== undefined) {
      const host = req.query?.[REFERRER_PARAM]
      click.referer = typeof host === 'string' && host !== '' ? `https://${host}/` : undefined
      click.ipad = answer === 'ipad'
    }
    if (!link.smart)
      return {
        kind: 'redirect',
        status: link.redirectType,
        location: location(link, req, now, click),
        cacheControl: CACHE_CONTROL,
        click,
      }
    // A smart link's human visit: one click id, in the click row and in Location. Its answer
    // depends on the visitor (platform, click id): never reused.
    const clickId = botReason(req.method, agent) === null ? newClickId() : undefined
    if (clickId !== undefined) click.clickId = clickId
    const to = location(link, req, now, click, clickId, answer === 'ipad')
    return { kind: 'redirect', status: link.redirectType, location: to, cacheControl: 'no-store', click }
  }
}
