import { existsSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { redactDatabaseUrl, type Config } from '../config.js'
import { isPostgresUrl, openDatabase, sqlitePath } from '../db/open.js'
import { createPrivateFile, pathProblem } from '../db/files.js'
import { migrate, pendingMigrations } from '../db/migrate.js'
import { systemClock } from '../clock.js'
import { KEY_LIMITS, PLANS, type Plan } from '../../src/contract/limits.js'
import { PRESET_NAMES, type Preset } from '../../src/contract/scopes.js'
import { isVisibleText } from '../../src/contract/text.js'
import { adminContext, bootstrap, ownerKeyBanner } from './context.js'

type Out = (text: string) => void

/** Says once which data files were readable by others and are owner-only now. */
function reportTightened(paths: readonly string[], out: Out): void {
  if (paths.length) out(`Made owner-only (they were readable by others): ${paths.join(', ')}\n`)
}

/**
 * A SQLite file is created by opening it: say so instead of creating an empty database. A
 * PostgreSQL database exists or the connection says it does not.
 */
function assertDatabaseExists(config: Config): void {
  const path = isPostgresUrl(config.databaseUrl) ? undefined : sqlitePath(config.databaseUrl)
  if (path !== undefined && path !== ':memory:' && !existsSync(path))
    throw new Error(
      `no database at ${path}; run linkd init first (or set LINKD_DATA_DIR / LINKD_DATABASE_URL)`,
    )
}

/**
 * The daemon's URL as its settings give it, for the owner key's login line: with port 0 linkd
 * picks its port at start, which an offline command cannot know.
 */
function daemonUrl(config: Config): string {
  return config.port === 0
    ? config.publicUrl.replace(/:0$/, ':<the port linkd listens on>')
    : config.publicUrl
}

/** `linkd init`: create the data dir, master key, schema and the default organization. */
export async function initCommand(config: Config, out: Out): Promise<void> {
  const b = await bootstrap(config)
  await b.db.close()
  reportTightened(b.tightened, out)
  if (b.generatedMasterKey)
    out(`Generated master key ${resolve(config.dataDir, 'secret.key')} (mode 0600); back it up.\n`)
  if (b.applied.length) out(`Applied migrations: ${b.applied.join(', ')}\n`)
  if (b.ownerKey) out(ownerKeyBanner('default', b.ownerKey, daemonUrl(config)))
  else out('Already initialized; the owner key was shown when it was created.\n')
}

/** `linkd migrate`: apply pending migrations to an existing database (`init` creates one) and report. */
export async function migrateCommand(config: Config, out: Out): Promise<void> {
  assertDatabaseExists(config)
  const db = openDatabase(config.databaseUrl)
  reportTightened(db.tightened, out)
  try {
    const pending = (await pendingMigrations(db)).map((m) => m.name)
    await migrate(db, systemClock.now())
    out(pending.length ? `Applied: ${pending.join(', ')}\n` : 'Database is up to date.\n')
  } finally {
    await db.close()
  }
}

/**
 * What `linkd backup` says on PostgreSQL, where a copy is the server's business: the pg_dump
 * command for the configured database (its URL without the password: pg_dump reads that from
 * PGPASSWORD or ~/.pgpass), and where point-in-time recovery is described.
 */
export function postgresBackupAdvice(databaseUrl: string, file: string): string {
  const quoted = (text: string) => `'${text.replace(/'/g, "'\\''")}'`
  return [
    'linkd backup copies SQLite databases only; this installation runs on PostgreSQL, which makes its own backups:',
    '',
    `  pg_dump --format=custom --file=${quoted(resolve(file))} --dbname=${quoted(redactDatabaseUrl(databaseUrl))}`,
    '',
    'with the password in PGPASSWORD or ~/.pgpass (it is not shown here); restore with pg_restore into an',
    'empty database. For point-in-time recovery use WAL archiving (docs/deployment.md, "Backups").',
  ].join('\n')
}

/** `linkd backup <file>`: SQLite online backup, safe while the daemon runs. */
export async function backupCommand(config: Config, file: string, out: Out): Promise<void> {
  if (isPostgresUrl(config.databaseUrl)) throw new Error(postgresBackupAdvice(config.databaseUrl, file))
  assertDatabaseExists(config)
  const target = resolve(file)
  // Created here, empty and owner-only (an empty file is an empty database), so that the copy of
  // every secret hash and sealed value is never readable by others, even for a moment.
  let created: boolean
  try {
    created = createPrivateFile(target)
  } catch (err) {
    throw new Error(`cannot create ${target}: ${pathProblem(target, err)}`, { cause: err })
  }
  if (!created) throw new Error(`${target} already exists; choose a new file`)
  const db = openDatabase(config.databaseUrl)
  reportTightened(db.tightened, out)
  try {
    const started = performance.now()
    await db.sqlite.backup(target)
    out(`Backup written to ${target} in ${Math.round(performance.now() - started)} ms\n`)
  } catch (err) {
    rmSync(target, { force: true })
    throw err
  } finally {
    await db.close()
  }
}

/** `linkd org create <name>`: a new organization and its owner key (printed once). */
export async function orgCreateCommand(
  config: Config,
  name: string,
  plan: string | undefined,
  out: Out,
): Promise<void> {
  if (plan !== undefined && !(PLANS as readonly string[]).includes(plan))
    throw new Error(`plan must be one of ${PLANS.join(', ')}`)
  const b = await bootstrap(config)
  reportTightened(b.tightened, out)
  try {
    if (b.ownerKey) out(ownerKeyBanner('default', b.ownerKey, daemonUrl(config)))
    const { orgs, keys } = adminContext(config, b.db)
    const org = await orgs.create(name, plan as Plan | undefined)
    const key = await keys.createOwnerKey(org.id)
    out(`Created organization "${org.name}" (${org.id}, plan ${org.plan}).\n`)
    out(ownerKeyBanner(org.name, key.key, daemonUrl(config)))
  } finally {
    await b.db.close()
  }
}

/** `linkd org set-plan <org> <plan>`. */
export async function orgSetPlanCommand(config: Config, org: string, plan: string, out: Out): Promise<void> {
  assertDatabaseExists(config)
  const db = openDatabase(config.databaseUrl)
  reportTightened(db.tightened, out)
  try {
    await migrate(db, systemClock.now())
    const updated = await adminContext(config, db).orgs.setPlan(org, plan)
    out(`Organization "${updated.name}" is now on the ${updated.plan} plan.\n`)
  } finally {
    await db.close()
  }
}

/**
 * `linkd keys create --org ORG [--name N] [--preset P]`: the way back in for an organization left
 * without a usable key holding keys:write. Works on the database directly (the daemon may run or
 * be stopped; it sees the key at once), is not bound by the plan's key limit, and prints the key
 * once to stdout, nowhere else.
 */
export async function keysCreateCommand(
  config: Config,
  opts: { org: string; name?: string | undefined; preset?: string | undefined },
  out: Out,
): Promise<void> {
  const preset = opts.preset ?? 'full'
  if (!(PRESET_NAMES as readonly string[]).includes(preset))
    throw new Error(`unknown preset "${preset}"; choose one of ${PRESET_NAMES.join(', ')}`)
  const name = (opts.name ?? 'recovery').trim()
  if (!name || name.length > KEY_LIMITS.nameMax)
    throw new Error(`--name must be 1-${KEY_LIMITS.nameMax} characters`)
  if (!isVisibleText(name))
    throw new Error(
      '--name must not contain control, bidirectional-override, zero-width or other invisible characters',
    )
  assertDatabaseExists(config)
  const db = openDatabase(config.databaseUrl)
  reportTightened(db.tightened, out)
  try {
    await migrate(db, systemClock.now())
    const { orgs, keys } = adminContext(config, db)
    const org = await orgs.resolve(opts.org)
    const key = await keys.createRecoveryKey(org.id, { name, preset: preset as Preset })
    out(
      [
        `Created API key "${key.name}" (${key.id}) in organization "${org.name}" with preset ${preset}.`,
        'Shown once; store it now:',
        '',
        `  ${key.key}`,
        '',
        '',
      ].join('\n'),
    )
  } finally {
    await db.close()
  }
}

/** `linkd members list --org ORG [--json]`: the organization's team members, on the database directly. */
export async function membersListCommand(
  config: Config,
  opts: { org: string; json?: boolean | undefined },
  out: Out,
): Promise<void> {
  assertDatabaseExists(config)
  const db = openDatabase(config.databaseUrl)
  reportTightened(db.tightened, out)
  try {
    await migrate(db, systemClock.now())
    const { orgs, team } = adminContext(config, db)
    const org = await orgs.resolve(opts.org)
    const members = await team.all(org.id)
    if (opts.json) {
      out(JSON.stringify(members, null, 2) + '\n')
      return
    }
    const rows = members.map((m) => [m.id, m.role, m.name, m.email ?? '-', m.joinedAt])
    out(rows.map((r) => r.join('\t')).join('\n') + (rows.length ? '\n' : ''))
  } finally {
    await db.close()
  }
}
