import type { Kysely } from 'kysely'
import type { Database } from './schema.js'
import { safeEqual } from '../crypto.js'

/**
 * The master key's fingerprint in the database (table master_key_fingerprint, owned here): the
 * first start records the one given; later starts compare with it. Several processes starting
 * at once agree on the first one written. Returns whether `fingerprint` is the installation's.
 */
export async function matchesInstallationKey(
  kysely: Kysely<Database>,
  fingerprint: string,
  now: number,
): Promise<boolean> {
  await kysely
    .insertInto('master_key_fingerprint')
    .values({ id: 1, fingerprint, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  const row = await kysely
    .selectFrom('master_key_fingerprint')
    .select('fingerprint')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow()
  return safeEqual(row.fingerprint, fingerprint)
}
