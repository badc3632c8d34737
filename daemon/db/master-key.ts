import type { Kysely } from 'kysely'
import type { Database } from './schema.js'
import { safeEqual, type SecretBox } from '../crypto.js'

/**
 * The master key's fingerprint in the database (table master_key_fingerprint, owned here): the
 * first start records the one given; later starts compare with it. Several processes starting
 * at once agree on the first one written. Returns whether `fingerprint` is the installation's.
 * Recorded on an installation that already holds sealed secrets (the first start after the
 * upgrade that added the table), the key must open one of them first: a wrong key in use then is
 * not recorded as the installation's.
 */
export async function matchesInstallationKey(
  kysely: Kysely<Database>,
  fingerprint: string,
  box: SecretBox,
  now: number,
): Promise<boolean> {
  const recorded = await kysely
    .insertInto('master_key_fingerprint')
    .values({ id: 1, fingerprint, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst()
  if (Number(recorded.numInsertedOrUpdatedRows ?? 0n) === 1 && !(await opensASecret(kysely, box))) {
    await kysely.deleteFrom('master_key_fingerprint').where('fingerprint', '=', fingerprint).execute()
    return false
  }
  const row = await kysely
    .selectFrom('master_key_fingerprint')
    .select('fingerprint')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow()
  return safeEqual(row.fingerprint, fingerprint)
}

/**
 * Where the installation keeps values sealed with the master key (SecretBox), each read as a
 * column of one row: webhook secrets (their custom headers are in the same row), export
 * destinations' secret keys, games' signing secrets, the ACME account key, TLS private keys and
 * stored idempotent responses.
 */
const SEALED: ReadonlyArray<(db: Kysely<Database>) => Promise<{ sealed: string | null } | undefined>> = [
  (db) => db.selectFrom('webhooks').select('secret_sealed as sealed').limit(1).executeTakeFirst(),
  (db) => db.selectFrom('export_destinations').select('secret_sealed as sealed').limit(1).executeTakeFirst(),
  (db) => db.selectFrom('games').select('signing_secret as sealed').limit(1).executeTakeFirst(),
  (db) => db.selectFrom('acme_accounts').select('account_key_enc as sealed').limit(1).executeTakeFirst(),
  (db) =>
    db
      .selectFrom('custom_domains')
      .select('cert_key_enc as sealed')
      .where('cert_key_enc', 'is not', null)
      .limit(1)
      .executeTakeFirst(),
  (db) => db.selectFrom('idempotency_records').select('body as sealed').limit(1).executeTakeFirst(),
]

/** Whether the key opens the first sealed secret of the installation found (true when it holds none). */
async function opensASecret(kysely: Kysely<Database>, box: SecretBox): Promise<boolean> {
  for (const from of SEALED) {
    const sealed = (await from(kysely))?.sealed
    if (sealed == null) continue
    try {
      box.decrypt(sealed)
      return true
    } catch {
      return false
    }
  }
  return true
}
