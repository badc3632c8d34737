/** A connection that could not be made, in words (webhook deliveries, export destinations). */

const CONNECT_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network unreachable',
}

interface SocketError {
  code?: string
  address?: string
  port?: number
  cause?: unknown
}

/**
 * "connect ECONNREFUSED 127.0.0.1:9000" (the error or its cause, as fetch wraps it) →
 * "127.0.0.1:9000 unreachable (connection refused)"; undefined for any other error.
 */
export function unreachableText(err: unknown): string | undefined {
  for (
    let e = err as SocketError | undefined, depth = 0;
    e && depth < 3;
    e = e.cause as SocketError, depth++
  ) {
    const words = e.code === undefined ? undefined : CONNECT_WORDS[e.code]
    if (words && e.address) {
      const host = e.address.includes(':') ? `[${e.address}]` : e.address
      return `${host}${e.port ? `:${e.port}` : ''} unreachable (${words})`
    }
  }
  return undefined
}
