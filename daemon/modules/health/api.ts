/** The health module's interfaces, imported by its own files (other modules import its index.ts). */
import type { Health } from '../../../src/contract/health.js'

export interface HealthService {
  /** Liveness: database answers and migrations applied ('ok'), else 'down'. */
  summary(): Promise<Health>
  /** Readiness: 503 while the database is down or migrations are pending; jobs, clicks and SKAN status. */
  ready(): Promise<Health>
}
