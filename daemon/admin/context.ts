import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, redactDatabaseUrl, type Config } from '../config.js'
import { systemClock } from '../clock.js'
import { createSecretBox, loadOrCreateMasterKey, masterKeyFingerprint } from '../crypto.js'
import { isPostgresUrl, openDatabase, sqlitePath, type Db } from '../db/open.js'
import { pathProblem, securePrivateDir, securePrivateFile } from '../db/files.js'
import { matchesInstallationKey } from '../db/master-key.js'
import { migrate } from '../db/migrate.js'
import { EventBus } from '../events.js'
import { DEFAULT_ORG_NAME } from '../modules/orgs/index.js'
import { accountServices } from '../services.js'

/** Services for the offline subcommands, on the database directly (the daemon may be stopped). */
export function adminContext(config: Config, db: Db) {
  return accountServices({ config, db, clock: systemClock, events: new EventBus() })
}

export interface Bootstrap {
  db: Db
  masterKey: Buffer
  generatedMasterKey: boolean
  applied: string[]
  /** The data directory and database files found with looser modes and made owner-only. */
  tightened: string[]
  /** Set when this call created the default organization: its owner key, to print once. */
  ownerKey?: string
}

/**
 * The data directory created or tightened owner-only, and the master key read or generated in it.
 * A directory linkd cannot use is a configuration error naming LINKD_DATA_DIR and the reason.
 */
function prepareDataDir(config: Config) {
  try {
    const tightenedDir = [
      ...securePrivateDir(config.dataDir),
      ...securePrivateFile(join(config.dataDir, 'secret.key')),
    ]
    const { key: masterKey, generated } = loadOrCreateMasterKey(config.secretKey, config.dataDir)
    return { tightenedDir, masterKey, generated }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === undefined) throw err
    throw new ConfigError(
      `invalid configuration:\n  LINKD_DATA_DIR / --data-dir: cannot use ${config.dataDir} as the data directory: ${pathProblem(config.dataDir, err)}`,
    )
  }
}

/** The database opened; a SQLite file that cannot be made is a configuration error naming LINKD_DATABASE_URL. */
function openConfigured(config: Config): Db {
  try {
    return openDatabase(config.databaseUrl)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (isPostgresUrl(config.databaseUrl) || !/^E[A-Z]+$/.test(code ?? '')) throw err
    const path = sqlitePath(config.databaseUrl)
    throw new ConfigError(
      `invalid configuration:\n  LINKD_DATABASE_URL / --database-url: cannot create the database ${path}: ${pathProblem(path, err)}`,
    )
  }
}

/**
 * Opens the database, applies migrations, refuses a master key other than the installation's
 * (recording its fingerprint at the first start) and, on first start, creates organization
 * `default` with an owner key holding every scope. Used by `linkd`, `linkd init` and tests.
 */
export async function bootstrap(config: Config): Promise<Bootstrap> {
  const { tightenedDir, masterKey, generated } = prepareDataDir(config)
  const db = openConfigured(config)
  try {
    const applied = await migrate(db, systemClock.now())
    const { orgs, keys } = adminContext(config, db)
    const installed = (await orgs.count()) > 0
    if (generated && installed) {
      // A new key for an installation sealed with another: none of its secrets would open.
      rmSync(join(config.dataDir, 'secret.key'), { force: true })
      throw new ConfigError(
        `invalid configuration:\n  LINKD_SECRET_KEY / --secret-key: the database ${redactDatabaseUrl(config.databaseUrl)} holds an installation, but there is no master key (no LINKD_SECRET_KEY, no ${join(config.dataDir, 'secret.key')}): give it the one its secrets were sealed with (the other processes' LINKD_SECRET_KEY, or the backed-up secret.key); only if it is lost, a new one (openssl rand -hex 32), after which webhook and game secrets and TLS keys must be replaced`,
      )
    }
    const box = createSecretBox(masterKey)
    if (!(await matchesInstallationKey(db.kysely, masterKeyFingerprint(masterKey), box, systemClock.now()))) {
      if (generated) rmSync(join(config.dataDir, 'secret.key'), { force: true })
      throw new ConfigError(
        `invalid configuration:\n  LINKD_SECRET_KEY / --secret-key: the master key ${config.secretKey ? 'in LINKD_SECRET_KEY' : `in ${join(config.dataDir, 'secret.key')}`} is not the one of the installation in ${redactDatabaseUrl(config.databaseUrl)} (its fingerprint there differs): webhook and game secrets and TLS keys would not open. Give it the key they were sealed with (the other processes' LINKD_SECRET_KEY, or the backed-up secret.key)`,
      )
    }
    let ownerKey: string | undefined
    if (!installed) {
      const org = await orgs.create(DEFAULT_ORG_NAME)
      ownerKey = (await keys.createOwnerKey(org.id)).key
    }
    return {
      db,
      masterKey,
      generatedMasterKey: generated,
      applied,
      tightened: [...tightenedDir, ...db.tightened],
      ...(ownerKey ? { ownerKey } : {}),
    }
  } catch (err) {
    await db.close()
    throw err
  }
}

/** The owner key, once, and the login command for this daemon: its URL, whatever the port. */
export function ownerKeyBanner(orgName: string, key: string, url: string): string {
  return [
    `Owner API key of organization "${orgName}" (shown once; store it now):`,
    '',
    `  ${key}`,
    '',
    `Use it with: linkctl login --url ${url} --api-key ${key.slice(0, 8)}…`,
    '',
  ].join('\n')
}
