import type { ErrorBody } from '../contract/common.js'

export interface ClientOptions {
  baseUrl: string
  apiKey?: string | undefined
  /** Per-request timeout, ms. */
  timeoutMs?: number
  userAgent?: string
}

/** A binary (or non-JSON) response body, e.g. a QR code image. */
export interface BytesResponse {
  status: number
  contentType: string
  body: Buffer
  headers: Record<string, string | string[] | undefined>
}

export interface RateLimitHeaders {
  limit: number | null
  remaining: number | null
  reset: number | null
}

export interface ApiResponse<T> {
  status: number
  body: T
  headers: Record<string, string | string[] | undefined>
  rateLimit: RateLimitHeaders
}

/** A non-2xx answer from the daemon, carrying its error body (ErrorBody). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly retryAfter: number | null,
  ) {
    super(body.message)
    this.name = 'ApiError'
  }
}

/** The daemon could not be reached at all. */
export class ConnectionError extends Error {
  constructor(
    readonly baseUrl: string,
    cause: unknown,
  ) {
    super(`cannot reach linkd at ${baseUrl}: ${reason(cause)}`)
    this.name = 'ConnectionError'
  }
}

type Query = Record<string, string | number | boolean | undefined>
export interface RequestOptions {
  query?: Query | undefined
  body?: unknown
  /** Bytes sent as they are (signed or compressed bodies); set the content type in `headers`. */
  rawBody?: Buffer | string
  headers?: Record<string, string>
  idempotencyKey?: string
  /** This request's timeout, ms (default the client's). */
  timeoutMs?: number
}

/** What went wrong, from fetch's error ("fetch failed" carries the socket error as its cause). */
function reason(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return 'no answer in time'
  const inner = err instanceof Error && err.cause instanceof Error ? err.cause : err
  return inner instanceof Error ? inner.message : String(inner)
}

/** JSON.parse, or undefined when the text is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function num(v: string | string[] | undefined): number | null {
  const s = Array.isArray(v) ? v[0] : v
  if (s === undefined) return null
  const n = Number(s)
  return Number.isFinite(n) ? n : null
}

/** Status and headers of an answer (header names in lower case). */
interface Answer {
  statusCode: number
  headers: Record<string, string>
}

/** What the client's namespaces (keys.ts, links.ts, …) send their requests with. */
export interface Requests {
  call: HttpClient['call']
  bytes: HttpClient['bytes']
  stream: HttpClient['stream']
  /** `call`'s 2xx body. */
  data<T>(method: string, path: string, opts?: RequestOptions): Promise<T>
}

/**
 * The HTTP side of the typed client (index.ts): requests with the API key, answers parsed,
 * non-2xx answers as ApiError, no answer as ConnectionError.
 */
