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

/** A database that could not be used, its message naming the setting that gave it (migrate-data's flags). */
export class NamedDatabaseProblem extends Error {
  constructor(setting: string, problem: string, options: { cause: unknown }) {
    super(`${setting}: ${problem}`, options)
    this.name = 'NamedDatabaseProblem'
  }
}

/**
 * Why PostgreSQL could not be used, in words: not reachable, its host unknown, the login refused,
 * the database missing; undefined for any other error.
 */
export function postgresProblem(err: unknown): string | undefined {
  const unreachable = unreachableText(err)
  if (unreachable) return `PostgreSQL at ${unreachable}`
  const e = err as { code?: string; message?: string; hostname?: string }
  if (e.code === 'ENOTFOUND') return `PostgreSQL host ${String(e.hostname)} not found`
  if (e.code === '28P01' || e.code === '28000')
    return `PostgreSQL refused the login: ${String(e.message)} (the password: PGPASSWORD, ~/.pgpass or the URL)`
  if (e.code === '3D000')
    return `PostgreSQL: ${String(e.message)} (create it: docs/deployment.md, "Several processes on PostgreSQL")`
  return undefined
}
