import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.js'

export interface JobRun {
  name: string
  lastRunAt: number | null
  lastStatus: string | null
  lastError: string | null
  lastDurationMs: number | null
  runCount: number
}

/** Job leases and run records (table job_runs): the port the scheduler depends on. */
export interface JobStore {
  /**
   * Takes the job's lease until `until` unless another instance holds an unexpired one; with
   * `notRunSince`, only if no run (of any instance) was recorded at or after that time either.
   */
  acquire(name: string, owner: string, now: number, until: number, notRunSince?: number): Promise<boolean>
  /** Records a run and releases the lease, if `owner` still holds it. */
  finish(
    name: string,
    owner: string,
    at: number,
    status: 'ok' | 'error',
    error: string | null,
    durationMs: number,
  ): Promise<void>
  /** Every job's record, by name. */
  all(): Promise<JobRun[]>
}

/** Both engines (Kysely, portable SQL). */
export function createJobStore(db: Kysely<Database>): JobStore {
  return {
    /** Portable (SQLite and PostgreSQL): insert-if-missing, then a conditional update. */
    async acquire(name, owner, now, until, notRunSince): Promise<boolean> {
      await db
        .insertInto('job_runs')
        .values({ name, lease_owner: null, lease_until: 0 })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute()
      const r = await db
        .updateTable('job_runs')
        .set({ lease_owner: owner, lease_until: until })
        .where('name', '=', name)
        .where((eb) => eb.or([eb('lease_until', '<=', now), eb('lease_owner', '=', owner)]))
        .$if(notRunSince !== undefined, (qb) =>
          qb.where((eb) => eb.or([eb('last_run_at', 'is', null), eb('last_run_at', '<', notRunSince!)])),
        )
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },
    async finish(name, owner, at, status, error, durationMs) {
      await db
        .updateTable('job_runs')
        .set((eb) => ({
          lease_owner: null,
          lease_until: 0,
          last_run_at: at,
          last_status: status,
          last_error: error,
          last_duration_ms: durationMs,
          run_count: eb('run_count', '+', 1),
        }))
        .where('name', '=', name)
        .where('lease_owner', '=', owner)
        .execute()
    },
    async all(): Promise<JobRun[]> {
      const rows = await db.selectFrom('job_runs').selectAll().orderBy('name').execute()
      return rows.map((r) => ({
        name: r.name,
        lastRunAt: r.last_run_at,
        lastStatus: r.last_status,
        lastError: r.last_error,
        lastDurationMs: r.last_duration_ms,
        runCount: Number(r.run_count),
      }))
    },
  }
}
