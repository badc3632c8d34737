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

/** Schedules are minutes (5-field cron): a scheduled run belongs to the minute it was due in. */
const MINUTE = 60_000

/**
 * node-cron scheduler. Every run first takes a lease row in the database, so with several linkd
 * processes on one database a job never runs twice at once; each run records its time and result.
 * A scheduled run also needs that no instance ran the job since the start of its minute: the
 * processes' ticks for one minute are milliseconds to seconds apart, and a lease released by a
 * short run would otherwise let each of them run it once more.
 */
export function createScheduler(deps: { store: JobStore; clock: Clock; log: FastifyBaseLogger }) {
  const { store } = deps
  const owner = newId('inst')
  const jobs = new Map<string, JobDefinition>()
  const tasks: ScheduledTask[] = []
  const running = new Set<Promise<RunResult>>()
  /** This process's runs per job since start (metrics): runs, failures, the last success (Unix ms). */
  const counts = new Map<string, { runs: number; failures: number; lastSuccessAt: number | null }>()
  const countOf = (name: string) => {
    let c = counts.get(name)
    if (!c) counts.set(name, (c = { runs: 0, failures: 0, lastSuccessAt: null }))
    return c
  }

  /** Runs a job now unless another instance holds its lease (or, with `slot`, ran it since then). */
  async function run(name: string, slot?: number): Promise<RunResult> {
    const job = jobs.get(name)
    if (!job) throw new Error(`unknown job ${name}`)
    const start = deps.clock.now()
    if (!(await store.acquire(name, owner, start, start + (job.leaseMs ?? 10 * 60_000), slot)))
      return { ran: false }
    const t0 = performance.now()
    try {
      const summary = (await job.run()) ?? undefined
      await store.finish(name, owner, deps.clock.now(), 'ok', null, Math.round(performance.now() - t0))
      const c = countOf(name)
      c.runs++
      c.lastSuccessAt = deps.clock.now()
      if (summary) deps.log.info({ job: name, summary }, 'job finished')
      return { ran: true, status: 'ok', ...(summary ? { summary } : {}) }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      deps.log.error({ job: name, err }, 'job failed')
      const c = countOf(name)
      c.runs++
      c.failures++
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

  const runNow = (name: string) => run(name)
  /** What the schedule runs: the job of the current minute, once across every instance. */
  const runScheduled = (name: string) => {
    const now = deps.clock.now()
    return run(name, now - (now % MINUTE))
  }

  function track(p: Promise<RunResult>): void {
    running.add(p)
    void p.finally(() => running.delete(p))
  }

  return {
    register(job: JobDefinition): void {
      if (!cron.validate(job.schedule) || job.schedule.trim().split(/\s+/).length !== 5)
        throw new Error(
          `job ${job.name}: invalid schedule ${job.schedule} (minutes, hours, day, month, weekday)`,
        )
      jobs.set(job.name, job)
    },
    names: () => [...jobs.keys()],
    /** Runs and failures in this process since start, and its last success, per registered job. */
    counts: () => [...jobs.keys()].sort().map((name) => ({ name, ...(counts.get(name) ?? countOf(name)) })),
    runNow,
    runScheduled,
    start(): void {
      for (const job of jobs.values()) {
        tasks.push(
          cron.schedule(
            job.schedule,
            () => track(runScheduled(job.name).catch((err: unknown) => ({ ran: false, error: String(err) }))),
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
