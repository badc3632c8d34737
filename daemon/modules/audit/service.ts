import type { PageOf } from '../../../src/contract/common.js'
import type { AuditEntry, AuditLogQuery } from '../../../src/contract/team.js'
import { DAY_MS, iso } from '../../clock.js'
import type { Clock } from '../../clock.js'
import { newId } from '../../crypto.js'
import { createBatcher } from '../../batcher.js'
import { AppError } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { AuditService, AuditWrite } from './api.js'
import type { AuditRecord, AuditStore } from './store.js'

const MAX_BUFFER = 200
const FLUSH_MS = 1000

let seq = 0
/**
 * Entry ids sort like the writes happened: time, then arrival order within one millisecond (the
 * log is read newest first by (at, id)), then a random part.
 */
function auditId(at: number): string {
  seq = (seq + 1) % 36 ** 4
  return `aud_${at.toString(36).padStart(9, '0')}${seq.toString(36).padStart(4, '0')}${newId('x').slice(2, 10)}`
}

const toEntry = (r: AuditRecord): AuditEntry => ({
  id: r.id,
  at: iso(r.at),
  memberId: r.memberId,
  keyId: r.keyId,
  action: r.action,
  resourceType: r.resourceType,
  resourceId: r.resourceId,
  ip: r.ip,
  statusCode: r.statusCode,
})

/** Buffers entries (a write request never waits on the audit insert) and reads them back. */
export function createAuditService(deps: { store: AuditStore; clock: Clock }): AuditService {
  let reportError: (err: unknown) => void = () => {}
  const batch = createBatcher<AuditRecord>({
    maxItems: MAX_BUFFER,
    intervalMs: FLUSH_MS,
    maxRetained: 50 * MAX_BUFFER,
    write: (rows) => deps.store.insert(rows),
    onError: (err) => reportError(err),
    onDrop: (count, err) => reportError(new Error(`${count} audit entries dropped`, { cause: err })),
  })

  return {
    record(w: AuditWrite): void {
      const at = deps.clock.now()
      batch.push({ ...w, id: auditId(at), at })
    },

    async list(organizationId: string, q: AuditLogQuery): Promise<PageOf<AuditEntry>> {
      const since = q.since === undefined ? undefined : Date.parse(q.since)
      const until = q.until === undefined ? undefined : Date.parse(q.until)
      if (since !== undefined && until !== undefined && since > until)
        throw new AppError('ValidationError', 'since must not be after until', [
          { field: 'since', message: 'must not be after until' },
        ])
      // What this process buffered is readable at once (other processes' within a second).
      await batch.flush().catch(reportError)
      const p = pageParams(q)
      const { rows, total } = await deps.store.list(
        organizationId,
        { memberId: q.memberId, action: q.action, resourceType: q.resourceType, since, until },
        p.perPage,
        p.offset,
      )
      return pageOf(rows.map(toEntry), total, p)
    },

    async prune(retentionDays: number): Promise<number> {
      await batch.flush().catch(reportError)
      return deps.store.prune(deps.clock.now() - retentionDays * DAY_MS)
    },

    flush: () => batch.flush(),
    start(onError: (err: unknown) => void): void {
      reportError = onError
      batch.start()
    },
    stop: () => batch.stop(),
  }
}
