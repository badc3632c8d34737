/**
 * Errors for humans: what a failed command's error means for the person running it. Loaded only
 * when a command fails. A 401 says where the key came from; an answer that is not linkd's, or a
 * connection that failed because TLS met plain HTTP, is named as such in one line.
 */
import { connect as tlsConnect } from 'node:tls'
import type { Ctx, Target } from '../session/context.js'
import { CliError, EXIT } from '../session/exit-codes.js'
import { keySourceName, urlSourceName } from './key-source.js'
import { ApiError } from '../client/http.js'
import { escapeRegExp, inTermsOf, ordinal, shellWord } from '../format/terms.js'

/** How a refusal's fields are said: as the flags that set them, and a repeatable flag's items. */
export interface FlagTerms {
  names: Record<string, string>
  items: RepeatedFlag[]
}

/** A repeatable flag given on the command line, and the API field it fills (see `ActionExtra`). */
export interface RepeatedFlag {
  field: string
  flag: string
  keyed: boolean
  /** What each occurrence typed, when the option keeps it as written (not parsed into objects). */
  typed?: readonly string[]
}

interface HttpFailure extends Error {
  status?: number
  body?: { error?: string }
}

/**
 * The error to report instead of `err`, or `err` itself when there is nothing to add. `flags`:
 * the body fields the command sets with flags (see `action`).
 */
export async function explain(err: unknown, ctx: Ctx, flags?: FlagTerms): Promise<unknown> {
  if (!(err instanceof Error)) return err
  const target = await ctx.target().catch(() => undefined)
  if (!target) return err
  const failure = err as HttpFailure
  if (err.name === 'ApiError' && failure.status === 401 && failure.body?.error !== 'HttpError') {
    return new CliError(unauthorized(err.message, target), EXIT.auth, { cause: err })
  }
  const misplaced = noRouteUnderPath(err, target)
  if (misplaced) return misplaced
  // --json prints the API's own body, field names included.
  const said = err instanceof ApiError && flags && !ctx.json ? inFlagTerms(err, flags) : err
  if (said !== err) return said
  if (err.name === 'ConnectionError') return (await tlsMismatch(err, target.url)) ?? err
  // An error body that is not linkd's, or an answer a command could not read: is it linkd at all?
  const foreign = err.name === 'ApiError' ? failure.body?.error === 'HttpError' : err.name === 'TypeError'
  if (foreign && !(await looksLikeLinkd(ctx))) {
    return new CliError(`${target.url} does not look like linkd (no /api/use)`, EXIT.error)
  }
  return err
}

/** The refusal with each field the command sets by a flag named as that flag, in the message and the details. */
function inFlagTerms(err: ApiError, flags: FlagTerms): ApiError {
  const said = (text: string) => inTermsOf(flags.items.reduce(inItemTerms, text), flags.names)
  const message = said(err.message)
  const details = err.body.details?.map((d) => ({ ...d, field: d.field && said(d.field) }))
  if (message === err.message && !details?.some((d, i) => d.field !== err.body.details?.[i]?.field))
    return err
  return new ApiError(err.status, { ...err.body, message, ...(details ? { details } : {}) }, err.retryAfter)
}

/**
 * `text` with each item of a repeatable flag's field said as that occurrence: `allowedOrigins.0`
 * → `--allowed-origin notaurl` (what was typed), `rules.1.destinationUrl` → `the 2nd --rule's
 * destinationUrl`, `headers.Host` → `--header 'Host: x'`; the list itself, leading the text, as
 * the flag (`tags must have at most 20 items` → `--tag must…`).
 */
function inItemTerms(said: string, item: RepeatedFlag): string {
  const { field, flag, typed } = item
  // The whole list, as the subject of a refusal (`tags must have at most 20 items`).
  const text = said.replace(new RegExp(`^${escapeRegExp(field)}(?=$|[\\s:])`), flag)
  if (item.keyed)
    return text.replace(new RegExp(`\\b${escapeRegExp(field)}\\.([\\w-]+)`, 'g'), (all, key: string) => {
      const written = typed?.find((t) => t.split(/[:=]/)[0]!.trim().toLowerCase() === key.toLowerCase())
      return written === undefined ? all : `${flag} ${shellWord(written)}`
    })
  return text.replace(
    new RegExp(`\\b${escapeRegExp(field)}\\.(\\d+)((?:\\.\\w+)*)\\b`, 'g'),
    (_all, index: string, rest: string) => {
      const at = Number(index)
      const written = typed?.[at]
      const occurrence =
        written === undefined ? `the ${ordinal(at + 1)} ${flag}` : `${flag} ${shellWord(written)}`
      return rest ? `${occurrence}'s ${rest.slice(1)}` : occurrence
    },
  )
}

/**
 * linkd's 404 for a route it does not have, asked under the path of a URL that has one
 * (`--url http://host:8080/api`): linkd's address is its origin. Not "not found" (exit 5).
 */
function noRouteUnderPath(err: Error, target: Target): CliError | undefined {
  const url = new URL(target.url)
  if (!(err instanceof ApiError) || err.status !== 404 || url.pathname.replace(/\/+$/, '') === '')
    return undefined
  if (!err.message.startsWith('no route ')) return undefined
  return new CliError(
    `linkd has ${err.message}: ${target.url} (${urlSourceName(target)}) has a path; linkd's address is ${url.origin}`,
    EXIT.usage,
    { cause: err },
  )
}

function unauthorized(message: string, target: Target): string {
  if (!target.apiKey)
    return `${message} (HTTP 401): no API key was sent; run \`linkctl login\` or pass --api-key`
  const login =
    target.sources.apiKey === 'profile' ? `linkctl login --profile ${target.profile}` : 'linkctl login'
  return `${message} (HTTP 401): the key from ${keySourceName(target)} was refused; run \`${login}\` with a valid key`
}

/** GET /api/use answers linkd's discovery document. */
async function looksLikeLinkd(ctx: Ctx): Promise<boolean> {
  try {
    const doc = (await (await ctx.clientWithKey(undefined)).discovery()) as unknown
    return typeof doc === 'object' && doc !== null && Array.isArray((doc as { routes?: unknown }).routes)
  } catch {
    return false
  }
}

/** The socket error under fetch's "fetch failed". */
function socketError(err: Error): { code?: string; message: string } {
  let inner: unknown = err
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause
  return inner instanceof Error ? (inner as Error & { code?: string }) : { message: String(inner) }
}

/** https:// to a plain-HTTP port, or http:// to a TLS port, in one line. */
async function tlsMismatch(err: Error, url: string): Promise<CliError | undefined> {
  const parsed = new URL(url)
  const cause = socketError(err)
  if (parsed.protocol === 'https:') {
    if (cause.code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(cause.message))
      return new CliError(
        `${url} answers plain HTTP, not TLS: use ${url.replace(/^https:/, 'http:')}`,
        EXIT.error,
      )
    return undefined
  }
  // A TLS server drops a plain-HTTP request: try a TLS handshake on the same port.
  const refused = cause.code === 'ECONNREFUSED' || cause.code === 'ENOTFOUND'
  if (refused || !(await speaksTls(parsed))) return undefined
  return new CliError(`${url} speaks TLS, not plain HTTP: use ${url.replace(/^http:/, 'https:')}`, EXIT.error)
}

function speaksTls(url: URL): Promise<boolean> {
  const port = Number(url.port || 80)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, rejectUnauthorized: false })
    const done = (yes: boolean) => {
      socket.destroy()
      resolve(yes)
    }
    socket.setTimeout(3000, () => done(false))
    socket.once('secureConnect', () => done(true))
    socket.once('error', () => done(false))
  })
}
