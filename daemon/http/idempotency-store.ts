import type { Kysely } from 'kysely'
import type { SecretBox } from '../crypto.js'
import type { Database } from '../db/schema.js'

export interface IdempotencyRecord {
  requestHash: string
  statusCode: number
  contentType: string | null
  /** The response body; undefined when the stored one does not open (the master key changed). */
  body: string | undefined
  createdAt: number
  /** Top-level `id` of the response, kept in the clear to find the record by what it names. */
  resourceId: string | null
}

/**
 * Store of first responses by (owner, idempotency key). Bodies are sealed with the master key:
 * they hold full API keys, webhook secrets and header values, SDK keys and signing secrets.
 */
export interface IdempotencyStore {
  /** The record of (owner, key) created after `since`. */
  find(owner: string, key: string, since: number): Promise<IdempotencyRecord | undefined>
  /** Stores (or replaces) the first response of (owner, key). */
  save(owner: string, key: string, rec: IdempotencyRecord & { body: string }): Promise<void>
  /** Deletes records created at or before `before`; returns how many. */
  prune(before: number): Promise<number>
  /**
   * Forgets the stored responses whose top-level `id` is `id` (such as the gdpr_… of a deletion
   * request): a GDPR purge must not leave the player's id in a replayable response, sealed or not.
   */
  forgetResponsesNaming(id: string): Promise<number>
}

/** The SQLite (Kysely) implementation. */
export function createIdempotencyStore(db: Kysely<Database>, secrets: SecretBox): IdempotencyStore {
  const open = (sealed: string): string | undefined => {
    try {
      return secrets.decrypt(sealed)
    } catch {
      return undefined
    }
  }
  return {
    async find(owner: string, key: string, since: number): Promise<IdempotencyRecord | undefined> {
      const r = await db
        .selectFrom('idempotency_records')
        .selectAll()
        .where('owner', '=', owner)
        .where('idem_key', '=', key)
        .where('created_at', '>', since)
        .executeTakeFirst()
      return (
        r && {
          requestHash: r.request_hash,
          statusCode: r.status_code,
          contentType: r.content_type,
          body: open(r.body),
          createdAt: r.created_at,
          resourceId: r.resource_id,
        }
      )
    },
    async save(owner: string, key: string, rec: IdempotencyRecord & { body: string }): Promise<void> {
      const row = {
        request_hash: rec.requestHash,
        status_code: rec.statusCode,
        content_type: rec.contentType,
        body: secrets.encrypt(rec.body),
        created_at: rec.createdAt,
        resource_id: rec.resourceId,
      }
      await db
        .insertInto('idempotency_records')
        .values({ owner, idem_key: key, ...row })
        .onConflict((oc) => oc.columns(['owner', 'idem_key']).doUpdateSet(row))
        .execute()
    },
    async prune(before: number): Promise<number> {
      const r = await db
        .deleteFrom('idempotency_records')
        .where('created_at', '<=', before)
        .executeTakeFirst()
      return Number(r.numDeletedRows)
    },
    async forgetResponsesNaming(id: string): Promise<number> {
      const r = await db.deleteFrom('idempotency_records').where('resource_id', '=', id).executeTakeFirst()
      return Number(r.numDeletedRows)
    },
  }
}
