/**
 * `linkctl events send <file|->`: sends game events to the ingestion endpoint with a game's SDK
 * key, as a game SDK would (handy to test an integration). Input: a batch object, an array of
 * events, or JSON lines (one event per line). Missing event_id / timestamp are filled in; the
 * events go in batches of 1,000, signed when a signing secret is given.
 */
import { createHmac, getRandomValues } from 'node:crypto'
import { uuid } from '../../../sdk/web/src/core.js'
import { readFile } from 'node:fs/promises'
import { gzipSync } from 'node:zlib'
import type { Command } from 'commander'
import type { IngestResult } from '../../contract/gaming.js'
import { INGEST_LIMITS } from '../../contract/limits.js'
import { ApiError } from '../../client/http.js'
import { action, jsonOption } from '../action.js'
import type { Ctx } from '../../session/context.js'
import {
  CliError,
  EXIT,
  exitCodeFor,
  formatError,
  missingOption,
  UsageError,
} from '../../session/exit-codes.js'
import { emit, note, plural, printRecord, printRows } from '../output.js'
import { readFailure } from '../sink.js'

/** A time-ordered id (UUIDv7) for an event or a batch, as the web SDK makes them. */
const newId = () => uuid((bytes) => getRandomValues(bytes), Date.now())

export interface SendOpts {
  source: string
  game?: string
  org?: string
  sdkKey?: string
  signingSecret?: string
  gzip?: boolean
}

export interface SendSummary {
  batches: number
  accepted: number
  flagged: number
  blocked: number
  duplicates: number
  rejected: number
  errors: Array<IngestResult['errors'][number] & { batchId: string }>
}

async function readInput(ctx: Ctx, source: string): Promise<string> {
  if (source !== '-')
    return readFile(source, 'utf8').catch((err: unknown) => {
      throw readFailure(source, err)
    })
  let text = ''
  for await (const chunk of ctx.stdin) text += String(chunk)
  return text
}

/** A batch object, an array of events, or JSON lines. */
export function parseEvents(text: string): Record<string, unknown>[] {
  const trimmed = text.trim()
  if (!trimmed) throw new UsageError('no events in the input')
  let parsed: unknown
  try {
    parsed = JSON.parse(trimmed)
  } catch {
    try {
      parsed = trimmed
        .split(/\r?\n/)
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as unknown)
    } catch {
      throw new UsageError('the input is neither JSON (a batch or an array of events) nor JSON lines')
    }
  }
  const events = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && Array.isArray((parsed as { events?: unknown }).events)
      ? (parsed as { events: unknown[] }).events
      : parsed && typeof parsed === 'object'
        ? [parsed]
        : undefined
  if (!events) throw new UsageError('the input must hold events')
  return events.map((e, i) => {
    if (!e || typeof e !== 'object' || Array.isArray(e))
      throw new UsageError(`event ${i + 1} is not an object`)
    return e as Record<string, unknown>
  })
}

const set = (v: string | undefined) => (v === undefined || v === '' ? undefined : v)

/** A setting from its flag, else its environment variable: the value and where it came from. */
function fromFlagOrEnv(
  flagValue: string | undefined,
  flag: string,
  envValue: string | undefined,
  env: string,
) {
  const value = set(flagValue) ?? set(envValue)
  return { value, from: value === undefined ? undefined : set(flagValue) ? flag : env }
}

/**
 * A 401 from ingestion refuses the SDK key (not the profile's API key, which it never sees), or,
 * when the daemon names X-Signature, the batch's signature (the key was right): said so, with
 * where the key or secret came from and how to get the game's current ones.
 */
