import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'

/** The ACME account of one directory: its key sealed with the secret box, and its URL once known. */
export interface AcmeAccountRecord {
  keySealed: string
  url: string | null
}

/** ACME accounts and HTTP-01 challenge tokens (acme_accounts, acme_challenges). */
export interface AcmeStore {
  account(directoryUrl: string): Promise<AcmeAccountRecord | undefined>
  /** Stores the directory's account key unless one is already there (another instance won). */
  addAccountUnlessPresent(directoryUrl: string, keySealed: string, createdAt: number): Promise<void>
  setAccountUrl(directoryUrl: string, url: string): Promise<void>
  /** The key authorization of a token not expired at `now`. */
  challengeResponse(token: string, now: number): Promise<string | undefined>
  /** Drops tokens expired at `now`, then stores (or replaces) one until `expiresAt`. */
  putChallenge(token: string, keyAuthorization: string, now: number, expiresAt: number): Promise<void>
  removeChallenge(token: string): Promise<void>
}

/** The SQLite (Kysely) implementation. */
export function createAcmeStore(db: Kysely<Database>): AcmeStore {
  return {
    async account(directoryUrl) {
      const row = await db
        .selectFrom('acme_accounts')
        .select(['account_key_enc', 'account_url'])
        .where('directory_url', '=', directoryUrl)
        .executeTakeFirst()
      return row && { keySealed: row.account_key_enc, url: row.account_url }
    },
    async addAccountUnlessPresent(directoryUrl, keySealed, createdAt) {
      await db
        .insertInto('acme_accounts')
        .values({
          directory_url: directoryUrl,
          account_key_enc: keySealed,
          account_url: null,
          created_at: createdAt,
        })
        .onConflict((oc) => oc.column('directory_url').doNothing())
        .execute()
    },
    async setAccountUrl(directoryUrl, url) {
      await db
        .updateTable('acme_accounts')
        .set({ account_url: url })
        .where('directory_url', '=', directoryUrl)
        .execute()
    },
    async challengeResponse(token, now) {
      const row = await db
        .selectFrom('acme_challenges')
        .select('key_authorization')
        .where('token', '=', token)
        .where('expires_at', '>', now)
        .executeTakeFirst()
      return row?.key_authorization
    },
    async putChallenge(token, keyAuthorization, now, expiresAt) {
      await db.deleteFrom('acme_challenges').where('expires_at', '<=', now).execute()
      await db
        .insertInto('acme_challenges')
        .values({ token, key_authorization: keyAuthorization, expires_at: expiresAt })
        .onConflict((oc) => oc.column('token').doUpdateSet({ key_authorization: keyAuthorization }))
        .execute()
    },
    async removeChallenge(token) {
      await db.deleteFrom('acme_challenges').where('token', '=', token).execute()
    },
  }
}
