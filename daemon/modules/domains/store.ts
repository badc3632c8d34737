/**
 * The custom_domains table: the port the domain service and the directory depend on, and its
 * implementation (Kysely, both engines). The record and its row: records.ts.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { newestFirstPage } from '../../db/paginate.js'
import { insertRow, toRecord, toRow, type DomainPatch, type DomainRecord, type RootFlag } from './records.js'

// A constant compared with the column of a partial index (safety_lists.state,
// custom_domains.verification_status) is written inline with sql.lit: bound as a parameter, it
// makes SQLite prepare the statement again on every run (~25 µs) to re-check the index's WHERE.

/** Thrown inside replaceClaims' transaction to roll it back. */
class HostVerified extends Error {}

/** The custom_domains table: the port the domain service and the directory depend on. */
export interface DomainStore {
  /** Every domain holding a certificate, with its expiry (Unix ms), across organizations (metrics). */
  certificateExpiries(): Promise<Array<{ domain: string; expiresAt: number }>>
  insert(r: DomainRecord): Promise<void>
  byId(organizationId: string, id: string): Promise<DomainRecord | undefined>
  byIdAnyOrg(id: string): Promise<DomainRecord | undefined>
  byName(organizationId: string, domain: string): Promise<DomainRecord | undefined>
  /** The verified domain of that host, whatever its organization (at most one). */
  verifiedByName(domain: string): Promise<DomainRecord | undefined>
  /** Every organization's domain of that host (normally at most one). */
  byHost(domain: string): Promise<DomainRecord[]>
  /**
   * Inserts `r` in place of the other organizations' unverified claims of its host, deleted in
   * the same transaction; returns them. Undefined, and nothing changed, when another
   * organization holds the host verified by then.
   */
  replaceClaims(r: DomainRecord): Promise<DomainRecord[] | undefined>
  /** Fails every unverified claim of the host but `winnerId`'s (claimLostAt = now); how many. */
  loseOtherClaims(domain: string, winnerId: string, now: number): Promise<number>
  /** Deletes the unverified domains added at or before `before`; returns them. */
  expireClaims(before: number): Promise<DomainRecord[]>
  defaultOf(organizationId: string): Promise<DomainRecord | undefined>
  count(organizationId: string): Promise<number>
  /** One page newest first and the total matching the filter. */
  list(
    organizationId: string,
    q: { verificationStatus?: string | undefined; limit: number; offset: number },
  ): Promise<{ rows: DomainRecord[]; total: number }>
  /** Every domain (the host index and the TLS certificates are built from it). */
  all(): Promise<DomainRecord[]>
  update(id: string, p: DomainPatch): Promise<void>
  /** The domains with a root redirect (one organization's, or every one), oldest id first. */
  rootRedirects(organizationId?: string): Promise<DomainRecord[]>
  /**
   * Sets or clears the root redirect's flag, only while the domain still redirects to `url` (a
   * PATCH meanwhile was checked itself); true when it did.
   */
  setRootFlag(id: string, url: string, flag: RootFlag | null): Promise<boolean>
  /**
   * Applies `p` only if the domain's verification and SSL statuses are still `expected` (another
   * request, maybe in another process, did not move it meanwhile); true when it did.
   */
  updateIf(
    id: string,
    expected: Pick<DomainRecord, 'verificationStatus' | 'sslStatus'>,
    p: DomainPatch,
  ): Promise<boolean>
  /**
   * Claims the right to order the domain's certificate until `until`: true for one caller only,
   * when no unexpired claim is held and the domain's SSL status and certificate are still
   * `expected` (an order that finished meanwhile is not ordered again).
   */
  claimCertificateOrder(
    id: string,
    expected: Pick<DomainRecord, 'sslStatus' | 'certSerial'>,
    now: number,
    until: number,
  ): Promise<boolean>
  /** Records an order's outcome and releases its claim. */
  finishCertificateOrder(id: string, p: DomainPatch): Promise<void>
  /** Makes `id` the organization's only default (or none when id is null), atomically. */
  setDefault(organizationId: string, id: string | null, now: number): Promise<void>
  delete(id: string): Promise<void>
  /** Pending domains added after `since` (still within the propagation window). */
  pendingSince(since: number): Promise<DomainRecord[]>
  /** Marks pending domains added at or before `before` failed; returns how many. */
  failStalePending(before: number, now: number): Promise<number>
  /**
   * Verified domains whose certificate was never issued and that did not change after `before`
   * (provisioning interrupted, not an order still running in some process).
   */
  awaitingCertificate(before: number): Promise<DomainRecord[]>
  /** Verified domains with a certificate expiring at or before `before` (renewal candidates). */
  expiringBy(before: number): Promise<DomainRecord[]>
}

