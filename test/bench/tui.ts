import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { cleanEnv, LINKCTL, startLinkd } from '../support/processes.js'
import { Tmux, tmuxBinary } from '../support/tmux.js'
import { cpuMs, fmt, report, rssMb, timeCommand } from './lib.js'

const LINKS = 100_000
const IDLE_MS = 30_000

/**
 * `linkctl tui` in tmux (80×24) against the built linkd holding 100k links: time to the first
 * full Home frame (baseline: `linkctl status --json`, same daemon, same run), idle CPU with the
 * default refresh and the bytes it writes to the terminal per refresh (tmux's pipe-pane copies
 * what the program writes to a file), and RSS on Home and after scrolling the whole links list
 * page by page.
 */
export async function tuiBench(): Promise<void> {
  if (!tmuxBinary) {
    report('linkctl tui', [['skipped', 'tmux is not installed']])
    return
  }
  const work = mkdtempSync(join(tmpdir(), 'linkd-bench-tui-'))
  const daemon = await startLinkd(join(work, 'data'))
  const tmux = new Tmux(`linkd-bench-tui-${process.pid}`)
  const run = (...args: string[]) => tmux.run(args)
  try {
    const key = daemon.ownerKey() ?? ''
    for (let batch = 0; batch < LINKS / 1000; batch++) {
      const links = Array.from({ length: 1000 }, (_, i) => ({
        destinationUrl: `https://example.com/${batch}/${i}`,
      }))
      const res = await fetch(`${daemon.url}/api/use/links/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ links }),
      })
      if (res.status >= 300) throw new Error(`bulk create: HTTP ${res.status}`)
    }
    const env = cleanEnv({
      LINKCTL_URL: daemon.url,
      LINKCTL_API_KEY: key,
      LINKCTL_CONFIG_DIR: join(work, 'config'),
      TERM: 'xterm-256color',
    })
    const statusMs = timeCommand(process.execPath, [LINKCTL, 'status', '--json'], 7, env)

    const t0 = performance.now()
    tmux.start(`exec ${process.execPath} ${LINKCTL} tui`, env)
    while (!/games\s+\d/.test(run('capture-pane', '-p'))) await sleep(5)
    const firstFrameMs = performance.now() - t0
    const pid = Number(run('display', '-p', '#{pane_pid}').trim())

    await sleep(5_000)
    const written = join(work, 'written')
    run('pipe-pane', '-o', `cat >> ${written}`)
    const cpu0 = cpuMs(pid)
    await sleep(IDLE_MS)
    const idleCpu = ((cpuMs(pid) - cpu0) / IDLE_MS) * 100
    run('pipe-pane')
    const bytesPerRefresh = (statSync(written, { throwIfNoEntry: false })?.size ?? 0) / (IDLE_MS / 5_000)
    const homeRss = rssMb(pid)

    run('send-keys', '2')
    await sleep(1_000)
    // Page down through the list, to its end, and back up: pages are fetched around the window only.
    for (let i = 0; i < 300; i++) run('send-keys', 'PgDn')
    run('send-keys', 'G')
    while (!run('capture-pane', '-p').includes(`${LINKS} of ${LINKS}`)) await sleep(20)
    for (let i = 0; i < 300; i++) run('send-keys', 'PgUp')
    await sleep(3_000)
    const scrolledRss = rssMb(pid)
    run('send-keys', 'q')

    report('linkctl tui (80×24, 100k links)', [
      [
        'first full Home frame, tmux start included',
        `${fmt(firstFrameMs)} ms (linkctl status --json: ${fmt(statusMs)} ms, ${fmt(firstFrameMs / statusMs, 2)}×; target ≤ 500 ms)`,
      ],
      ['idle CPU, Home, default refresh (5 s), 30 s', `${fmt(idleCpu, 2)} % (target ≤ 2 %)`],
      ['bytes written to the terminal per idle refresh, Home', `${fmt(bytesPerRefresh)} B`],
      ['RSS on Home', `${fmt(homeRss)} MB`],
      ['RSS after scrolling the 100k links', `${fmt(scrolledRss)} MB (target ≤ 120 MB)`],
    ])
  } finally {
    tmux.kill()
    await daemon.stop('SIGKILL')
    rmSync(work, { recursive: true, force: true })
  }
}
