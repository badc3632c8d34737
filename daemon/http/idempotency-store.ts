import type { Kysely } from 'kysely'
import type { SecretBox } from '../crypto.js'
import type { Database } from '../db/schema.js'

/** The status of a record whose request is still running (no response stored yet). */
export const IN_PROGRESS = 0

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
  /**
   * Takes (owner, key) for a request about to run, in the database, so that every linkd process
   * sees it: an in-progress record (status 0). False when a record exists that is finished and
   * newer than `expiredBefore`, or in progress and newer than `staleBefore` (a process that died
   * mid-request leaves its claim to expire).
   */
  claim(
    owner: string,
    key: string,
    requestHash: string,
    now: number,
    limits: { staleBefore: number; expiredBefore: number },
  ): Promise<boolean>
  /** Drops the in-progress record of a request that stored no response (5xx, aborted). */
  release(owner: string, key: string): Promise<void>
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

/** Both engines (Kysely, portable SQL). */
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
    async claim(owner, key, requestHash, now, limits): Promise<boolean> {
      const inserted = await db
        .insertInto('idempotency_records')
        .values({
          owner,
          idem_key: key,
          request_hash: requestHash,
          status_code: IN_PROGRESS,
          content_type: null,
          body: '',
          created_at: now,
          resource_id: null,
        })
        .onConflict((oc) => oc.columns(['owner', 'idem_key']).doNothing())
        .executeTakeFirst()
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true
      const taken = await db
        .updateTable('idempotency_records')
        .set({ request_hash: requestHash, status_code: IN_PROGRESS, content_type: null, body: '' })
        .set({ created_at: now, resource_id: null })
        .where('owner', '=', owner)
        .where('idem_key', '=', key)
        .where((eb) =>
          eb.or([
            eb('created_at', '<=', limits.expiredBefore),
            eb.and([eb('status_code', '=', IN_PROGRESS), eb('created_at', '<=', limits.staleBefore)]),
          ]),
        )
        .executeTakeFirst()
      return Number(taken.numUpdatedRows) === 1
    },
    async release(owner: string, key: string): Promise<void> {
      await db
        .deleteFrom('idempotency_records')
        .where('owner', '=', owner)
        .where('idem_key', '=', key)
        .where('status_code', '=', IN_PROGRESS)
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