/** The store on either engine (Kysely queries that run on both). */
export function createDomainStore(db: Kysely<Database>): DomainStore {
  return {
    async certificateExpiries() {
      const rows = await db
        .selectFrom('custom_domains')
        .select(['domain', 'ssl_expires_at'])
        .where('cert_pem', 'is not', null)
        .where('ssl_expires_at', 'is not', null)
        .orderBy('domain')
        .execute()
      return rows.map((r) => ({ domain: r.domain, expiresAt: Number(r.ssl_expires_at) }))
    },
    async insert(r: DomainRecord): Promise<void> {
      await db.insertInto('custom_domains').values(insertRow(r)).execute()
    },

    async replaceClaims(r: DomainRecord): Promise<DomainRecord[] | undefined> {
      return db
        .transaction()
        .execute(async (trx) => {
          const gone = await trx
            .deleteFrom('custom_domains')
            .where('domain', '=', r.domain)
            .where('organization_id', '<>', r.organizationId)
            .where('verification_status', '<>', sql.lit('verified'))
            .returningAll()
            .execute()
          const verified = await trx
            .selectFrom('custom_domains')
            .select('id')
            .where('domain', '=', r.domain)
            .where('organization_id', '<>', r.organizationId)
            .where('verification_status', '=', sql.lit('verified'))
            .executeTakeFirst()
          // Rolls the deletion back: the host was verified meanwhile.
          if (verified) throw new HostVerified()
          await trx.insertInto('custom_domains').values(insertRow(r)).execute()
          return gone.map(toRecord)
        })
        .catch((err: unknown) => {
          if (err instanceof HostVerified) return undefined
          throw err
        })
    },

    async byId(organizationId: string, id: string): Promise<DomainRecord | undefined> {
      const r = await db
        .selectFrom('custom_domains')
        .selectAll()
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
      return r && toRecord(r)
    },

    async byIdAnyOrg(id: string): Promise<DomainRecord | undefined> {
      const r = await db.selectFrom('custom_domains').selectAll().where('id', '=', id).executeTakeFirst()
      return r && toRecord(r)
    },

    async byName(organizationId: string, domain: string): Promise<DomainRecord | undefined> {
      const r = await db
        .selectFrom('custom_domains')
        .selectAll()
        .where('domain', '=', domain)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
      return r && toRecord(r)
    },

    async verifiedByName(domain: string): Promise<DomainRecord | undefined> {
      const r = await db
        .selectFrom('custom_domains')
        .selectAll()
        .where('domain', '=', domain)
        .where('verification_status', '=', sql.lit('verified'))
        .executeTakeFirst()
      return r && toRecord(r)
    },

    async byHost(domain: string): Promise<DomainRecord[]> {
      const rows = await db.selectFrom('custom_domains').selectAll().where('domain', '=', domain).execute()
      return rows.map(toRecord)
    },

    async loseOtherClaims(domain: string, winnerId: string, now: number): Promise<number> {
      const r = await db
        .updateTable('custom_domains')
        .set({ verification_status: 'failed', claim_lost_at: now, updated_at: now })
        .where('domain', '=', domain)
        .where('id', '<>', winnerId)
        .where('verification_status', '<>', sql.lit('verified'))
        .executeTakeFirst()
      return Number(r.numUpdatedRows)
    },

    async expireClaims(before: number): Promise<DomainRecord[]> {
      const rows = await db
        .deleteFrom('custom_domains')
        .where('verification_status', '<>', sql.lit('verified'))
        .where('created_at', '<=', before)
        .returningAll()
        .execute()
      return rows.map(toRecord)
    },

    async defaultOf(organizationId: string): Promise<DomainRecord | undefined> {
      const r = await db
        .selectFrom('custom_domains')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('is_default', '=', 1)
        .executeTakeFirst()
      return r && toRecord(r)
    },

    async count(organizationId: string): Promise<number> {
      const r = await db
        .selectFrom('custom_domains')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow()
      return Number(r.n)
    },

    async list(
      organizationId: string,
      q: { verificationStatus?: string | undefined; limit: number; offset: number },
    ): Promise<{ rows: DomainRecord[]; total: number }> {
      let base = db.selectFrom('custom_domains').where('organization_id', '=', organizationId)
      if (q.verificationStatus) base = base.where('verification_status', '=', q.verificationStatus)
      const { rows, total } = await newestFirstPage(base, q)
      return { rows: rows.map(toRecord), total }
    },

    /** Every domain (the host index and the TLS certificates are built from it). */
    async all(): Promise<DomainRecord[]> {
      return (await db.selectFrom('custom_domains').selectAll().execute()).map(toRecord)
    },

    async update(id: string, p: DomainPatch): Promise<void> {
      await db.updateTable('custom_domains').set(toRow(p)).where('id', '=', id).execute()
    },

    async rootRedirects(organizationId?: string): Promise<DomainRecord[]> {
      let q = db.selectFrom('custom_domains').selectAll().where('root_redirect_url', 'is not', null)
      if (organizationId !== undefined) q = q.where('organization_id', '=', organizationId)
      return (await q.orderBy('id').execute()).map(toRecord)
    },

    async setRootFlag(id: string, url: string, flag: RootFlag | null): Promise<boolean> {
      const r = await db
        .updateTable('custom_domains')
        .set(toRow({ rootFlag: flag }))
        .where('id', '=', id)
        .where('root_redirect_url', '=', url)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },

    async updateIf(id, expected, p): Promise<boolean> {
      const r = await db
        .updateTable('custom_domains')
        .set(toRow(p))
        .where('id', '=', id)
        .where('verification_status', '=', expected.verificationStatus)
        .where((eb) =>
          expected.sslStatus === null
            ? eb('ssl_status', 'is', null)
            : eb('ssl_status', '=', expected.sslStatus),
        )
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },

    async claimCertificateOrder(id, expected, now, until): Promise<boolean> {
      const r = await db
        .updateTable('custom_domains')
        .set({ cert_order_until: until })
        .where('id', '=', id)
        .where((eb) =>
          eb.and([
            eb.or([eb('cert_order_until', 'is', null), eb('cert_order_until', '<=', now)]),
            expected.sslStatus === null
              ? eb('ssl_status', 'is', null)
              : eb('ssl_status', '=', expected.sslStatus),
            expected.certSerial === null
              ? eb('cert_serial', 'is', null)
              : eb('cert_serial', '=', expected.certSerial),
          ]),
        )
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },

    async finishCertificateOrder(id, p): Promise<void> {
      await db
        .updateTable('custom_domains')
        .set({ ...toRow(p), cert_order_until: null })
        .where('id', '=', id)
        .execute()
    },

    /** Makes `id` the organization's only default (or none when id is null), in one transaction. */
    async setDefault(organizationId: string, id: string | null, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('custom_domains')
          .set({ is_default: 0, updated_at: now })
          .where('organization_id', '=', organizationId)
          .where('is_default', '=', 1)
          .execute()
        if (id !== null)
          await trx
            .updateTable('custom_domains')
            .set({ is_default: 1, updated_at: now })
            .where('id', '=', id)
            .where('organization_id', '=', organizationId)
            .execute()
      })
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('custom_domains').where('id', '=', id).execute()
    },

    /** Pending domains added after `since` (still within the propagation window). */
    async pendingSince(since: number): Promise<DomainRecord[]> {
      const rows = await db
        .selectFrom('custom_domains')
        .selectAll()
        .where('verification_status', '=', sql.lit('pending'))
        .where('created_at', '>', since)
        .execute()
      return rows.map(toRecord)
    },

    /** Pending domains added at or before `before`: their propagation window is over. */
    async failStalePending(before: number, now: number): Promise<number> {
      const r = await db
        .updateTable('custom_domains')
        .set({ verification_status: 'failed', updated_at: now })
        .where('verification_status', '=', sql.lit('pending'))
        .where('created_at', '<=', before)
        .executeTakeFirst()
      return Number(r.numUpdatedRows)
    },

    async awaitingCertificate(before: number): Promise<DomainRecord[]> {
      const rows = await db
        .selectFrom('custom_domains')
        .selectAll()
        .where('verification_status', '=', sql.lit('verified'))
        .where('ssl_status', '=', 'pending')
        .where('updated_at', '<=', before)
        .execute()
      return rows.map(toRecord)
    },

    /** Verified domains with a certificate expiring at or before `before` (renewal candidates). */
    async expiringBy(before: number): Promise<DomainRecord[]> {
      const rows = await db
        .selectFrom('custom_domains')
        .selectAll()
        .where('verification_status', '=', sql.lit('verified'))
        .where('ssl_status', 'in', ['active', 'renewing', 'expired'])
        .where('ssl_expires_at', '<=', before)
        .execute()
      return rows.map(toRecord)
    },
  }
}
