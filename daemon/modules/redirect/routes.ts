import { parse as parseForm } from 'node:querystring'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../../clock.js'
import { AppError } from '../../http/errors.js'
import { connectionKey } from '../../http/connections.js'
import { evaluate, type LocalRateLimitStore } from '../../http/rate-limit.js'
import { clickInput } from './click.js'
import { CACHE_CONTROL, locationOf, errorPage, ROOT_MESSAGE, rootPage, wantsHtml } from './pages.js'
import {
  isPreviewCrawler,
  messagePage,
  pageHeaders,
  PASSWORD_FORM_BYTES,
  PASSWORD_TRIES,
  PASSWORD_WINDOW_MS,
  passwordPage,
  previewPage,
} from './protected.js'
import type { ResolvedLink } from './cache.js'
import type { RedirectService } from './index.js'
import { DEVICE_PAGE_CSP, deviceAnswer, devicePage, needsDevicePage, REFERRER_PARAM } from './smart.js'

function fail(
  request: FastifyRequest,
  reply: FastifyReply,
  status: 404 | 410,
  message: string,
  html = () => errorPage(status, message),
) {
  reply.header('cache-control', 'no-store')
  if (wantsHtml(request.headers.accept)) {
    request.errorInfo = `${status === 410 ? 'Gone' : 'NotFound'}: ${message}`
    return reply.code(status).type('text/html; charset=utf-8').send(html())
  }
  throw new AppError(status === 410 ? 'Gone' : 'NotFound', message)
}

const ua = (request: FastifyRequest) => request.headers['user-agent']

/**
 * Every 3xx of the redirect: Location, Cache-Control and no body, `Content-Length: 0` for GET and
 * HEAD alike (as the fast path answers; docs/decisions/redirect-hot-path.md).
 */
function sendRedirect(reply: FastifyReply, status: number, location: string, cacheControl: string) {
  return reply
    .code(status)
    .header('location', location)
    .header('cache-control', cacheControl)
    .header('content-length', '0')
    .send()
}

type Found = { kind: 'done' } | { kind: 'link'; link: ResolvedLink; live: boolean }

/** The raw query string of a request ('' when none). */
const rawQueryOf = (url: string) => {
  const q = url.indexOf('?')
  return q === -1 ? '' : url.slice(q + 1)
}

/** `/<code>` and the request's query: a page's own links stay on this host whatever the request-target. */
const pathAndQuery = (code: string, url: string) => {
  const query = rawQueryOf(url)
  return query === '' ? `/${code}` : `/${code}?${query}`
}

/**
 * `GET|HEAD /:shortCode`: resolve by host + code, answer the link's redirect type with Location and
 * `Cache-Control: private, max-age=90`, buffer the click, reply. 404 for unknown or inactive
 * links, 410 for expired ones (JSON error body, or a small page when the client accepts HTML); `/`
 * itself is a 404 pointing at the API docs and the health check. A password-protected link
 * answers its form instead (`POST /:shortCode` checks the password), and a link with `og`
 * answers link-preview crawlers with its Open Graph page.
 */
