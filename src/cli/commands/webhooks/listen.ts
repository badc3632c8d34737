/**
 * `linkctl webhooks listen`: a local receiver that verifies and prints each delivery (200 or 401).
 * With --forward-to URL (like `stripe listen`) it creates a temporary webhook pointing at itself,
 * forwards verified deliveries to URL, answers with URL's status, and deletes the webhook on exit.
 */
import type { IncomingHttpHeaders, Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { Option, type Command } from 'commander'
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import { stopSignals, StoppedBySignal, type StopSignal, type StopSignals } from '../../../session/signals.js'
import { helpText, note, printLine, utcMinute, warn } from '../../output.js'
import { commaChoices, intArg } from '../../parse.js'
import { secretOf, secretOpt, signatureModule } from './shared.js'

export interface Listener {
  url: string
  server: Server
  close(): Promise<void>
}

/** What a forwarding listener adds: the secret known once the webhook exists, and the target. */
export interface ForwardOptions {
  secret?: () => string | undefined
  forwardTo?: string
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

/** Headers of the connection, not of the message: not copied when forwarding. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
])

/** How long the forward target has to answer. */
const FORWARD_TIMEOUT_MS = 10_000

type Forwarded = { status: number; body: string } | { error: string }

/** POSTs the delivery to `url` with its original headers; never throws (a down target is an answer). */
async function forward(url: string, headers: IncomingHttpHeaders, raw: Buffer): Promise<Forwarded> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue
    out[name] = Array.isArray(value) ? value.join(', ') : value
  }
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: out,
      body: raw,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    })
    return { status: res.status, body: await res.text() }
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    return { error: cause?.code ?? cause?.message ?? (err as Error).message }
  }
}

/** A delivery's line: a date-time to the second (UTC) on a terminal, ISO when piped. */
function stamp(ctx: Ctx): string {
  const iso = new Date().toISOString()
  return ctx.isTTY ? `${utcMinute(iso)}:${iso.slice(17, 19)}` : iso
}

/** Starts the receiver; every POST is verified (when a secret is known), printed, and forwarded. */
export async function startListener(
  opts: Record<string, unknown>,
  ctx: Ctx,
  forwarding: ForwardOptions = {},
): Promise<Listener> {
  const [{ createServer }, { verifySignature }] = await Promise.all([import('node:http'), signatureModule()])
  const fixedSecret = secretOf(opts, ctx, false)
  const secretNow = forwarding.secret ?? (() => fixedSecret)
  const toleranceMs = typeof opts.tolerance === 'number' ? opts.tolerance * 1000 : undefined
  const receive = async (method: string | undefined, h: IncomingHttpHeaders, raw: Buffer) => {
    if (method !== 'POST') return { status: 405, headers: { allow: 'POST' }, body: '' }
    const secret = secretNow()
    const check = secret
      ? verifySignature({
          secret,
          payload: raw,
          signature: header(h['x-webhook-signature']),
          timestamp: header(h['x-webhook-timestamp']),
          ...(toleranceMs !== undefined ? { toleranceMs } : {}),
        })
      : undefined
    let payload: unknown = raw.toString('utf8')
    try {
      payload = JSON.parse(raw.toString('utf8'))
    } catch {
      // printed as text
    }
    const ok = !check || check.valid
    const forwarded = ok && forwarding.forwardTo ? await forward(forwarding.forwardTo, h, raw) : undefined
    const event = header(h['x-webhook-event']) ?? '(no event header)'
    // The daemon's test action sends sample data marked `test: true` (inside the signed body).
    const test = (payload as { data?: { test?: unknown } } | null)?.data?.test === true
    const line = {
      receivedAt: new Date().toISOString(),
      event,
      test,
      deliveryId: header(h['x-webhook-delivery']) ?? null,
      attempt: Number(header(h['x-webhook-attempt']) ?? 0) || null,
      signature: check ? (check.valid ? 'valid' : `invalid: ${check.reason}`) : 'not checked (no secret)',
      ...(forwarded
        ? { forwarded: 'error' in forwarded ? { error: forwarded.error } : { status: forwarded.status } }
        : {}),
      payload,
    }
    if (ctx.json) ctx.stdout.write(`${JSON.stringify(line)}\n`)
    else {
      const id = (payload as { id?: unknown } | null)?.id
      const sent = forwarded
        ? `  → ${'error' in forwarded ? `not forwarded: ${forwarded.error}` : forwarded.status}`
        : ''
      printLine(
        ctx,
        `${stamp(ctx)}  ${event}${test ? ' (test)' : ''}  ${typeof id === 'string' ? id : '-'}  attempt ${line.attempt ?? '-'}  signature ${line.signature}${sent}`,
      )
    }
    if (!ok)
      return {
        status: 401,
        body: JSON.stringify({ received: false, reason: check?.valid === false ? check.reason : undefined }),
      }
    if (!forwarded) return { status: 200, body: JSON.stringify({ received: true }) }
    // The daemon sees what the target answered, so its retries and delivery log are the target's.
    if ('error' in forwarded)
      return {
        status: 502,
        body: JSON.stringify({ received: true, forwarded: false, error: forwarded.error }),
      }
    return { status: forwarded.status, body: forwarded.body }
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void receive(req.method, req.headers, Buffer.concat(chunks)).then((r) => {
        res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers }).end(r.body)
      })
    })
  })
  const host = typeof opts.host === 'string' ? opts.host : '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(Number(opts.port ?? 0), host, resolve)
  })
  const { port } = server.address() as AddressInfo
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface ListenOpts extends Record<string, unknown> {
  secret?: string
  forwardTo?: string
  /** `--event`, as `webhooks create` names it; `--events` is kept as a hidden alias. */
  event?: WebhookEvent[]
  events?: WebhookEvent[]
  receiverUrl?: string
}

