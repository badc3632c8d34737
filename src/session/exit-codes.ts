/**
 * Exit codes of linkctl (`linkctl help exit-codes`) and the mapping of errors to them.
 * Kept free of heavy imports: the client's error classes (which set their `name`) are
 * recognised by name, so the client need not be loaded.
 */
import { CommanderError } from 'commander'
import { visible } from '../format/visible.js'

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 4,
  notFound: 5,
  conflict: 6,
  rateLimited: 7,
} as const

/** A long-running command stopped by a signal exits with the shell's code for it: 128 + its number. */
export const SIGNAL_EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES

export type ExitCode = (typeof EXIT)[keyof typeof EXIT] | (typeof SIGNAL_EXIT_CODES)[StopSignal]

export const EXIT_CODE_TABLE: readonly { code: ExitCode; meaning: string }[] = [
  { code: EXIT.ok, meaning: 'success' },
  { code: EXIT.error, meaning: 'error (daemon unreachable, validation failed, server error, invalid input)' },
  { code: EXIT.usage, meaning: 'usage error: bad flags or arguments, or a prompt needed without a TTY' },
  { code: EXIT.auth, meaning: 'authentication or permission failure (HTTP 401/403), or an invalid key' },
  { code: EXIT.notFound, meaning: 'not found (HTTP 404)' },
  { code: EXIT.conflict, meaning: 'conflict (HTTP 409)' },
  { code: EXIT.rateLimited, meaning: 'rate limited (HTTP 429)' },
  { code: SIGNAL_EXIT_CODES.SIGHUP, meaning: 'stopped by SIGHUP (the terminal closed), after cleaning up' },
  { code: SIGNAL_EXIT_CODES.SIGINT, meaning: 'stopped by Ctrl-C (SIGINT), after cleaning up' },
  { code: SIGNAL_EXIT_CODES.SIGTERM, meaning: 'stopped by SIGTERM, after cleaning up' },
]

export function exitCodesHelp(): string {
  const lines = EXIT_CODE_TABLE.map((r) => `  ${String(r.code).padEnd(4)} ${r.meaning}`)
  return `Exit codes of linkctl:\n\n${lines.join('\n')}\n`
}

/** A mistake in how linkctl was invoked (exit 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** A failure with a chosen exit code and a message for stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** `cause`: the API's error this one explains (its body is what --json prints). */
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'CliError'
  }
}

/**
 * A command that ran until a signal (`webhooks listen`, `fraud watch`) and has cleaned up: no
 * message, the signal's exit code.
 */
export class StoppedBySignal extends Error {
  readonly exitCode: ExitCode
  constructor(readonly signal: StopSignal) {
    super(`stopped by ${signal}`)
    this.name = 'StoppedBySignal'
    this.exitCode = SIGNAL_EXIT_CODES[signal]
  }
}

interface ApiErrorLike {
  name: 'ApiError'
  status: number
  message: string
  retryAfter: number | null
  body: { details?: { field: string; message: string }[] }
}

function isApiError(err: unknown): err is ApiErrorLike {
  return (
    err instanceof Error &&
    err.name === 'ApiError' &&
    typeof (err as { status?: unknown }).status === 'number'
  )
}

/** Commander's own errors (usage, help, version). By class: bundling may rename `name`. */
export function isCommanderError(err: unknown): err is CommanderError {
  return err instanceof CommanderError
}

export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth
  if (status === 404) return EXIT.notFound
  if (status === 409) return EXIT.conflict
  if (status === 429) return EXIT.rateLimited
  return EXIT.error
}

/** The exit code for anything thrown by a command. */
export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof UsageError) return EXIT.usage
  if (err instanceof CliError || err instanceof StoppedBySignal) return err.exitCode
  if (isApiError(err)) return exitCodeForStatus(err.status)
  if (isCommanderError(err)) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok
    return err.exitCode === 0 ? EXIT.ok : EXIT.usage
  }
  return EXIT.error
}

/**
 * The one spelling of a missing required option, commander's own (`required option '--type
 * <type>' not specified`), with what may stand in for it (an environment variable).
 */
export function missingOption(flags: string, alternative?: string): UsageError {
  return new UsageError(
    `required option '${flags}' not specified${alternative ? ` (or ${alternative})` : ''}`,
  )
}

/**
 * An error as JSON on stderr, for --json: the API's error body as it came (error, message,
 * statusCode, timestamp, path, details), with `hint` when linkctl explained it; a local error in
 * the same shape (`{"error":"UsageError","message":…,"exitCode":2}`).
 */
export function formatJsonError(err: unknown): string {
  const cause = err instanceof Error ? err.cause : undefined
  const api = isApiError(err) ? err : isApiError(cause) ? cause : undefined
  const message = (err instanceof Error ? err.message : String(err)).replace(/^error: /, '').trimEnd()
  const code = exitCodeFor(err)
  const body = api
    ? { ...api.body, ...(api !== err ? { hint: message } : {}) }
    : {
        error:
          code === EXIT.usage
            ? 'UsageError'
            : err instanceof Error && err.name === 'ConnectionError'
              ? 'ConnectionError'
              : 'CliError',
        message,
        exitCode: code,
      }
  return `${JSON.stringify(body)}\n`
}

/**
 * Each problem once: the validation details an error's message does not already state, as
 * "field message", or naming "field: " and holding the message (`url: A; B` states both). The
 * message of a lone detail (or one without a field) counts as stated when the message holds it in its own words: `short code "x" is already in use`
 * states `shortCode: already in use`; with several details, "is required" alone says too little.
 */
export function unstatedDetails<D extends { field: string; message: string }>(
  message: string,
  details: readonly D[] | undefined,
): D[] {
  const all = details ?? []
  return all.filter((d) =>
    d.field && all.length > 1
      ? !message.includes(`${d.field} ${d.message}`) &&
        !(message.includes(`${d.field}: `) && message.includes(d.message))
      : !message.includes(d.message),
  )
}

/**
 * An API error's message with its HTTP status, said once: a message that already ends with a
 * status (linkd quoting the server it called, as an export's store: "NoSuchBucket: … (HTTP 404)")
 * keeps that one, which names the cause; the exit code still follows linkd's own status.
 */
export function withStatus(message: string, status: number): string {
  return /\(HTTP \d{3}\)$/.test(message) ? message : `${message} (HTTP ${status})`
}

/** The lines printed to stderr for an error: `error: <message>`, then validation details. */
export function formatError(err: unknown): string {
  return visible(errorText(err))
}

function errorText(err: unknown): string {
  if (isApiError(err)) {
    let text = `error: ${withStatus(err.message, err.status)}`
    if (err.status === 429 && err.retryAfter !== null) text += ` (retry after ${err.retryAfter}s)`
    for (const d of unstatedDetails(err.message, err.body.details)) {
      text += `\n  ${d.field ? `${d.field}: ` : ''}${d.message}`
    }
    return `${text}\n`
  }
  const message = err instanceof Error ? err.message : String(err)
  return `error: ${message}\n`
}

/**
 * The API's refusal to change a short URL in use (QR codes, recent clicks): a 409 whose details
 * name `force`, which the same PATCH with `force: true` overrides. linkctl and the TUI ask first.
 */
export function isShortUrlInUse(err: unknown): err is Error & { status: 409 } {
  return isApiError(err) && err.status === 409 && (err.body.details ?? []).some((d) => d.field === 'force')
}
