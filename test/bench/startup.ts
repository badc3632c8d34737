import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LINKCTL, LINKD, root } from '../support/processes.js'
import { fmt, freePort, median, report, rssMb, spawnUntilReady, stop, timeCommand } from './lib.js'

const linkd = LINKD
const linkctl = LINKCTL
const bareServer = join(root, 'test/bench/bare-fastify.js')

/**
 * linkctl start-up and linkd start-to-ready / idle memory, each against a baseline measured in
 * the same run: `node -e 0` for CLI wall time, a bare Fastify server for the daemon.
 */
export async function startupBench(runs = 15): Promise<void> {
  const nodeMs = timeCommand(process.execPath, ['-e', '0'], runs)
  const versionMs = timeCommand(process.execPath, [linkctl, '--version'], runs)

  const dataDir = mkdtempSync(join(tmpdir(), 'linkd-bench-'))
  try {
    const port = await freePort()
    const env = { ...process.env, LINKD_DATA_DIR: dataDir, LINKD_PORT: String(port), LINKD_LOG_LEVEL: 'warn' }
    const url = `http://127.0.0.1:${port}`
    // First start creates the database; the measured starts reuse it.
    let ownerKey = ''
    {
      const { child } = await spawnUntilReady(process.execPath, [linkd], `${url}/health/ready`, env)
      child.stdout?.removeAllListeners('data')
      await stop(child)
    }
    {
      // Read the owner key from `linkd org create` for the keys list benchmark.
      const { spawnSync } = await import('node:child_process')
      const out = spawnSync(process.execPath, [linkd, 'org', 'create', 'bench'], { env }).stdout.toString()
      ownerKey = /lk_live_[A-Za-z0-9]{32}/.exec(out)?.[0] ?? ''
    }

    const readyTimes: number[] = []
    const bareTimes: number[] = []
    let idleRss = 0
    let bareRss = 0
    let listMs = 0
    for (let i = 0; i < 7; i++) {
      const bare = await spawnUntilReady(process.execPath, [bareServer], `${url}/health`, {
        ...env,
        PORT: String(port),
      })
      bareTimes.push(bare.readyMs)
      if (i === 6) {
        await new Promise((r) => setTimeout(r, 1000))
        bareRss = rssMb(bare.child.pid!)
      }
      await stop(bare.child)

      const d = await spawnUntilReady(process.execPath, [linkd], `${url}/health/ready`, env)
      readyTimes.push(d.readyMs)
      if (i === 6) {
        const cliEnv = {
          ...process.env,
          LINKCTL_URL: url,
          LINKCTL_API_KEY: ownerKey,
          LINKCTL_CONFIG_DIR: dataDir,
        }
        listMs = timeCommand(process.execPath, [linkctl, 'keys', 'list', '--json'], runs, cliEnv)
        await new Promise((r) => setTimeout(r, 1000))
        idleRss = rssMb(d.child.pid!)
      }
      await stop(d.child)
    }
    const ready = median(readyTimes)
    const bare = median(bareTimes)
    report('linkctl start-up (median wall time)', [
      ['node -e 0 (baseline)', `${fmt(nodeMs)} ms`],
      [
        'linkctl --version',
        `${fmt(versionMs)} ms  (${fmt(versionMs / nodeMs, 2)}x baseline; target <= 1.5x)`,
      ],
      ['linkctl keys list --json', `${fmt(listMs)} ms  (${fmt(listMs / nodeMs, 2)}x baseline)`],
    ])
    report('linkd start-to-ready on an existing database (median of 7)', [
      ['bare Fastify server (baseline)', `${fmt(bare)} ms`],
      ['linkd', `${fmt(ready)} ms  (${fmt(ready / bare, 2)}x baseline; target <= 500 ms)`],
    ])
    report('idle RSS after start-up', [
      ['bare Fastify server (baseline)', `${fmt(bareRss)} MB`],
      ['linkd', `${fmt(idleRss)} MB  (${fmt(idleRss / bareRss, 2)}x baseline; target <= 80 MB)`],
    ])
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
