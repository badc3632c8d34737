/**
 * End to end: `linkctl tui` (the built binary) in tmux against the built linkd. The Home figures
 * appear; a link created through the form gets redirects and its detail's click count and
 * sparkline follow; q leaves with exit 0 and the terminal's own screen back. Needs tmux and
 * `npm run build` first.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanEnv, LINKCTL, startLinkd, type RunningLinkd } from '../support/processes.js'
import { missingBinaries } from '../support/binaries.js'
import { Tmux } from '../support/tmux.js'

const BROWSER_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15'

let daemon: RunningLinkd
let work = ''
const socket = `linkd-tui-e2e-${process.pid}`
const tmux = new Tmux(socket)
const screen = () => tmux.screen()
const paneWith = (...texts: string[]) => tmux.paneWith(texts)
const keys = (...sequence: string[]) => tmux.keys(...sequence)

describe.skipIf(missingBinaries('tmux'))('linkctl tui in a terminal (tmux)', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'linkctl-tui-e2e-'))
    daemon = await startLinkd(join(work, 'data'))
    const env = cleanEnv({
      LINKCTL_URL: daemon.url,
      LINKCTL_API_KEY: daemon.ownerKey() ?? '',
      LINKCTL_CONFIG_DIR: join(work, 'config'),
      TERM: 'xterm-256color',
    })
    const command = `${process.execPath} ${LINKCTL} tui --refresh 1; echo "exit $?" > ${join(work, 'exit')}; sleep 60`
    tmux.start(command, env)
  }, 60_000)

  afterAll(async () => {
    tmux.kill()
    if (daemon) await daemon.stop('SIGKILL')
    if (work) rmSync(work, { recursive: true, force: true })
  })

  it('shows the Home figures of the real daemon', async () => {
    const pane = await paneWith(' 1 Home ', '● ok', 'links ', 'Jobs')
    expect(pane).toMatch(/links\s+0/)
    expect(pane).toMatch(/webhooks failing\s+0/)
    expect(pane).toContain('owner (lk_•••')
  })

  it('creates a link through the form; redirects show in its click count and sparkline', async () => {
    await keys('2')
    await paneWith('No links yet')
    await keys(
      'n',
      'https://example.com/tui-e2e',
      'Enter',
      'From the TUI',
      'Enter',
      'tui-e2e',
      'Enter',
      'Enter',
    )
    await paneWith(`${daemon.url}/tui-e2e`, 'From the TUI', 'Clicks, last 48 hours: 0')
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${daemon.url}/tui-e2e`, {
        redirect: 'manual',
        headers: { 'user-agent': BROWSER_UA },
      })
      expect(res.status).toBe(302)
    }
    const pane = await paneWith('Clicks, last 48 hours: 3')
    // The last hour's block is the highest one; the hours before are empty.
    expect(pane).toMatch(/▁+█/)
    await keys('Escape')
    await paneWith('1 links', 'tui-e2e')
  })

  it('after screens, overlays, clicks and resizes, the pane equals a whole redraw: no stale lines', async () => {
    // Frames of every length: the list, Home, the keys list, the help overlay, the list again.
    for (const [key, text] of [
      ['1', 'Jobs'],
      ['3', 'Keys'],
      ['?', 'Keys of'],
      ['x', 'Keys'],
      ['2', 'tui-e2e'],
    ]) {
      await keys(key!)
      await paneWith(text!)
    }
    await fetch(`${daemon.url}/tui-e2e`, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } })
    tmux.run(['resize-window', '-x', '100', '-y', '30'])
    await paneWith('tui-e2e')
    tmux.run(['resize-window', '-x', '80', '-y', '24'])
    await paneWith('tui-e2e')
    await keys('1', '2')
    await paneWith('tui-e2e')
    // Ctrl-L writes the whole frame on a cleared screen: what a fresh render shows (text written
    // on the terminal by something else first, to see that it does). A figure that changes
    // meanwhile (a relative time) makes the two differ: then look again.
    const tty = tmux.run(['display', '-p', '#{pane_tty}']).trim()
    let seen = ''
    let fresh = ''
    for (let attempt = 0; attempt < 5; attempt++) {
      seen = screen()
      writeFileSync(tty, '\x1b[12;40HNOT PART OF THE FRAME')
      await paneWith('NOT PART OF THE FRAME')
      tmux.run(['send-keys', 'C-l'])
      const end = Date.now() + 5_000
      while ((fresh = screen()).includes('NOT PART OF THE FRAME') && Date.now() < end) await sleep(50)
      if (seen === fresh) break
    }
    expect(fresh).not.toContain('NOT PART OF THE FRAME')
    expect(seen).toBe(fresh)
    expect(seen.split('\n').length).toBeGreaterThanOrEqual(24)
  })

  it('q quits with exit code 0 and gives the terminal its own screen back', async () => {
    await keys('q')
    const end = Date.now() + 10_000
    while (!existsSync(join(work, 'exit')) && Date.now() < end) await sleep(100)
    expect(readFileSync(join(work, 'exit'), 'utf8').trim()).toBe('exit 0')
    expect(screen()).not.toContain('1 Home')
  })

  it('colours the health on a colour terminal, and uses no colour under NO_COLOR', async () => {
    const colourCode = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*(3[0-7]|9[0-7]|38;[25][0-9;]*)m`)
    const panes: Record<string, string> = {}
    for (const [name, extra] of [
      ['colour', {}],
      ['plain', { NO_COLOR: '1' }],
    ] as const) {
      const env = cleanEnv({
        LINKCTL_URL: daemon.url,
        LINKCTL_API_KEY: daemon.ownerKey() ?? '',
        LINKCTL_CONFIG_DIR: join(work, 'config'),
        TERM: 'xterm-256color',
        ...extra,
      })
      const other = new Tmux(`${socket}-${name}`)
      other.start(`${process.execPath} ${LINKCTL} tui`, env)
      try {
        await other.paneWith(['● ok'])
        panes[name] = other.screen(true)
      } finally {
        other.kill()
      }
    }
    expect(panes.colour).toMatch(colourCode)
    expect(panes.plain).toContain('● ok')
    expect(panes.plain).not.toMatch(colourCode)
  })

  it('a SIGTERM restores the terminal before exiting (143)', async () => {
    const other = new Tmux(`${socket}-term`)
    const env = cleanEnv({
      LINKCTL_URL: daemon.url,
      LINKCTL_API_KEY: daemon.ownerKey() ?? '',
      LINKCTL_CONFIG_DIR: join(work, 'config'),
      TERM: 'xterm-256color',
    })
    const exitFile = join(work, 'exit-term')
    const command = `echo before-tui; ${process.execPath} ${LINKCTL} tui; echo "exit $?" > ${exitFile}; sleep 60`
    other.start(command, env)
    try {
      await other.paneWith(['● ok'])
      const shell = String(other.panePid())
      const tui = execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim().split('\n')[0] ?? ''
      process.kill(Number(tui), 'SIGTERM')
      const end = Date.now() + 10_000
      while (!existsSync(exitFile) && Date.now() < end) await sleep(100)
      expect(readFileSync(exitFile, 'utf8').trim()).toBe('exit 143')
      const pane = other.screen()
      expect(pane).toContain('before-tui')
      expect(pane).not.toContain('● ok')
    } finally {
      other.kill()
    }
  })
})
