/**
 * `linkctl webhooks listen`: a local receiver for developing an integration. It verifies each
 * delivery and prints it as it arrives (one line, or one JSON object per line with --json),
 * answering 200 for a valid signature and 401 for an invalid one.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import type { Ctx } from '../../context.js'
import { note } from '../../output.js'
import { intArg } from '../../parse.js'
import { secretOf, secretOpt, signatureModule } from './shared.js'

export interface Listener {
  url: string
  server: Server
  close(): Promise<void>
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

/** Starts the receiver; every POST is verified (when a secret is known) and printed. */
export async function startListener(opts: Record<string, unknown>, ctx: Ctx): Promise<Listener> {
  const [{ createServer }, { verifySignature }] = await Promise.all([import('node:http'), signatureModule()])
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

export function register(wh: Command): void {
  jsonOption(
    wh
      .command('listen')
      .description(
        'receive deliveries on a local port: verify signatures, print events (200 valid, 401 invalid)',
      )
      .requiredOption('--port <n>', 'port to listen on (0: any free port)', intArg(0, 65535))
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .addOption(secretOpt())
      .option('--tolerance <seconds>', 'largest accepted signature age (default 300)', intArg(0)),
  ).action(action<Record<string, unknown>>((_a, opts, ctx) => runWebhooksListen(opts, ctx)))
}
