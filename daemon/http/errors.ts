import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ERROR_TYPES, type ErrorBody, type ErrorType } from '../../src/contract/common.js'
import { validationDetails, type AjvIssue, type ErrorDetail } from './validation-details.js'
import { postgresProblem } from '../socket-errors.js'
export type { ErrorDetail }

/** The one error type services throw; the handler below turns it into the error body (ErrorBody). */
export class AppError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.name = 'AppError'
  }
  get status(): number {
    return ERROR_TYPES[this.type]
  }
}

export const notFound = (what: string) => new AppError('NotFound', `${what} not found`)
/**
 * A 400 about one field: "field message" when the message goes on from the field (`gameId is
 * required to export raw_events`), "field: message" when it is a sentence of its own.
 */
export const validation = (field: string, message: string) =>
  new AppError('ValidationError', `${field}${/^(is|must|may|has) /.test(message) ? ' ' : ': '}${message}`, [
    { field, message },
  ])

export function errorBody(
  request: FastifyRequest,
  type: string,
  status: number,
  message: string,
  details?: ErrorDetail[],
): ErrorBody {
  return {
    error: type,
    message,
    statusCode: status,
    timestamp: new Date().toISOString(),
    path: request.url.split('?')[0] ?? request.url,
    ...(details ? { details } : {}),
  }
}

/** Problems listed in `details` at most (the message counts them all): every field of a real
 * body gets its detail, and a body with thousands of unknown fields still gets a bounded answer. */
export const MAX_DETAILS = 100

/**
 * One 400 for several field problems: the message states the first (`lead`, default
 * "field message") and counts the others; `details` lists them all, up to MAX_DETAILS.
 */
export function validationError(details: ErrorDetail[], lead?: string): AppError {
  const first = details[0]
  const head = lead ?? (first ? `${first.field} ${first.message}` : 'invalid request')
  const message = head + (details.length > 1 ? ` (and ${details.length - 1} more)` : '')
  return new AppError('ValidationError', message, details.slice(0, MAX_DETAILS))
}

/**
 * The field problems of one request, collected so that one 400 names them all: a check that
 * throws a ValidationError is recorded (all its details) and the next check runs; any other
 * error (404, 409, 422) goes on at once. `done()` throws the 400 when a check failed.
 */
export function collectProblems() {
  const errors: AppError[] = []
  const record = (err: unknown): undefined => {
    if (!(err instanceof AppError) || err.type !== 'ValidationError') throw err
    errors.push(err)
    return undefined
  }
  return {
    /** `check()`'s value, or undefined when it failed (recorded). */
    check<T>(check: () => T): T | undefined {
      try {
        return check()
      } catch (err) {
        return record(err)
      }
    },
    async checkAsync<T>(check: () => Promise<T>): Promise<T | undefined> {
      try {
        return await check()
      } catch (err) {
        return record(err)
      }
    },
    add(field: string, message: string): void {
      errors.push(validation(field, message))
    },
    get failed(): boolean {
      return errors.length > 0
    },
    done(): void {
      if (errors.length === 0) return
      const [first] = errors as [AppError, ...AppError[]]
      if (errors.length === 1) throw first
      const details = errors.flatMap((e) => e.details ?? [{ field: 'body', message: e.message }])
      // The others are counted after the first error's own message (when it states one problem).
      throw validationError(details, (first.details?.length ?? 1) === 1 ? first.message : undefined)
    },
  }
}

const FASTIFY_CODES: Record<string, ErrorType> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'ValidationError',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'ValidationError',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PayloadTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UnsupportedMediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'ValidationError',
  FST_ERR_CTP_INVALID_TYPE: 'ValidationError',
}

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  type: string,
  status: number,
  message: string,
  details?: ErrorDetail[],
) {
  request.errorInfo = `${type}: ${message}`
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(request, type, status, message, details))
}

/**
 * A database that cannot answer now, which a retry may find answering: SQLite locked by another
 * process (an offline `linkd` command), PostgreSQL unreachable, restarting or shutting down
 * connections (SQLSTATE class 08, 57P01-57P03).
 */
function databaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown }).code
  if (typeof code === 'string' && (/^SQLITE_(BUSY|LOCKED)/.test(code) || /^(08...|57P0[123])$/.test(code)))
    return true
  return postgresProblem(err) !== undefined
}

/** 500 without internals; the request id (in the logs with the error) is the way back to it. */
function internalError(reply: FastifyReply, request: FastifyRequest) {
  return send(
    reply,
    request,
    'InternalError',
    500,
    'internal server error; the request id is in X-Request-Id',
  )
}

/** The part of the request a validation context names. */
function validatedPart(request: FastifyRequest, context: string | undefined): unknown {
  if (context === 'body') return request.body
  if (context === 'querystring') return request.query
  if (context === 'params') return request.params
  if (context === 'headers') return request.headers
  return undefined
}

