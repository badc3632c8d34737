/** The audit module's interfaces, imported by its own files (other modules import its index.ts). */
import type { PageOf } from '../../../src/contract/common.js'
import type { AuditEntry, AuditLogQuery } from '../../../src/contract/team.js'

/** Who made a write: set from the API key, or by a route without one (`request.auditActor`). */
export interface AuditActor {
  organizationId: string
  memberId: string | null
  keyId: string | null
}

/** One write to record: never a request body or a secret. */
export interface AuditWrite extends AuditActor {
  action: string
  resourceType: string
  resourceId: string | null
  ip: string | null
  statusCode: number
}

export interface AuditService {
  /** Buffers one entry (stamped with the clock's time and an `aud_` id); never waits. */
  record(write: AuditWrite): void
  /** A page of an organization's entries, newest first, filtered (flushes the buffer first). */
  list(organizationId: string, q: AuditLogQuery): Promise<PageOf<AuditEntry>>
  /** Job: deletes entries older than `retentionDays`; returns how many. */
  prune(retentionDays: number): Promise<number>
  /** Writes what is buffered now. */
  flush(): Promise<void>
  /** Starts the periodic flush (every second); `onError` hears failed writes. */
  start(onError: (err: unknown) => void): void
  /** Stops the periodic flush and writes what is left. */
  stop(): Promise<void>
}
