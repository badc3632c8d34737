import type { Kysely, Selectable } from 'kysely'
import type { Database, ExportDestinationsTable } from '../../db/schema.js'

export type DestinationRow = Selectable<ExportDestinationsTable>

/** The outcome of a run, recorded on its destination. */
export type RunOutcome =
  { at: number; ok: true; day: number | null } | { at: number; ok: false; error: string }

/** SQL of export_destinations (the secret arrives sealed: the store never sees it in clear). */
export interface ExportDestinationStore {
  insert(row: DestinationRow): Promise<void>
  /** An organization's destinations, oldest first. */
  list(organizationId: string): Promise<DestinationRow[]>
  count(organizationId: string): Promise<number>
  get(organizationId: string, id: string): Promise<DestinationRow | undefined>
  /** Every destination (the daily job). */
  all(): Promise<DestinationRow[]>
  delete(organizationId: string, id: string): Promise<boolean>
  /** Records a run: its time, and the lastExportedDate after it or the error. */
  recordRun(id: string, outcome: RunOutcome): Promise<void>
}

export function createExportDestinationStore(db: Kysely<Database>): ExportDestinationStore {
  return {
    async insert(row) {
      await db.insertInto('export_destinations').values(row).execute()
    },
    list: (organizationId) =>
      db
        .selectFrom('export_destinations')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    async count(organizationId) {
      const r = await db
        .selectFrom('export_destinations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow()
      return Number(r.n)
    },
    get: (organizationId, id) =>
      db
        .selectFrom('export_destinations')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
    all: () => db.selectFrom('export_destinations').selectAll().orderBy('id').execute(),
    async delete(organizationId, id) {
      const r = await db
        .deleteFrom('export_destinations')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(r.numDeletedRows) > 0
    },
    async recordRun(id, outcome) {
      await db
        .updateTable('export_destinations')
        .set(
          outcome.ok
            ? {
                last_run_at: outcome.at,
                last_success_at: outcome.at,
                last_exported_day: outcome.day,
                last_error: null,
              }
            : { last_run_at: outcome.at, last_error: outcome.error },
        )
        .where('id', '=', id)
        .execute()
    },
  }
}
