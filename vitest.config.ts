import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

/**
 * `npm test` runs every file on SQLite. `npm run test:pg` (LINKD_TEST_ENGINE=postgres) runs the
 * same files on a real PostgreSQL server, except those listed in test/postgres-pending.ts (about
 * SQLite itself, or touching no database at all).
 */
const onPostgres = process.env.LINKD_TEST_ENGINE === 'postgres'
const { ENGINE_FREE, SQLITE_ONLY, NOT_YET_ON_POSTGRES } = onPostgres
  ? await import('./test/postgres-pending.js')
  : { ENGINE_FREE: [], SQLITE_ONLY: [], NOT_YET_ON_POSTGRES: [] }

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: [
      'test/bench/**',
      'node_modules/**',
      'dist/**',
      ...ENGINE_FREE,
      ...SQLITE_ONLY,
      ...NOT_YET_ON_POSTGRES,
    ],
    // Timeouts catch hangs, not slowness: a loaded 2-core CI machine runs some tests 4x slower
    // than a quiet one (docs/decisions/test-isolation.md).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The files of a worker share one module graph (docs/decisions/test-isolation.md): importing
    // the daemon afresh for each file was half of the run. Two workers even on 2 cores: a test
    // waits on its daemons and servers much of the time.
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Prints, after the run, the tests skipped for missing tools and how to install them; starts
    // the PostgreSQL server of `npm run test:pg`.
    globalSetup: ['test/support/skipped-tools.ts', 'test/support/postgres-setup.ts'],
  },
})
