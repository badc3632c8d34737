/** An upload prints no AWS SDK notice about Node.js versions; other warnings still show. */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../../..')

describe('S3 uploads and process warnings', () => {
  it('no NodeVersionSupportWarning from the AWS SDK; linkd’s own warnings still print', () => {
    const env = { ...process.env }
    delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED
    delete env.NODE_NO_WARNINGS
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(root, 'test/daemon/exports/s3-warnings.ts')],
      // A bound for a hang, not for speed.
      { cwd: root, env, encoding: 'utf8', timeout: 55_000 },
    )
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).toContain('a warning of linkd')
    expect(run.stderr).not.toMatch(/NodeVersionSupportWarning|AWS SDK for JavaScript/)
  })
})