export class HttpClient {
  readonly baseUrl: string
  private readonly apiKey: string | undefined
  private readonly timeoutMs: number
  private readonly userAgent: string

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '')
    this.apiKey = opts.apiKey
    this.timeoutMs = opts.timeoutMs ?? 30_000
    this.userAgent = opts.userAgent ?? 'linkctl'
  }

  /**
   * Sends one request and returns the raw answer with its body as bytes; a non-2xx answer
   * becomes ApiError (with the error body when the daemon sent one), no answer ConnectionError.
   */
  private async send(
    method: string,
    path: string,
    opts: RequestOptions,
    accept: string,
  ): Promise<{ res: Answer; body: Buffer }> {
    const { res, answer, url } = await this.fetchAnswer(method, path, opts, accept)
    let bytes: Buffer
    try {
      bytes = Buffer.from(await answer.arrayBuffer())
    } catch (err) {
      throw new ConnectionError(this.baseUrl, err)
    }
    if (res.statusCode >= 400) this.fail(res, bytes, url)
    return { res, body: bytes }
  }

  /** The answer's head; its body is still to read. */
  private async fetchAnswer(
    method: string,
    path: string,
    opts: RequestOptions,
    accept: string,
  ): Promise<{ res: Answer; answer: Response; url: URL }> {
    const url = new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`))
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v))
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept }
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`
    if (opts.idempotencyKey) headers['x-idempotency-key'] = opts.idempotencyKey
    let body: string | Buffer | undefined
    if (opts.rawBody !== undefined) body = opts.rawBody
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body)
      headers['content-type'] = 'application/json'
    }
    Object.assign(headers, opts.headers)
    try {
      // Node's own fetch: loading the undici package costs a CLI command ~100 ms of start-up.
      const answer = await fetch(url, {
        method: method.toUpperCase(),
        headers,
        ...(body !== undefined ? { body } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs),
      })
      return { res: { statusCode: answer.status, headers: Object.fromEntries(answer.headers) }, answer, url }
    } catch (err) {
      throw new ConnectionError(this.baseUrl, err)
    }
  }

  /** A non-2xx answer as ApiError, with the daemon's error body when it sent one. */
  private fail(res: Answer, bytes: Buffer, url: URL): never {
    const parsed = parseJson(bytes.toString('utf8'))
    const errBody: ErrorBody =
      parsed && typeof parsed === 'object' && 'error' in parsed
        ? (parsed as ErrorBody)
        : {
            error: 'HttpError',
            message: `HTTP ${res.statusCode}`,
            statusCode: res.statusCode,
            timestamp: new Date().toISOString(),
            path: url.pathname,
          }
    throw new ApiError(res.statusCode, errBody, num(res.headers['retry-after']))
  }

  /**
   * Like `bytes`, but the 2xx body is streamed as it arrives (exports of up to a million rows):
   * constant memory whatever the size. A non-2xx answer throws ApiError before any chunk.
   */
  async stream(
    path: string,
    opts: RequestOptions = {},
  ): Promise<{ headers: Answer['headers']; body: AsyncIterable<Uint8Array> }> {
    const { res, answer, url } = await this.fetchAnswer('GET', path, opts, '*/*')
    if (res.statusCode >= 400) {
      let bytes: Buffer
      try {
        bytes = Buffer.from(await answer.arrayBuffer())
      } catch (err) {
        throw new ConnectionError(this.baseUrl, err)
      }
      this.fail(res, bytes, url)
    }
    const reader = answer.body
    const baseUrl = this.baseUrl
    async function* chunks(): AsyncGenerator<Uint8Array> {
      if (!reader) return
      try {
        for await (const chunk of reader) yield chunk
      } catch (err) {
        throw new ConnectionError(baseUrl, err)
      }
    }
    return { headers: res.headers, body: chunks() }
  }

  /** Any endpoint; throws ApiError on non-2xx. */
  async call<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const { res, body } = await this.send(method, path, opts, 'application/json')
    const text = body.toString('utf8')
    const rateLimit = {
      limit: num(res.headers['x-ratelimit-limit']),
      remaining: num(res.headers['x-ratelimit-remaining']),
      reset: num(res.headers['x-ratelimit-reset']),
    }
    const parsed = text.length > 0 ? (parseJson(text) ?? text) : undefined
    return { status: res.statusCode, body: parsed as T, headers: res.headers, rateLimit }
  }

  /** Like `call`, but the 2xx body is returned as bytes with its content type (images, files). */
  async bytes(method: string, path: string, opts: RequestOptions = {}): Promise<BytesResponse> {
    const { res, body } = await this.send(method, path, opts, '*/*')
    const ct = res.headers['content-type']
    const contentType = (Array.isArray(ct) ? ct[0] : ct) ?? 'application/octet-stream'
    return { status: res.statusCode, contentType, body, headers: res.headers }
  }

  private async data<T>(method: string, path: string, opts?: RequestOptions): Promise<T> {
    return (await this.call<T>(method, path, opts)).body
  }

  /** The namespaces' way in (`data` stays private to the client's public API). */
  protected readonly requests: Requests = {
    call: (method, path, opts) => this.call(method, path, opts),
    bytes: (method, path, opts) => this.bytes(method, path, opts),
    stream: (path, opts) => this.stream(path, opts),
    data: (method, path, opts) => this.data(method, path, opts),
  }
}
