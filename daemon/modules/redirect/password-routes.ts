import { parse as parseForm } from 'node:querystring'
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import type { Clock } from '../../clock.js'
import { AppError } from '../../http/errors.js'
import { clientKey } from '../../addresses.js'
import { evaluate, type LocalRateLimitStore } from '../../http/rate-limit.js'
import {
  messagePage,
  pageHeaders,
  PASSWORD_FORM_BYTES,
  PASSWORD_TRIES,
  PASSWORD_WINDOW_MS,
  passwordPage,
} from './protected.js'
import type { RedirectService } from './api.js'
import { sendAnswer, SHORT_CODE_URLS, visitRequest } from './reply.js'
import { userAgentOf } from './visit.js'

/**
 * `POST /:shortCode` (and `/:shortCode/`): the password form of a protected link. The right
 * password is the visit that counts (visit.ts decides its redirect); wrong ones are limited per
 * address and per link.
 */
export function passwordRoutes(deps: { redirect: RedirectService; clock: Clock }) {
  const { redirect } = deps
  return async function (app: FastifyInstance) {
    /** Wrong password tries per IP and link: this process's own windows (as the per-IP limits). */
    const tries: LocalRateLimitStore = app.linkd.localLimiter

    // Only urlencoded bodies up to PASSWORD_FORM_BYTES (this plugin's parsers; the API's JSON
    // parser does not apply here).
    app.removeAllContentTypeParsers()
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: PASSWORD_FORM_BYTES },
      (_request, body, done) => done(null, parseForm(body as string)),
    )

    const page = (reply: FastifyReply, status: number, title: string, message: string) =>
      pageHeaders(reply).code(status).send(messagePage(title, message))

    for (const url of SHORT_CODE_URLS)
      app.route<{
        Params: { shortCode: string }
        Querystring: Record<string, unknown>
        Body: Record<string, unknown> | undefined
      }>({
        method: 'POST',
        url,
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
          const req = visitRequest(request)
          const found = await redirect.lookup(request.host, code)
          const link = found.kind === 'redirect' || found.kind === 'gone' ? found.link : undefined
          if (link?.passwordHash === null) {
            reply.header('allow', 'GET, HEAD')
            return page(reply, 405, 'No password needed', 'This link takes no password: open it directly.')
          }
          // Expiry and maxClicks first (a look, no click taken): the visit answers 410 or expiredUrl.
          const open =
            link !== undefined &&
            found.kind === 'redirect' &&
            (link.maxClicks === null || (await redirect.capOpen(link)))
          if (link === undefined || !open)
            return sendAnswer(
              redirect,
              request,
              reply,
              redirect.decide(found, code, req, deps.clock.now(), { capOpen: open }),
            )
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
          const bucket = `pwd:${link.id}:${clientKey(request.ip)}`
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
          // The right password: this visit takes one of maxClicks (as a human unless a bot).
          const capOpen =
            link.maxClicks === null || (await redirect.takeCappedClick(link, 'GET', userAgentOf(req)))
          return sendAnswer(
            redirect,
            request,
            reply,
            redirect.decide(found, code, req, now, { capOpen, unlocked: true }),
          )
        },
      })
  }
}