function ingestRefused(
  err: unknown,
  from: { key: string; secret: string | undefined; org: string | undefined },
  game: string,
): unknown {
  if (!(err instanceof ApiError) || err.status !== 401) return err
  const current =
    `(\`linkctl games get ${game}\` shows its preview; ` +
    `\`linkctl games regenerate-key ${game}\` makes a new one)`
  const advice = !err.message.includes('X-Signature')
    ? from.org
      ? `the SDK key from ${from.key} or the organization id from ${from.org} was refused; use the game's ` +
        `organization id and current SDK key ${current}`
      : `the SDK key from ${from.key} was refused; use the game's current SDK key ${current}`
    : from.secret
      ? `the signing secret from ${from.secret} was refused; use the game's current signing secret ` +
        `(\`linkctl games regenerate-key ${game}\` makes a new one with a new SDK key)`
      : 'the game requires signed batches: give its signing secret with --signing-secret ' +
        '(or LINKCTL_SIGNING_SECRET)'
  return new CliError(`${err.message} (HTTP 401): ${advice}`, EXIT.auth, { cause: err })
}

/** The most a busy daemon (503) is waited for, in all, before the send gives up. */
const BUSY_WAIT_MAX_MS = 30_000

/**
 * A batch sent until stored: a 503 (ingestion queue full, nothing stored) is sent again with the
 * same batch_id after its Retry-After, as the daemon asks; any other error is the caller's.
 */
async function sendRetrying<T>(ctx: Ctx, attempt: () => Promise<T>, batchId: string): Promise<T> {
  let waited = 0
  for (;;) {
    try {
      return await attempt()
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 503) throw err
      const waitMs = Math.max(1, err.retryAfter ?? 1) * 1000
      if (waited + waitMs > BUSY_WAIT_MAX_MS) throw err
      note(ctx, `linkd is busy (HTTP 503): sending batch ${batchId} again in ${waitMs / 1000} s`)
      await new Promise((resolve) => setTimeout(resolve, waitMs))
      waited += waitMs
    }
  }
}

/** A failure after some batches were stored: which events went, so that only the rest is sent again. */
function partlySent(err: unknown, sent: number, total: number): unknown {
  // The error's own line ("… (HTTP 429)"), then what was stored.
  const line = formatError(err)
    .replace(/^error: /, '')
    .trimEnd()
  return new CliError(
    `${line}\nevents 1-${sent} of ${total} were stored before it, events ${sent + 1}-${total} were not: ` +
      'send only those again (an event without event_id gets a new one each time)',
    exitCodeFor(err),
    { cause: err instanceof CliError ? err.cause : err },
  )
}

