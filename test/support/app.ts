import { CompiledQuery } from 'kysely'
import { numbered } from '../../daemon/db/postgres-rows.js'
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp, type AppDeps } from '../../daemon/app.js'
import { loadConfig, type Config } from '../../daemon/config.js'
import { openDatabase, type Db } from '../../daemon/db/open.js'
import { migrate } from '../../daemon/db/migrate.js'
import { FakeClock } from './clock.js'
import { createTestDatabase, onPostgres } from './postgres.js'
import type { ApiKeyWithSecret, CreateKeyBody } from '../../src/contract/keys.js'
import type { Plan } from '../../src/contract/limits.js'

export interface TestApp {
  app: FastifyInstance
  db: Db
  clock: FakeClock
  config: Config
  /** Owner key of organization `default` (every scope). */
  ownerKey: string
  orgId: string
  /** Authenticated inject with the owner key unless `key` is given. */
  call(
    method: InjectOptions['method'],
    url: string,
    opts?: { body?: unknown; key?: string | null; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>
  /** Creates a key through the API (owner key by default). */
  createKey(body: Partial<CreateKeyBody>, key?: string): Promise<ApiKeyWithSecret>
  /** A second organization with its own owner key. */
  createOrg(name: string, plan?: Plan): Promise<{ orgId: string; ownerKey: string }>
  close(): Promise<void>
}

/**
 * The real app with a fake clock, on an in-memory SQLite database, or under `npm run test:pg` on a
 * new PostgreSQL database of its own (dropped by `close`). A test that passes its own
 * `databaseUrl` (a file, shared by two apps) keeps it.
 */
export async function createTestApp(
  overrides: Record<string, unknown> = {},
  deps: Pick<
    AppDeps,
    'resolve' | 'logger' | 'skanPublicKeys' | 'domainFile' | 'exportRetryDelaysMs' | 'webhookSweepMs'
  > &
    Partial<Pick<AppDeps, 'masterKey'>> = {},
  /** `orgName`: the test organization's name, for a second app on the same database file. */
  opts: { orgName?: string } = {},
): Promise<TestApp> {
  const clock = new FakeClock()
  const own = onPostgres && !('databaseUrl' in overrides) ? await createTestDatabase() : undefined
  const config = loadConfig({
    env: {},
    flags: {
      dataDir: '/nonexistent-linkd-test',
      databaseUrl: own?.url ?? 'sqlite::memory:',
      logLevel: 'silent',
      // No network in tests: nothing answers DNS on port 1, and no ACME CA unless a test names one.
      dnsResolvers: '127.0.0.1:1',
      acmeDirectory: 'off',
      ...overrides,
    },
  })
  const db = openDatabase(config.databaseUrl)
  await migrate(db, clock.now())
  const app = await buildApp({ config, db, clock, masterKey: randomBytes(32), ...deps })
  const { orgs, keys } = app.linkd.services
  const org = await orgs.create(opts.orgName ?? 'default')
  const ownerKey = (await keys.createOwnerKey(org.id)).key

  const t: TestApp = {
    app,
    db,
    clock,
    config,
    ownerKey,
    orgId: org.id,
    call(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) }
      const key = opts.key === undefined ? ownerKey : opts.key
      if (key !== null) headers.authorization = `Bearer ${key}`
      return app.inject({
        method,
        url,
        headers,
        ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
      })
    },
    async createKey(body, key) {
      const res = await t.call('POST', '/api/keys', {
        body: { name: 'test key', ...body },
        ...(key ? { key } : {}),
      })
      if (res.statusCode !== 201) throw new Error(`create key failed: ${res.statusCode} ${res.body}`)
      return res.json<ApiKeyWithSecret>()
    },
    async createOrg(name, plan) {
      const o = await orgs.create(name, plan)
      return { orgId: o.id, ownerKey: (await keys.createOwnerKey(o.id)).key }
    },
    async close() {
      await app.close()
      await db.close()
      await own?.drop()
    },
  }
  return t
}

/** The daemon's scheduled jobs, sorted by name: what /health/ready and the scheduler list. */
export const JOB_NAMES = [
  'expire-domain-claims',
  'expire-keys',
  'expire-links',
  'fraud-blocklist-expiry',
  'gaming-compaction',
  'gaming-raw-retention',
  'gdpr-deletions',
  'gdpr-records-purge',
  'prune-audit-log',
  'prune-idempotency',
  'prune-key-activity',
  'prune-webhook-deliveries',
  'purge-deleted-link-clicks',
  'recheck-domains',
  'recheck-safety-lists',
  'renew-certificates',
  'scheduled-exports',
]

/** The rows of a portable SQL statement with `?` placeholders, on either engine (tests' look-ups). */
export async function sqlRows<R = Record<string, unknown>>(
  t: Pick<TestApp, 'db'>,
  text: string,
  ...args: unknown[]
) {
  const query = CompiledQuery.raw(t.db.dialect === 'postgres' ? numbered(text) : text, args)
  return (await t.db.kysely.executeQuery<R>(query)).rows
}

/** Rows of `table` matching `where` (`?` placeholders for `args`), on either engine. */
export async function count(
  t: Pick<TestApp, 'db'>,
  table: string,
  where = '1 = 1',
  ...args: unknown[]
): Promise<number> {
  const rows = await sqlRows<{ n: number }>(t, `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, ...args)
  return Number(rows[0]!.n)
}
