/**
 * The curl example of docs/reference/gaming.md (ingestion), run as a reader runs it: the shell
 * block verbatim, with only the variables it asks for set, against a listening linkd. It must
 * be accepted whole (the batch fields a first try tends to miss are in it).
 */
import { execFile } from 'node:child_process'
import { dirname } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { missingBinaries } from '../../../support/binaries.js'
import { startTestDaemon, type TestDaemon } from '../../../support/daemon.js'
import { fences } from '../../../support/deployment-docs.js'
import { createGame } from '../../../support/gaming.js'

function sh(script: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) =>
    execFile('bash', ['-c', script], { env, timeout: 60_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve({ stdout, stderr }),
    ),
  )
}

describe.skipIf(missingBinaries('bash', 'curl'))('the ingestion curl example of the gaming reference', () => {
  let d: TestDaemon
  let game: GameWithSecrets
  beforeAll(async () => {
    d = await startTestDaemon()
    // The example stamps the batch with the machine's time; the daemon's clock reads the same.
    d.clock.set(Date.now())
    game = await createGame(d.testApp)
  })
  afterAll(() => d.close())

  it('is accepted whole: both events stored, the purchase counted as revenue', async () => {
    const [example] = fences('sh', 'docs/reference/gaming.md').filter((f) =>
      f.includes('/api/v1/gaming/events'),
    )
    expect(example).toBeDefined()
    const { stdout } = await sh(example!, {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      LINKD_URL: d.url,
      SDK_KEY: game.sdkKey,
      GAME_ID: game.id,
      ORG_ID: game.organizationId,
    })
    expect(JSON.parse(stdout)).toMatchObject({
      accepted: 2,
      flagged: 0,
      blocked: 0,
      duplicates: 0,
      rejected: 0,
      errors: [],
    })
    const overview = await d.testApp.call('GET', `/api/v1/analytics/games/${game.id}/overview`)
    expect(overview.json()).toMatchObject({ dau: 1, revenue: { total: 4.99, iap: 4.99 } })
  })
})
