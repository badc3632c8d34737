/** The exports module's interfaces, imported by its own files (other modules import its index.ts). */
import type { PageOf, PageQuery } from '../../../src/contract/common.js'
import type {
  CreateExportDestinationBody,
  ExportDestination,
  ExportRun,
} from '../../../src/contract/raw-export.js'
import type { RawRows } from '../../raw-export.js'

/** Where a dataset's rows come from (plugged in by the composition root: gaming, clicks). */
export interface DatasetSource {
  /** Checks a destination's game before it is saved (404 for another organization's). */
  check(organizationId: string, gameId: string | null): Promise<void>
  /** The rows of one UTC day (day number), read as they are consumed. */
  rows(organizationId: string, gameId: string | null, day: number): Promise<RawRows>
  /**
   * A day's rows keep arriving after it ends (game events: up to 24 h late): the daily job writes
   * the day again once they all have.
   */
  lateRows?: boolean
}

export interface ExportsService {
  create(organizationId: string, body: CreateExportDestinationBody): Promise<ExportDestination>
  /** A page of the organization's destinations (at most 20 in all), oldest first. */
  list(organizationId: string, q: PageQuery): Promise<PageOf<ExportDestination>>
  remove(organizationId: string, id: string): Promise<void>
  /** Writes one UTC day (default yesterday) of every dataset of the destination now, with retries. */
  run(organizationId: string, id: string, date?: string): Promise<ExportRun>
  /**
   * The daily job: each destination's days not written yet, up to yesterday (at most a week back),
   * and the last day written before, again, for the datasets whose rows arrive late.
   */
  runDue(): Promise<{ written: number; failed: number }>
}