/** The route's schema of the part a validation context names. */
function validatedSchema(request: FastifyRequest, context: string | undefined): unknown {
  const schema = request.routeOptions.schema as Record<string, unknown> | undefined
  return context ? schema?.[context] : undefined
}

/** Installs the error and not-found handlers: every non-2xx carries the error body, never a stack. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers)
      return send(reply, request, err.type, err.status, err.message, err.details)
    }
    const fe = err as FastifyError & { validationContext?: string }
    if (fe.validation) {
      const details = validationDetails(
        fe.validation as AjvIssue[],
        fe.validationContext,
        validatedPart(request, fe.validationContext),
        validatedSchema(request, fe.validationContext),
      )
      const e = validationError(details)
      return send(reply, request, e.type, e.status, e.message, e.details)
    }
    const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined
    if (mapped) {
      const status = ERROR_TYPES[mapped]
      const message =
        mapped === 'PayloadTooLarge'
          ? `request body is too large: this endpoint takes at most ${sizeOf(request.routeOptions.bodyLimit)}`
          : mapped === 'UnsupportedMediaType'
            ? `unsupported content type ${JSON.stringify(request.headers['content-type'] ?? '')}; send application/json`
            : fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'request body is empty but content-type is application/json'
              : fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
                ? 'request body is not valid JSON'
                : fe.message
      return send(
        reply,
        request,
        mapped,
        status,
        message,
        mapped === 'ValidationError' ? [{ field: 'body', message }] : undefined,
      )
    }
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500
    if (status >= 400 && status < 500) {
      const type = (Object.entries(ERROR_TYPES).find(([, s]) => s === status)?.[0] ??
        'ValidationError') as ErrorType
      return send(
        reply,
        request,
        type,
        status,
        fe.message,
        type === 'ValidationError' ? [{ field: 'request', message: fe.message }] : undefined,
      )
    }
    request.log.error({ err }, 'unhandled error')
    if (databaseUnavailable(err)) {
      reply.header('retry-after', '1')
      return send(reply, request, 'ServiceUnavailable', 503, 'the database is busy or does not answer; retry')
    }
    return internalError(reply, request)
  })

  app.setNotFoundHandler((request, reply) => {
    return send(
      reply,
      request,
      'NotFound',
      404,
      `no route ${request.method} ${request.url.split('?')[0] ?? ''}`,
    )
  })
}

/**
 * Fastify's `frameworkErrors` option: a malformed URL or an over-long path parameter is rejected by
 * the router before any hook runs; answer with the error body too (and the per-IP rate limit, via
 * `beforeReply`) instead of Fastify's own body.
 */
export function frameworkErrorHandler(
  beforeReply: () => ((request: FastifyRequest, reply: FastifyReply) => void) | undefined,
) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', request.id)
    reply.header('x-content-type-options', 'nosniff')
    try {
      beforeReply()?.(request, reply)
    } catch (e) {
      if (e instanceof AppError) {
        if (e.headers) reply.headers(e.headers)
        return send(reply, request, e.type, e.status, e.message, e.details)
      }
      throw e
    }
    if (err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      const message = err.code === 'FST_ERR_BAD_URL' ? 'the URL is malformed' : 'a path parameter is too long'
      return send(reply, request, 'ValidationError', 400, message, [{ field: 'url', message }])
    }
    request.log.error({ err }, 'router error')
    return internalError(reply, request)
  }
}

/** The request-target's path of a request line (`GET /a?b HTTP/1.1`), when the bytes hold one. */
function pathOfRawRequest(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 4096).toString('latin1').split('\r\n', 1)[0] ?? ''
  const m = /^[A-Z]+ (\S+) HTTP\/\d\.\d$/.exec(line)
  return m ? (m[1]!.split('?')[0] ?? '').slice(0, 2048) : ''
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (header fields over
 * --max-http-header-size, 16 KB by default; malformed HTTP; a request not received in time). The
 * answer is written on the socket here, with the error body every other error carries (the path
 * when the request line could be read, else ''). Used as Fastify's `clientErrorHandler` and as
 * the `clientError` listener of the HTTPS server.
 */
export function clientErrorHandler(
  err: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  let status: number
  let type: ErrorType
  let message: string
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431
    type = 'RequestHeaderFieldsTooLarge'
    message = 'the request header fields are too large (at most 16 KB in all)'
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408
    type = 'RequestTimeout'
    message = 'the request was not received in time'
  } else {
    status = 400
    type = 'ValidationError'
    message = 'the request is not valid HTTP/1.1'
  }
  const body: ErrorBody = {
    error: type,
    message,
    statusCode: status,
    timestamp: new Date().toISOString(),
    path: pathOfRawRequest(Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined),
    ...(status === 400 ? { details: [{ field: 'request', message }] } : {}),
  }
  const text = JSON.stringify(body)
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(text)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        text,
    )
  socket.destroy()
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Error type and message of a failed request, for the key activity log. */
    errorInfo?: string
  }
}

/** A body limit in words (`1 MB`, `20.1 MB`, `512 KB`). */
function sizeOf(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`
}