/** How long deleting the temporary webhook may take once stopped (a daemon that hangs must not hold the exit). */
export const CLEANUP_MS = 5_000

/** `work`, or a rejection once `ms` have passed without it settling. */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms)
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * --forward-to: the temporary webhook around the listener, deleted however the wait ends (within
 * CLEANUP_MS); a signal during the deletion leaves it, and says so with the command to delete it.
 */
async function listenAndForward(
  opts: ListenOpts,
  ctx: Ctx,
  until: Promise<StopSignal | void>,
  signals: StopSignals | undefined,
): Promise<StopSignal | void> {
  const target = opts.forwardTo ?? ''
  if (!/^https?:\/\/[^/]/i.test(target))
    throw new UsageError(`--forward-to "${target}": expected an http(s) URL`)
  await requireKey(ctx)
  const client = await ctx.client()
  let secret: string | undefined
  const listener = await startListener({ ...opts, secret: undefined }, ctx, {
    secret: () => secret,
    forwardTo: target,
  })
  const chosen = [...new Set([...(opts.event ?? []), ...(opts.events ?? [])])]
  const events = chosen.length > 0 ? chosen : [...WEBHOOK_EVENTS]
  const receiverUrl = opts.receiverUrl ?? listener.url
  let webhookId: string | undefined
  let left = false
  let stopped: StopSignal | void = undefined
  const deleteLine = (id: string) => `linkctl webhooks delete ${id} --yes`
  try {
    const hook = await client.webhooks
      .create({
        name: `linkctl listen (${hostname()}, pid ${process.pid})`.slice(0, 100),
        url: receiverUrl,
        events,
      })
      .catch((err: unknown) => {
        const loopback = /loopback|this machine|localhost/i.test((err as Error).message)
        if (loopback)
          note(
            ctx,
            'hint: linkd refuses receivers on its own machine (LINKD_WEBHOOK_ALLOW_LOOPBACK=false); pass --receiver-url with an address it may reach',
          )
        throw err
      })
    webhookId = hook.id
    secret = hook.secret
    note(
      ctx,
      `Ready: webhook ${hook.id} sends ${events.length === WEBHOOK_EVENTS.length ? 'every event' : events.join(', ')} to ${receiverUrl}, forwarded to ${target}`,
    )
    note(ctx, `Signing secret (verify the forwarded deliveries with it):\n${hook.secret}`)
    note(ctx, 'Ctrl-C to stop; the webhook is deleted on exit')
    stopped = await until
  } finally {
    const id = webhookId
    const cleanUp = async () => {
      await listener.close()
      if (!id) return
      if (stopped) note(ctx, `Stopping: deleting webhook ${id}…`)
      try {
        await within(client.webhooks.delete(id), CLEANUP_MS)
        note(ctx, `Deleted webhook ${id}`)
      } catch (err) {
        warn(
          ctx,
          `could not delete webhook ${id}: ${(err as Error).message}; delete it with: ${deleteLine(id)}`,
        )
        left = true
      }
    }
    await (signals
      ? signals.during(cleanUp(), (signal) => {
          if (id)
            warn(
              ctx,
              `${signal} again: stopped before webhook ${id} was deleted, so it may still be active; delete it with: ${deleteLine(id)}`,
            )
        })
      : cleanUp())
  }
  if (left && stopped === undefined)
    throw new CliError('the temporary webhook was not deleted (see the warning above)', EXIT.error)
  return stopped
}

