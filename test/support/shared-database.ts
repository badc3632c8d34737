/**
 * Several apps (stand-ins for linkd processes) on ONE database: a PostgreSQL database of its own
 * under `npm run test:pg`, a SQLite file otherwise. Each app has its own fake clock, caches,
 * scheduler and webhook sender, as separate processes would.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestApp, type TestApp } from './app.js'
import { createTestDatabase, onPostgres } from './postgres.js'

export interface SharedDatabase {
  url: string
  drop(): Promise<void>
}

/** A new database for several apps or linkd processes. */
export async function createSharedDatabase(): Promise<SharedDatabase> {
  if (onPostgres) return createTestDatabase()
  const dir = mkdtempSync(join(tmpdir(), 'linkd-shared-'))
  return {
    url: `sqlite:${join(dir, 'linkd.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  }
}

export interface SharedApps {
  apps: TestApp[]
  database: SharedDatabase
  close(): Promise<void>
}

/**
 * `count` apps on one new database with one master key (as processes of one installation);
 * organization `org-i` (its owner key) was created through app i.
 */
export async function createSharedApps(
  count: number,
  overrides: Record<string, unknown> = {},
  deps: Parameters<typeof createTestApp>[1] = {},
): Promise<SharedApps> {
  const database = await createSharedDatabase()
  const apps: TestApp[] = []
  const masterKey = randomBytes(32)
  try {
    for (let i = 0; i < count; i++)
      apps.push(
        await createTestApp(
          { ...overrides, databaseUrl: database.url },
          { masterKey, ...deps },
          { orgName: `org-${i}` },
        ),
      )
  } catch (err) {
    await Promise.allSettled(apps.map((a) => a.close()))
    await database.drop()
    throw err
  }
  return {
    apps,
    database,
    async close() {
      await Promise.allSettled(apps.map((a) => a.close()))
      await database.drop()
    },
  }
}

/**
 * Asks `probe` until it holds (what another process must hear of: the change feed answers in
 * milliseconds, the caches it invalidates live 10-30 s); fails after 5 s naming `what`.
 */
export async function eventually(probe: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const until = Date.now() + 5000
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`not within 5 s: ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
