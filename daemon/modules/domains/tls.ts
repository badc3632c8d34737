import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { clientErrorHandler } from '../../http/errors.js'
import type { DomainDirectory } from './api.js'

/**
 * The HTTPS listener of custom domains: one port, the certificate chosen by SNI from the domain
 * directory (so issued and renewed certificates are served without a restart), every request
 * routed into the same Fastify app as plain HTTP, under the same connection limits.
 */
export async function listenHttps(
  app: FastifyInstance,
  directory: Pick<DomainDirectory, 'context'>,
  opts: { host: string; port: number },
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const { connections } = app.linkd
  const server = createServer(
    {
      // A handshake gets the time a request's headers get (Node's default: 120 s).
      handshakeTimeout: connections.limits.headersTimeoutMs,
      SNICallback(servername, cb) {
        const context = directory.context(servername)
        if (context) cb(null, context)
        else cb(new Error(`no certificate for ${servername}`))
      },
    },
    (req, res) => app.routing(req, res),
  )
  connections.attach(server)
  server.on('tlsClientError', (err) => app.log.debug({ err }, 'TLS handshake failed'))
  // 431 and malformed HTTP answered with the error body, as on the plain listener.
  server.on('clientError', clientErrorHandler)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      }),
  }
}
