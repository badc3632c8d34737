/** A unique or primary-key constraint failed (SQLite through better-sqlite3, or PostgreSQL 23505). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505'
}

/**
 * PostgreSQL aborted a transaction because of another one (deadlock detected 40P01, serialization
 * failure 40001): run again, it can succeed.
 */
export function isTransientConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === '40P01' || code === '40001'
}

/**
 * Thrown by a store that ran a transaction again and again on transient conflicts and gave up:
 * nothing of it was committed, and the caller may try later (the services answer 503).
 */
export class WriteConflictError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'WriteConflictError'
  }
}

/**
 * Runs `attempt` (one whole transaction) again while it fails with an error `retryable` accepts
 * (transient conflicts by default), `attempts` times at most, with a short growing pause between
 * runs; then throws a WriteConflictError whose cause is the last failure. Other errors pass.
 */
export async function retryingConflicts<T>(
  attempt: () => Promise<T>,
  opts: { attempts?: number; retryable?: (err: unknown) => boolean; what?: string } = {},
): Promise<T> {
  const attempts = opts.attempts ?? 5
  const retryable = opts.retryable ?? isTransientConflict
  for (let n = 1; ; n++) {
    try {
      return await attempt()
    } catch (err) {
      if (!retryable(err)) throw err
      if (n >= attempts)
        throw new WriteConflictError(
          `${opts.what ?? 'a transaction'} met concurrent writes ${attempts} times`,
          attempts,
          { cause: err },
        )
      // A few milliseconds, some random: two transactions that met once should not meet again.
      await new Promise((resolve) => setTimeout(resolve, n * 2 + Math.random() * 5 * n))
    }
  }
}
