import { defineConfig } from 'vitest/config'

/**
 * `npm test` runs every file on SQLite. `npm run test:pg` (LINKD_TEST_ENGINE=postgres) runs the
 * same files on a real PostgreSQL server, except those about SQLite itself and those listed in
 * test/postgres-pending.ts (not ported yet; the list only shrinks).
 */
const onPostgres = process.env.LINKD_TEST_ENGINE === 'postgres'
const { SQLITE_ONLY, NOT_YET_ON_POSTGRES } = onPostgres
  ? await import('./test/postgres-pending.js')
  : { SQLITE_ONLY: [], NOT_YET_ON_POSTGRES: [] }

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/bench/**', 'node_modules/**', 'dist/**', ...SQLITE_ONLY, ...NOT_YET_ON_POSTGRES],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Prints, after the run, the tests skipped for missing tools and how to install them; starts
    // the PostgreSQL server of `npm run test:pg`.
    globalSetup: ['test/support/skipped-tools.ts', 'test/support/postgres-setup.ts'],
  },
})