export function redirectRoutes(deps: { redirect: RedirectService; clock: Clock }) {
  const { redirect } = deps
  return async function (app: FastifyInstance) {
    /** Wrong password tries per IP and link: this process's own windows (as the per-IP limits). */
    const tries: LocalRateLimitStore = app.linkd.localLimiter

    /** Looks the code up; answers 404 itself. `live`: not expired, maxClicks not used up. */
    async function find(request: FastifyRequest, reply: FastifyReply, code: string, take: boolean) {
      if (code === '') {
        await fail(request, reply, 404, ROOT_MESSAGE, rootPage)
        return { kind: 'done' } as Found
      }
      const found = await redirect.lookup(request.host, code)
      if (found.kind === 'reserved') {
        reply.callNotFound()
        return { kind: 'done' } as Found
      }
      if (found.kind === 'not-found') {
        await fail(request, reply, 404, `short link /${code} not found`)
        return { kind: 'done' } as Found
      }
      const link = found.link
      // A visit that ends in the password form or a preview page takes no click of maxClicks.
      const takes = take && link.passwordHash === null && !(link.og !== null && isPreviewCrawler(ua(request)))
      const live =
        found.kind === 'redirect' &&
        (link.maxClicks === null ||
          (takes
            ? await redirect.takeCappedClick(link, request.method, ua(request) ?? '')
            : await redirect.capOpen(link)))
      return { kind: 'link', link, live } as Found
    }

    function expired(request: FastifyRequest, reply: FastifyReply, link: ResolvedLink, code: string) {
      if (link.expiredUrl === null) return fail(request, reply, 410, `short link /${code} has expired`)
      // An expired link with an expiredUrl sends the visitor there; no click is counted.
      return sendRedirect(reply, 302, locationOf(link.expiredUrl), 'no-store')
    }

    const visitOf = (request: FastifyRequest) => ({
      headers: request.headers,
      ip: request.ip,
      rawQuery: rawQueryOf(request.url),
    })

    app.route<{ Params: { shortCode: string }; Querystring: Record<string, unknown> }>({
      method: ['GET', 'HEAD'],
      url: '/:shortCode',
      schema: { hide: true },
      config: { apiRateLimit: false },
      async handler(request, reply) {
        const code = request.params.shortCode
        const found = await find(request, reply, code, true)
        if (found.kind === 'done') return reply
        const link = found.link
        const preview = link.og !== null && isPreviewCrawler(ua(request))
        if (link.passwordHash !== null || preview) {
          // Expiry, startsAt and maxClicks first (find); the form and the preview take no click.
          if (!found.live) return expired(request, reply, link, code)
          pageHeaders(reply).code(200)
          if (preview) {
            // A crawler's visit: recorded, and counted as a bot by the clicks module.
            redirect.record(clickInput(link, deps.clock.now(), request))
            const to = link.passwordHash === null ? redirect.location(link, visitOf(request)) : null
            return request.method === 'HEAD' ? reply.send() : reply.send(previewPage(link, to))
          }
          return request.method === 'HEAD' ? reply.send() : reply.send(passwordPage(link, request.url))
        }
        if (!found.live) return expired(request, reply, link, code)

        // Safari on a "Mac" may be an iPad: its smart link visit asks the browser first (no click
        // yet); the visit the page sends back carries the answer and the Referer's host.
        const agent = ua(request) ?? ''
        const asked = needsDevicePage(link, agent) && request.method === 'GET'
        const answer = asked ? deviceAnswer(request.query) : undefined
        if (asked && answer === undefined)
          return pageHeaders(reply)
            .header('content-security-policy', DEVICE_PAGE_CSP)
            .code(200)
            .send(devicePage(pathAndQuery(code, request.url), request.headers.referer))

        // A smart link's human visit: one click id, in the click row and in Location.
        const clickId = redirect.clickIdFor(link, request.method, agent)
        const click = clickInput(link, deps.clock.now(), request)
        if (answer !== undefined) {
          const host = request.query[REFERRER_PARAM]
          click.referer = typeof host === 'string' && host !== '' ? `https://${host}/` : undefined
          click.ipad = answer === 'ipad'
        }
        redirect.record(clickId === undefined ? click : { ...click, clickId })
        const location = redirect.location(link, visitOf(request), clickId, answer === 'ipad')
        // A smart link's answer depends on the visitor (platform, click id): never reused.
        return sendRedirect(reply, link.redirectType, location, link.smart ? 'no-store' : CACHE_CONTROL)
      },
    })

    // The password form's POST: only urlencoded bodies up to PASSWORD_FORM_BYTES (this plugin's
    // parsers; the API's JSON parser does not apply here).
    app.removeAllContentTypeParsers()
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: PASSWORD_FORM_BYTES },
      (_request, body, done) => done(null, parseForm(body as string)),
    )

    const page = (reply: FastifyReply, status: number, title: string, message: string) =>
      pageHeaders(reply).code(status).send(messagePage(title, message))

    app.route<{
      Params: { shortCode: string }
      Querystring: Record<string, unknown>
      Body: Record<string, unknown> | undefined
    }>({
      method: 'POST',
      url: '/:shortCode',
      schema: { hide: true },
      config: { apiRateLimit: false },
      bodyLimit: PASSWORD_FORM_BYTES,
      // A bad form (too big, not urlencoded) gets a page, never the API's JSON error or a 500.
      errorHandler(err: FastifyError, request, reply) {
        if (err instanceof AppError) throw err
        if (err.statusCode === 413)
          return page(reply, 413, 'Form too large', 'The form was too large. Go back and try again.')
        if (err.statusCode !== undefined && err.statusCode < 500)
          return page(reply, 400, 'Bad form', 'Send the password form (application/x-www-form-urlencoded).')
        throw err
      },
      async handler(request, reply) {
        const code = request.params.shortCode
        const found = await find(request, reply, code, false)
        if (found.kind === 'done') return reply
        const link = found.link
        if (link.passwordHash === null) {
          reply.header('allow', 'GET, HEAD')
          return page(reply, 405, 'No password needed', 'This link takes no password: open it directly.')
        }
        if (!found.live) return expired(request, reply, link, code)
        const password = request.body?.password
        if (typeof password !== 'string' || password === '')
          return pageHeaders(reply)
            .code(400)
            .send(passwordPage(link, request.url, 'Enter the password.'))

        const now = deps.clock.now()
        // Locked after too many wrong tries from all addresses: the right password waits too.
        const lockedUntil = await redirect.passwordLockedUntil(link)
        if (lockedUntil !== undefined) {
          const retryAfter = Math.max(1, Math.ceil((lockedUntil - now) / 1000))
          reply.header('retry-after', String(retryAfter))
          return page(
            reply,
            429,
            'Link locked',
            `Too many wrong passwords were tried for this link. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
          )
        }
        // Per address: an IPv6 client counts per /64 (the block one host usually holds).
        const bucket = `pwd:${link.id}:${connectionKey(request.ip) ?? request.ip}`
        const used = tries.peek(bucket, PASSWORD_WINDOW_MS, now)
        if (used.count >= PASSWORD_TRIES) {
          const limit = evaluate(used, PASSWORD_TRIES, now)
          reply.header('retry-after', String(limit.retryAfter))
          return page(
            reply,
            429,
            'Too many tries',
            `Too many wrong passwords from your address. Try again in ${Math.ceil(limit.retryAfter / 60)} minute(s).`,
          )
        }
        if (!(await redirect.checkPassword(link, password))) {
          tries.hit(bucket, PASSWORD_WINDOW_MS, now)
          await redirect.wrongPassword(link)
          request.errorInfo = 'Unauthorized: wrong link password'
          return pageHeaders(reply)
            .code(401)
            .send(passwordPage(link, request.url, 'Wrong password. Try again.'))
        }
        // The right password: this is the visit that counts (once, as a human unless a bot).
        if (link.maxClicks !== null && !(await redirect.takeCappedClick(link, 'GET', ua(request) ?? '')))
          return expired(request, reply, link, code)
        const { ip, headers, query, receivedAt } = request
        redirect.record(clickInput(link, now, { method: 'GET', ip, headers, query, receivedAt }))
        const location = redirect.location(link, visitOf(request))
        // Always 302 (a 307/308 would send the password form on to the destination).
        return sendRedirect(reply, 302, location, 'no-store')
      },
    })
  }
}
