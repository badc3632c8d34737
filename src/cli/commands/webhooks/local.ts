/**
 * `linkctl webhooks sign | verify | listen`: offline, with the signature module the daemon signs
 * deliveries with. `listen` is a local receiver for developing an integration: it verifies each
 * delivery and prints it as it arrives (one line, or one JSON object per line with --json),
 * answering 200 for a valid signature and 401 for an invalid one.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { deliveryHeaders, signPayload, verifySignature } from '../../../contract/webhook-signature.js'
import type { Ctx } from '../../context.js'
import { CliError, EXIT, UsageError } from '../../exit-codes.js'
import { emit, note, printRecord } from '../../output.js'

function secretOf(opts: { secret?: unknown }, ctx: Ctx, required: boolean): string | undefined {
  const s =
    typeof opts.secret === 'string' && opts.secret ? opts.secret : ctx.env.LINKCTL_WEBHOOK_SECRET || undefined
  if (!s && required) throw new UsageError('no secret: pass --secret or set LINKCTL_WEBHOOK_SECRET')
  return s
}

async function payloadOf(opts: { payload?: unknown; payloadFile?: unknown }, ctx: Ctx): Promise<string> {
  if (typeof opts.payload === 'string') return opts.payload
  if (typeof opts.payloadFile === 'string') return readFileSync(opts.payloadFile, 'utf8')
  if (ctx.stdin.isTTY) throw new UsageError('no payload: pass --payload, --payload-file, or pipe it on stdin')
  let text = ''
  for await (const chunk of ctx.stdin) text += String(chunk)
  return text
}

export async function runWebhooksSign(opts: Record<string, unknown>, ctx: Ctx): Promise<void> {
  const secret = secretOf(opts, ctx, true)!
  const payload = await payloadOf(opts, ctx)
  const timestamp = typeof opts.timestamp === 'number' ? opts.timestamp : Date.now()
  let event = 'link.created'
  try {
    const e = (JSON.parse(payload) as { event?: unknown }).event
    if (typeof e === 'string') event = e
  } catch {
    // not JSON: the header example keeps the default event
  }
  const signature = signPayload(secret, timestamp, payload)
  const headers = deliveryHeaders({
    secret,
    rawBody: payload,
    event,
    deliveryId: 'dlv_example-1',
    attempt: 1,
    timestamp,
  })
  await emit(ctx, { signature, timestamp, signedString: `${timestamp}.${payload}`, headers }, () =>
    printRecord(ctx, Object.entries(headers)),
  )
}

export async function runWebhooksVerify(opts: Record<string, unknown>, ctx: Ctx): Promise<void> {
  const secret = secretOf(opts, ctx, true)!
  const payload = await payloadOf(opts, ctx)
  const result = verifySignature({
    secret,
    payload,
    signature: String(opts.signature ?? ''),
    timestamp: String(opts.timestamp ?? ''),
    ...(typeof opts.tolerance === 'number' ? { toleranceMs: opts.tolerance * 1000 } : {}),
  })
  await emit(
    ctx,
    result,
    () => void ctx.stdout.write(result.valid ? 'valid\n' : `invalid: ${result.reason}\n`),
  )
  if (!result.valid) throw new CliError(`signature is not valid: ${result.reason}`, EXIT.auth)
}

export interface Listener {
  url: string
  server: Server
  close(): Promise<void>
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

/** Starts the receiver; every POST is verified (when a secret is known) and printed. */
export async function startListener(opts: Record<string, unknown>, ctx: Ctx): Promise<Listener> {
  const secret = secretOf(opts, ctx, false)
  const toleranceMs = typeof opts.tolerance === 'number' ? opts.tolerance * 1000 : undefined
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end()
        return
      }
      const raw = Buffer.concat(chunks)
      const h = req.headers
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
      const event = header(h['x-webhook-event']) ?? '(no event header)'
      const line = {
        receivedAt: new Date().toISOString(),
        event,
        deliveryId: header(h['x-webhook-delivery']) ?? null,
        attempt: Number(header(h['x-webhook-attempt']) ?? 0) || null,
        signature: check ? (check.valid ? 'valid' : `invalid: ${check.reason}`) : 'not checked (no secret)',
        payload,
      }
      if (ctx.json) ctx.stdout.write(`${JSON.stringify(line)}\n`)
      else {
        const id = (payload as { id?: unknown } | null)?.id
        ctx.stdout.write(
          `${line.receivedAt}  ${event}  ${typeof id === 'string' ? id : '-'}  attempt ${line.attempt ?? '-'}  signature ${line.signature}\n`,
        )
      }
      const ok = !check || check.valid
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify(
          ok
            ? { received: true }
            : { received: false, reason: check?.valid === false ? check.reason : undefined },
        ),
      )
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

export async function runWebhooksListen(opts: Record<string, unknown>, ctx: Ctx): Promise<void> {
  const listener = await startListener(opts, ctx)
  const secret = secretOf(opts, ctx, false)
  note(
    ctx,
    `Listening on ${listener.url} (${secret ? 'verifying signatures' : 'no --secret: signatures not checked'}); Ctrl-C to stop`,
  )
  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await listener.close()
}
