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

/** Whether the key opens a sealed secret of the installation (true when it holds none). */
async function opensASecret(kysely: Kysely<Database>, box: SecretBox): Promise<boolean> {
  const sealed =
    (await kysely.selectFrom('webhooks').select('secret_sealed').limit(1).executeTakeFirst())
      ?.secret_sealed ??
    (await kysely.selectFrom('export_destinations').select('secret_sealed').limit(1).executeTakeFirst())
      ?.secret_sealed
  if (sealed === undefined) return true
  try {
    box.decrypt(sealed)
    return true
  } catch {
    return false
  }
}