/**
 * Listens until `until` resolves: by default the first SIGINT, SIGTERM or SIGHUP, which then ends
 * linkctl with the signal's exit code (130 for Ctrl-C) once the clean-up is done.
 */
export async function runWebhooksListen(
  opts: ListenOpts,
  ctx: Ctx,
  until?: Promise<StopSignal | void>,
): Promise<void> {
  const signals = until ? undefined : stopSignals()
  try {
    const stopped = await listen(opts, ctx, until ?? signals!.first, signals)
    if (stopped) throw new StoppedBySignal(stopped)
  } finally {
    signals?.release()
  }
}

async function listen(
  opts: ListenOpts,
  ctx: Ctx,
  until: Promise<StopSignal | void>,
  signals: StopSignals | undefined,
): Promise<StopSignal | void> {
  if (opts.forwardTo !== undefined) return listenAndForward(opts, ctx, until, signals)
  if (opts.event || opts.events || opts.receiverUrl)
    throw new UsageError('--event and --receiver-url go with --forward-to')
  const listener = await startListener(opts, ctx)
  const secret = secretOf(opts, ctx, false)
  note(
    ctx,
    `Listening on ${listener.url} (${secret ? 'verifying signatures' : 'no --secret: signatures not checked'}); Ctrl-C to stop`,
  )
  const stopped = await until
  await listener.close()
  return stopped
}

export function register(wh: Command): void {
  jsonOption(
    wh
      .command('listen')
      .description(
        'receive deliveries on a local port: verify signatures, print events; with --forward-to, a temporary webhook forwarded to your URL',
      )
      .option('--port <n>', 'port to listen on (default 0: any free port)', intArg(0, 65535))
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .addOption(secretOpt())
      .option('--tolerance <seconds>', 'largest accepted signature age (default 300)', intArg(0))
      .option(
        '--forward-to <url>',
        'create a temporary webhook and forward its verified deliveries to this URL',
      )
      .option(
        '--event <types>',
        'with --forward-to: event type(s), comma-separated or repeated (default: every event)',
        commaChoices(WEBHOOK_EVENTS),
      )
      .addOption(new Option('--events <types>').hideHelp().argParser(commaChoices(WEBHOOK_EVENTS)))
      .option('--receiver-url <url>', 'with --forward-to: the URL linkd delivers to (default: this listener)')
      .addHelpText(
        'after',
        helpText(
          "With --forward-to the signing secret is that of the temporary webhook (printed at start); deliveries are answered with the forward target's status (502 when it cannot be reached), and the webhook is deleted on Ctrl-C, SIGTERM or SIGHUP (exit code 130, 143, 129); a second Ctrl-C while it is being deleted exits at once and names the webhook left behind.",
        ),
      ),
  ).action(action<ListenOpts>((_a, opts, ctx) => runWebhooksListen(opts, ctx)))
}