export async function runEventsSend(o: SendOpts, ctx: Ctx): Promise<void> {
  const key = fromFlagOrEnv(o.sdkKey, '--sdk-key', ctx.env.LINKCTL_SDK_KEY, 'LINKCTL_SDK_KEY')
  const sdkKey = key.value
  const game = set(o.game) ?? set(ctx.env.LINKCTL_GAME)
  if (!sdkKey) throw missingOption('--sdk-key <key>', 'set LINKCTL_SDK_KEY')
  if (!game) throw missingOption('--game <id>', 'set LINKCTL_GAME')
  const signing = fromFlagOrEnv(
    o.signingSecret,
    '--signing-secret',
    ctx.env.LINKCTL_SIGNING_SECRET,
    'LINKCTL_SIGNING_SECRET',
  )
  const secret = signing.value
  // Looked up with the API key, the organization is the game's: a 401 is the SDK key's.
  const given = fromFlagOrEnv(o.org, '--org', ctx.env.LINKCTL_ORG_ID, 'LINKCTL_ORG_ID')
  let org = given.value
  const text = await readInput(ctx, o.source)
  if (!org) {
    // The organization of the game, looked up with the API key when one is configured.
    const t = await ctx.target()
    if (!t.apiKey) throw missingOption('--org <id>', 'set LINKCTL_ORG_ID, or give an API key to look it up')
    org = (
      await (await ctx.client()).games.get(game).catch((err: unknown) => {
        // Only the lookup needs the API key: a key without games:read is told the way around it.
        if (!(err instanceof ApiError) || err.status !== 403) throw err
        throw new CliError(
          `${err.message} (HTTP 403): the API key looks up the organization of game ${game}; ` +
            'give it with --org <id> (or LINKCTL_ORG_ID) instead',
          EXIT.auth,
          { cause: err },
        )
      })
    ).organizationId
  }
  const events = parseEvents(text).map((e) => ({
    ...e,
    event_id: e.event_id ?? newId(),
    timestamp: e.timestamp ?? new Date().toISOString(),
  }))
  const client = await ctx.clientWithKey(sdkKey)
  const summary: SendSummary = {
    batches: 0,
    accepted: 0,
    flagged: 0,
    blocked: 0,
    duplicates: 0,
    rejected: 0,
    errors: [],
  }
  const send = async (slice: Record<string, unknown>[], batchId: string) => {
    const text = JSON.stringify({
      batch_id: batchId,
      batch_timestamp: new Date().toISOString(),
      events: slice,
    })
    const body = o.gzip ? gzipSync(text) : Buffer.from(text)
    const headers: Record<string, string> = { 'x-game-id': game, 'x-organization-id': org }
    if (o.gzip) headers['content-encoding'] = 'gzip'
    if (secret) {
      const ts = String(Date.now())
      headers['x-timestamp'] = ts
      headers['x-signature'] =
        `sha256=${createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex')}`
    }
    return client.gaming.sendEvents(body, headers)
  }
  for (let i = 0; i < events.length; i += INGEST_LIMITS.eventsPerBatch) {
    const slice = events.slice(i, i + INGEST_LIMITS.eventsPerBatch)
    // One batch_id for every attempt of the batch: a resent one is stored once.
    const batchId = newId()
    const r = await sendRetrying(ctx, () => send(slice, batchId), batchId).catch((err: unknown) => {
      const refused = ingestRefused(err, { key: key.from!, secret: signing.from, org: given.from }, game)
      throw i === 0 ? refused : partlySent(refused, i, events.length)
    })
    summary.batches++
    summary.accepted += r.accepted
    summary.flagged += r.flagged
    summary.blocked += r.blocked
    summary.duplicates += r.duplicates
    summary.rejected += r.rejected
    for (const e of r.errors) summary.errors.push({ ...e, index: e.index + i, batchId: r.batchId })
  }
  await emit(ctx, summary, async () => {
    await printRecord(ctx, [
      ['BATCHES', summary.batches],
      ['ACCEPTED', summary.accepted],
      ['FLAGGED', summary.flagged],
      ['BLOCKED', summary.blocked],
      ['DUPLICATES', summary.duplicates],
      ['REJECTED', summary.rejected],
    ])
    if (summary.errors.length) {
      note(ctx, 'Events not stored (rejected or blocked):')
      await printRows(ctx, summary.errors, [
        // From 1, as the input counts them and as "events 1-N were stored" says (JSON: the API's index).
        { header: '#', value: (e) => e.index + 1 },
        { header: 'EVENT', value: (e) => e.eventId },
        { header: 'ERROR', value: (e) => e.error },
        { header: 'MESSAGE', value: (e) => e.message },
      ])
    }
  })
  if (summary.rejected > 0) {
    throw new CliError(
      `${summary.rejected} of ${plural(events.length, 'event')} ${summary.rejected === 1 ? 'was' : 'were'} rejected`,
      EXIT.error,
    )
  }
}

export function register(program: Command): void {
  const events = program.command('events').description('send game events (test an SDK integration)')
  jsonOption(
    events
      .command('send')
      .description(
        'send events from a file or - (stdin): a batch, an array of events or JSON lines, in batches of 1,000 with the SDK key (event_id and timestamp filled in); exit 1 when any is rejected',
      )
      .argument('<file>', 'file with the events, or - for stdin')
      .option('--game <id>', 'game id (required, or env LINKCTL_GAME)')
      .option('--org <id>', 'organization id (env LINKCTL_ORG_ID; looked up with the API key when left out)')
      .option('--sdk-key <key>', 'the game SDK key (required, or env LINKCTL_SDK_KEY)')
      .option('--signing-secret <secret>', 'sign batches with HMAC-SHA256 (env LINKCTL_SIGNING_SECRET)')
      .option('--gzip', 'compress the batches (Content-Encoding: gzip)'),
  ).action(
    action<Omit<SendOpts, 'source'>>(([source], opts, ctx) =>
      runEventsSend({ ...opts, source: source ?? '-' }, ctx),
    ),
  )
}
