import { isoOrNull, type Clock } from '../../clock.js'
import type { Health, JobStatus } from '../../../src/contract/health.js'
import { AppError } from '../../http/errors.js'
import type { HealthStore } from './store.js'
import type { HealthService } from './api.js'

export interface HealthDeps {
  clock: Clock
  version: string
  startedAt: number
  /** The database's answer and its migrations. */
  store: HealthStore
  jobs(): Promise<
    Array<{
      name: string
      lastRunAt: number | null
      lastStatus: string | null
      lastError: string | null
      lastDurationMs: number | null
    }>
  >
  /** The click recorder: buffered, dropped since start, the last flush's error code. */
  clicks?(): { buffered: number; dropped: number; writeError: string | null }
  /** SKAN: held postbacks (unverified or unmatched) dropped since start to stay within the caps. */
  skan?(): { droppedPostbacks: number }
}

export function createHealthService(deps: HealthDeps): HealthService {
  const uptime = () => Math.round((deps.clock.now() - deps.startedAt) / 1000)
  async function checks() {
    let database: 'ok' | 'down' = 'ok'
    try {
      await deps.store.ping()
    } catch {
      database = 'down'
    }
    let migrations: 'ok' | 'pending' = 'pending'
    try {
      migrations = (await deps.store.pendingMigrations()) === 0 ? 'ok' : 'pending'
    } catch {
      database = 'down'
    }
    return { database, migrations }
  }
  return {
    async summary(): Promise<Health> {
      const c = await checks()
      return {
        status: c.database === 'ok' && c.migrations === 'ok' ? 'ok' : 'down',
        version: deps.version,
        uptimeSeconds: uptime(),
        checks: c,
      }
    },
    async ready(): Promise<Health> {
      const c = await checks()
      if (c.database !== 'ok' || c.migrations !== 'ok') {
        const details = [
          ...(c.database !== 'ok' ? [{ field: 'database', message: 'does not answer' }] : []),
          ...(c.migrations !== 'ok' ? [{ field: 'migrations', message: 'pending; run linkd migrate' }] : []),
        ]
        throw new AppError('ServiceUnavailable', 'not ready', details)
      }
      const jobs: JobStatus[] = (await deps.jobs()).map((j) => ({
        name: j.name,
        lastRunAt: isoOrNull(j.lastRunAt),
        lastStatus: j.lastStatus === 'ok' || j.lastStatus === 'error' ? j.lastStatus : null,
        lastError: j.lastError,
        lastDurationMs: j.lastDurationMs,
      }))
      const clicks = deps.clicks?.()
      const failing = jobs.some((j) => j.lastStatus === 'error') || (clicks?.writeError ?? null) !== null
      return {
        status: failing ? 'degraded' : 'ok',
        version: deps.version,
        uptimeSeconds: uptime(),
        checks: c,
        jobs,
        ...(clicks ? { clicks } : {}),
        ...(deps.skan ? { skan: deps.skan() } : {}),
      }
    },
  }
}
