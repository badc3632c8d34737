/**
 * End to end: `linkctl tui` (the built binary) in tmux against the built linkd. The Home figures
 * appear; a link created through the form gets redirects and its detail's click count and
 * sparkline follow; options set in the edit form reach the daemon; a QR code made in its pane counts a scan; q leaves with exit 0 and the terminal's own screen back. Needs tmux and
 * `npm run build` first.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanEnv, LINKCTL, runBin, startLinkd, type RunningLinkd } from '../support/processes.js'
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

const noTmux = missingBinaries('tmux')

describe.skipIf(noTmux)('linkctl tui in a terminal (tmux)', () => {
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
      // Tags, expired URL, click limit and password left empty: Enter on the last saves.
      'Enter',
      'Enter',
      'Enter',
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
    await paneWith('1 link ·', 'tui-e2e')
  })

  it('sets link options through the edit form, saved with Ctrl-S; linkctl links get shows them', async () => {
    await keys('e')
    await paneWith('Edit tui-e2e', 'Expire after N clicks')
    await keys('Down', 'Down', 'Down', 'Down', 'Down', '25', 'Down', 'Down')
    tmux.run(['send-keys', 'C-u'])
    await keys('n')
    await paneWith('Forward the query string (y/n): n')
    tmux.run(['send-keys', 'C-s']) // saves from this field: the terminal's raw mode passes Ctrl-S on
    await paneWith('saved tui-e2e', 'max 25 clicks (3 used) · query not forwarded')
    const got = await runBin(LINKCTL, ['links', 'get', 'tui-e2e', '--json'], {
      LINKCTL_URL: daemon.url,
      LINKCTL_API_KEY: daemon.ownerKey() ?? '',
      LINKCTL_CONFIG_DIR: join(work, 'config'),
    })
    expect(got.code).toBe(0)
    expect(JSON.parse(got.stdout)).toMatchObject({ shortCode: 'tui-e2e', maxClicks: 25, forwardQuery: false })
    await keys('Escape')
    await paneWith('1 link ·', 'tui-e2e')
  })

  it('s shows the smart links, or says that this daemon has none (404)', async () => {
    await keys('s')
    const pane = await paneWith('0 smart links')
    // A daemon with smart links has none yet here; one without answers their route 404.
    expect(pane).toMatch(/No smart links yet|This daemon has no smart links \(their route answered 404\)/)
    await keys('s')
    await paneWith('1 link ·', 'tui-e2e')
  })

  it('c opens the link’s QR codes: one made through the form counts its scans', async () => {
    await keys('Enter')
    await paneWith('Clicks, last 48 hours', 'c QR codes')
    await keys('c')
    await paneWith('QR codes: 0 · 0 scans in all', 'No QR codes yet')
    await keys('n')
    await paneWith('New QR code for tui-e2e', 'Foreground (#rrggbb): #000000')
    await keys('Poster')
    tmux.run(['send-keys', 'C-s'])
    await paneWith('created the QR code “Poster”', 'QR codes: 1', '#000000 on #ffffff, M')
    const listed = await fetch(`${daemon.url}/api/use/qr-codes`, {
      headers: { authorization: `Bearer ${daemon.ownerKey() ?? ''}` },
    })
    const [code] = ((await listed.json()) as { data: { encodedUrl: string }[] }).data
    const scan = await fetch(code!.encodedUrl, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } })
    expect(scan.status).toBe(302)
    await paneWith('QR codes: 1 · 1 scan in all')
    await keys('Escape', 'Escape')
    await paneWith('1 link ·', 'tui-e2e')
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

/**
 * Keys as a terminal really sends them (Ctrl-L; several keys in one write, as over SSH or with
 * key repeat), screens left and come back to, a 50-column terminal and a read-only key.
 */
