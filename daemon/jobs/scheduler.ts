import cron, { type ScheduledTask } from 'node-cron'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import { newId } from '../crypto.js'
import type { JobRun, JobStore } from './store.js'

export interface JobDefinition {
  name: string
  /** node-cron expression (UTC). */
  schedule: string
  /** Longest expected run; the lease expires after it so a crashed instance does not block. */
  leaseMs?: number
  run(): Promise<string | void>
}

export interface RunResult {
  ran: boolean
  status?: 'ok' | 'error'
  summary?: string
  error?: string
}

/**
 * node-cron scheduler. Every run first takes a lease row in the database, so with several linkd
 * processes on one database each job still runs once; each run records its time and result.
 */
export function createScheduler(deps: { store: JobStore; clock: Clock; log: FastifyBaseLogger }) {
  const { store } = deps
  const owner = newId('inst')
  const jobs = new Map<string, JobDefinition>()
  const tasks: ScheduledTask[] = []
  const running = new Set<Promise<RunResult>>()

  async function runNow(name: string): Promise<RunResult> {
    const job = jobs.get(name)
    if (!job) throw new Error(`unknown job ${name}`)
    const start = deps.clock.now()
    if (!(await store.acquire(name, owner, start, start + (job.leaseMs ?? 10 * 60_000))))
      return { ran: false }
    const t0 = performance.now()
    try {
      const summary = (await job.run()) ?? undefined
      await store.finish(name, owner, deps.clock.now(), 'ok', null, Math.round(performance.now() - t0))
      if (summary) deps.log.info({ job: name, summary }, 'job finished')
      return { ran: true, status: 'ok', ...(summary ? { summary } : {}) }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      deps.log.error({ job: name, err }, 'job failed')
      await store.finish(
        name,
        owner,
        deps.clock.now(),
        'error',
        message.slice(0, 500),
        Math.round(performance.now() - t0),
      )
      return { ran: true, status: 'error', error: message }
    }
  }

  function track(p: Promise<RunResult>): void {
    running.add(p)
    void p.finally(() => running.delete(p))
  }

  return {
    register(job: JobDefinition): void {
      if (!cron.validate(job.schedule)) throw new Error(`job ${job.name}: invalid schedule ${job.schedule}`)
      jobs.set(job.name, job)
    },
    names: () => [...jobs.keys()],
    runNow,
    start(): void {
      for (const job of jobs.values()) {
        tasks.push(
          cron.schedule(
            job.schedule,
            () => track(runNow(job.name).catch((err: unknown) => ({ ran: false, error: String(err) }))),
            {
              name: job.name,
              timezone: 'UTC',
              noOverlap: true,
            },
          ),
        )
      }
    },
    /** Stops scheduling and waits for runs in progress. */
    async stop(): Promise<void> {
      for (const t of tasks.splice(0)) await t.stop()
      await Promise.allSettled([...running])
    },
    async status(): Promise<JobRun[]> {
      const runs = new Map((await store.all()).map((r) => [r.name, r]))
      return [...jobs.keys()].sort().map(
        (name) =>
          runs.get(name) ?? {
            name,
            lastRunAt: null,
            lastStatus: null,
            lastError: null,
            lastDurationMs: null,
            runCount: 0,
          },
      )
    },
  }
}
export type Scheduler = ReturnType<typeof createScheduler>
