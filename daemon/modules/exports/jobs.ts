import type { JobDefinition } from '../../jobs/scheduler.js'
import { plural } from '../../../src/contract/numbers.js'
import type { ExportsService } from './api.js'

/** The daily raw export: the previous UTC day of every destination (and days missed before it). */
export function scheduledExportsJob(exports: Pick<ExportsService, 'runDue'>): JobDefinition {
  return {
    name: 'scheduled-exports',
    schedule: '20 0 * * *',
    leaseMs: 6 * 60 * 60_000,
    async run() {
      const { written, failed } = await exports.runDue()
      if (failed > 0)
        throw new Error(`${plural(failed, 'destination')} failed (see lastError); ${written} day(s) written`)
      return written ? `${plural(written, 'day')} written` : undefined
    },
  }
}