describe.skipIf(noTmux)('linkctl tui: keys, kept state, narrow terminals, scopes (tmux)', () => {
  let daemon2: RunningLinkd
  let work2 = ''
  let owner = ''
  const sessions: Tmux[] = []
  const api = async (method: string, path: string, body?: unknown, key = owner) => {
    const res = await fetch(`${daemon2.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    const json = (await res.json()) as Record<string, unknown>
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
    return (json.data ?? json) as Record<string, unknown>
  }
  /** `linkctl tui` with `key` in a tmux server of its own, at `columns`×`rows`. */
  const tui = (name: string, key: string, columns = 80, rows = 24): Tmux => {
    const t = new Tmux(`${socket}-${name}`)
    sessions.push(t)
    const env = cleanEnv({
      LINKCTL_URL: daemon2.url,
      LINKCTL_API_KEY: key,
      LINKCTL_CONFIG_DIR: join(work2, 'config'),
      TERM: 'xterm-256color',
    })
    t.start(`${process.execPath} ${LINKCTL} tui --refresh 1; sleep 60`, env, columns, rows)
    return t
  }
  /** Ctrl-L's whole redraw equals the pane as the line-by-line updates left it (no ghosts). */
  const redrawnEquals = async (t: Tmux): Promise<void> => {
    let seen = ''
    let fresh = ''
    for (let attempt = 0; attempt < 5 && (seen === '' || seen !== fresh); attempt++) {
      seen = t.screen()
      t.run(['send-keys', 'C-l'])
      await sleep(400)
      fresh = t.screen()
    }
    expect(fresh).toBe(seen)
  }

  beforeAll(async () => {
    work2 = mkdtempSync(join(tmpdir(), 'linkctl-tui-keys-'))
    daemon2 = await startLinkd(join(work2, 'data'))
    owner = daemon2.ownerKey() ?? ''
    for (let i = 1; i <= 3; i++)
      await api('POST', '/api/use/links', {
        destinationUrl: `https://example.com/a-rather-long-destination-path/that-is-wider/than-fifty/${i}`,
        customSlug: `seed-${i}`,
      })
  }, 60_000)

  afterAll(async () => {
    for (const t of sessions) t.kill()
    if (daemon2) await daemon2.stop('SIGKILL')
    if (work2) rmSync(work2, { recursive: true, force: true })
  })

  it('Ctrl-L on a list only redraws: it does not open the selected link', async () => {
    const t = tui('ctrl-l', owner)
    await t.paneWith(['● ok'])
    await t.keys('2')
    await t.paneWith(['3 links', 'seed-3', '1 of 3'])
    t.run(['send-keys', 'C-l'])
    await sleep(500) // on its own: not in the same read as the next key
    await t.keys('j')
    const pane = await t.paneWith(['2 of 3'])
    expect(pane).toContain('3 links')
    expect(pane).not.toContain('Esc back')
  })

  it('keys that arrive in one write all take effect, in order, in a form', async () => {
    const t = tui('one-write', owner)
    await t.paneWith(['● ok'])
    await t.keys('2')
    await t.paneWith(['3 links'])
    await t.keys('n')
    await t.paneWith(['New link'])
    t.write('https://example.com/abcd')
    await t.paneWith(['https://example.com/abcd'])
    // Four Backspaces in one write, then text, then seven Enters in one write (the last saves).
    t.write('\x7f\x7f\x7f\x7f')
    t.write('wxyz')
    await t.paneWith(['https://example.com/wxyz'])
    t.write('\r\r\r\r\r\r\r')
    const pane = await t.paneWith(['created', 'Esc back'])
    expect(pane).toContain('https://example.com/wxyz')
  })

  it('Home keeps its events feed, and GDPR its followed deletions, across screens', async () => {
    const game = await api('POST', '/api/v1/admin/games', {
      name: 'Kept Game',
      slug: 'kept-game',
      platform: 'ios',
    })
    const deletion = await api('POST', '/api/v1/gaming/gdpr/deletions', {
      gameId: game.id,
      playerId: 'player-kept',
      reason: 'gdpr_request',
      confirmation: 'DELETE',
    })
    const t = tui('kept', owner, 100, 30)
    await t.paneWith(['● ok', 'Events'])
    await sleep(1500) // a first poll to compare the next ones with
    await api('POST', '/api/use/links', { destinationUrl: 'https://example.com/fed', customSlug: 'feed-1' })
    await t.paneWith(['link created feed-1'])
    await t.keys('2')
    await t.paneWith(['links · /'])
    await t.keys('1')
    expect(await t.paneWith(['Events', 'Jobs'])).toContain('link created feed-1')

    await t.keys('9')
    await t.paneWith(['f follow'])
    await t.keys('f')
    await t.paneWith(['Deletion id'])
    t.write(`${String(deletion.id)}\r`)
    await t.paneWith(['player-kept'])
    await t.keys('1')
    await t.paneWith(['Jobs'])
    await t.keys('9')
    expect(await t.paneWith(['f follow'])).toContain('player-kept')
  })

  it('at 50 columns the tab bar is one line and list rows are clipped, not wrapped', async () => {
    const t = tui('narrow', owner, 50, 20)
    const home = (await t.paneWith(['● ok', 'Jobs'])).split('\n')
    expect(home[0]).toMatch(/^ 1 Home +2 +3 +4 +5 +6 +7 +8 +9 +10 *$/)
    expect(home[1]).not.toMatch(/GDPR|SKAN|Fraud/)
    await t.keys('2')
    const pane = await t.paneWith(['seed-1', 'seed-2', 'of '])
    const lines = pane.split('\n')
    // One line per link, cut at the edge: no wrapped rest of a destination on a line of its own.
    const rows = lines.filter((l) => / just now /.test(l))
    expect(rows.length).toBeGreaterThanOrEqual(3)
    for (const row of rows) expect(row).toMatch(/^\S+\s+0 just now\s+https:\/\/ex/)
    expect(lines.filter((l) => /example|-path|than-fifty/.test(l))).toHaveLength(rows.length)
    await t.keys('j', 'j', '1', '2', '?', 'x')
    await t.paneWith(['seed-1'])
    await redrawnEquals(t)
  })

  it('resized from 100 to 80 columns: no fragment of the wider frame; ids whole; ? wraps under its column', async () => {
    const invited = await api('POST', '/api/team/invitations', {
      email: 'someone.with.a.long.address@marketing.example.com',
      role: 'admin',
    })
    const res = await fetch(`${daemon2.url}/api/team/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: invited.token, name: 'Alexandra Konstantinopoulou-Smythe' }),
    })
    const member = ((await res.json()) as { member: { id: string } }).member.id
    const t = tui('resize', owner, 100, 30)
    await t.paneWith(['● ok'])
    await t.keys('0')
    await t.paneWith([member, 'Pending invitations'])
    t.run(['resize-window', '-x', '80', '-y', '24'])
    const pane = await t.paneWith([member, 'Pending invitations', ' 10 Team'])
    const lines = pane.split('\n')
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(80)
    // The member's row ends with the whole id; no line holds a piece of it.
    expect(lines.find((l) => l.includes('Alexandra'))).toMatch(new RegExp(`admin .* ${member}$`))
    expect(lines.filter((l) => l.includes(member.slice(-8)))).toHaveLength(1)
    await redrawnEquals(t)
    await t.keys('?')
    const help = (await t.paneWith(['Keys of Team', 'everywhere'])).split('\n')
    // A description's next line starts under its column, not at the left edge.
    const at = help.findIndex((l) => l.startsWith('i '))
    const column = help[at]!.indexOf('invite a teammate')
    expect(help[at + 1]!.slice(0, column).trim()).toBe('')
    expect(help[at + 1]![column]).not.toBe(' ')
  })

  it('with a read-only key, Links offers no write action and says which scope a write key needs', async () => {
    const key = await api('POST', '/api/keys', { name: 'read only', permissions: ['links:read'] })
    const t = tui('read-only', String(key.key))
    await t.paneWith(['read only'])
    await t.keys('2')
    const pane = await t.paneWith(['links · / search', 'seed-1'])
    expect(pane).not.toMatch(/n new|e edit|d delete/)
    await t.keys('n')
    const said = await t.paneWith(['needs the scope links:write'])
    expect(said).not.toContain('New link')
    await t.keys('d')
    await t.paneWith(['needs the scope links:delete'])
  })
})
