/**
 * Slow clients cannot hold every socket (slowloris): each listener (plain HTTP, and HTTPS for
 * custom domains) closes a new connection at once when its client address already holds
 * `perIp` open connections across the listeners, and closes a connection whose request headers
 * are not complete `headersTimeoutMs` after it began (408 with the error body; on HTTPS the TLS
 * handshake gets the same time). The address is the socket's; a trusted proxy's sockets
 * (LINKD_TRUST_PROXY) are not capped, the proxy limits its clients (docs/deployment.md). IPv6
 * clients count per /64, the block one host usually holds.
 */
import type { Server as HttpServer } from 'node:http'
import type { Server as HttpsServer } from 'node:https'
import type { Socket } from 'node:net'
import { clientKey } from '../addresses.js'

export interface ConnectionLimits {
  /** Open connections at most per client address (IPv6: per /64). */
  perIp: number
  /** Time for a request's headers (and an HTTPS handshake), from the connection or the request's start. */
  headersTimeoutMs: number
  /** A trusted reverse proxy's address: its connections carry many clients and are not capped. */
  isProxy?: (address: string) => boolean
}

export interface ConnectionGuard {
  readonly limits: ConnectionLimits
  /** Applies the limits to a listener (before it listens). */
  attach(server: HttpServer | HttpsServer): void
  /** Open connections of a client address (its counting key), for tests and diagnostics. */
  open(address: string): number
}

/** One count of open connections per client address, shared by every listener it is attached to. */
export function createConnectionGuard(limits: ConnectionLimits): ConnectionGuard {
  const open = new Map<string, number>()
  /** Node checks the header deadlines of open connections this often (its default is 30 s). */
  const checkEveryMs = Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 2)))

  function onConnection(socket: Socket): void {
    if (!socket.remoteAddress) return // already gone
    const key = clientKey(socket.remoteAddress)
    if (limits.isProxy?.(socket.remoteAddress!)) return
    const n = open.get(key) ?? 0
    if (n >= limits.perIp) {
      socket.destroy()
      return
    }
    open.set(key, n + 1)
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1
      if (left > 0) open.set(key, left)
      else open.delete(key)
    })
  }

  return {
    limits,
    attach(server) {
      server.headersTimeout = limits.headersTimeoutMs
      // Node reads it when the server starts listening (no type declares it on the server).
      const checked = server as { connectionsCheckingInterval?: number }
      checked.connectionsCheckingInterval = checkEveryMs
      // Node requires the whole request's bound to be at least the headers' bound.
      if (server.requestTimeout > 0 && server.requestTimeout < limits.headersTimeoutMs)
        server.requestTimeout = limits.headersTimeoutMs
      // A TLS listener emits `connection` for the TCP socket, before the handshake.
      server.on('connection', onConnection)
    },
    open: (address) => open.get(clientKey(address)) ?? 0,
  }
}
