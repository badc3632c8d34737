/**
 * End to end: the Team screen of `linkctl tui` (the built binary) in tmux against the built linkd:
 * an invitation made in the screen, accepted over HTTP, then the new member's role changed and
 * the member removed after y. Needs tmux and `npm run build` first.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanEnv, LINKCTL, startLinkdForCli, type LinkdForCli } from '../support/processes.js'
import { missingBinaries } from '../support/binaries.js'
import { Tmux } from '../support/tmux.js'

const noTmux = missingBinaries('tmux')
const tmux = new Tmux(`linkd-tui-team-e2e-${process.pid}`)
const paneWith = (...texts: string[]) => tmux.paneWith(texts)
/** The pane once it matches `re` (polls, like paneWith). */
async function paneMatching(re: RegExp): Promise<string> {
  const end = Date.now() + 15_000
  for (;;) {
    const pane = tmux.screen()
    if (re.test(pane)) return pane
    if (Date.now() > end) throw new Error(`the pane never matched ${String(re)}:\n${pane}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe.skipIf(noTmux)('the Team screen of linkctl tui (tmux)', () => {
  let l: LinkdForCli

  beforeAll(async () => {
    l = await startLinkdForCli('linkctl-tui-team-e2e-')
    const env = cleanEnv({ ...l.env, LINKCTL_CONFIG_DIR: join(l.work, 'config'), TERM: 'xterm-256color' })
    tmux.start(`${process.execPath} ${LINKCTL} tui --refresh 1`, env, 110, 30)
  }, 60_000)

  afterAll(async () => {
    tmux.kill()
    await l?.close()
  })

  it('0 opens Team: the Owner member, no pending invitation', async () => {
    await paneWith(' 1 Home ', '● ok')
    await tmux.keys('0')
    const pane = await paneWith('1 member · 0 pending invitations', 'Pending invitations')
    expect(pane).toMatch(/Owner\s+owner/)
    // The status line names the member the key acts as (GET /api/team/me).
    expect(pane).toContain('Owner (owner) · owner (lk_•••')
  })

  it('invites from the form: the token once, with the join command for this linkd', async () => {
    await tmux.keys('i')
    await paneWith('Invite a teammate', 'E-mail')
    // The address typed in one write, as a paste; the role field keeps `member`.
    tmux.write('ana@example.com')
    await paneWith('E-mail: ana@example.com')
    await tmux.keys('Enter', 'Enter')
    const pane = await paneWith('shown only this once', 'They run:')
    const token = /lkinv_[A-Za-z0-9]{32}/.exec(pane)?.[0] ?? ''
    expect(token).not.toBe('')
    // Two lines the shell joins (a trailing \), as pasted.
    expect(pane.replace(/ \\ *\n\s*/g, ' ')).toContain(
      `linkctl team join ${token} --url ${l.daemon.url} --name <Name>`,
    )
    await tmux.keys('z')
    expect(await paneWith('1 pending invitation', 'ana@example.com')).not.toContain(token)
    // The teammate accepts (as `linkctl team join` does); the screen shows the new member.
    const res = await fetch(`${l.daemon.url}/api/team/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, name: 'Ana' }),
    })
    expect(res.status).toBe(201)
    await paneWith('2 members · 0 pending invitations')
  })

  it('changes the role with one key, and removes the member after y', async () => {
    const pane = await paneWith('Ana')
    const anaFirst = pane.indexOf('Ana ') < pane.indexOf('Owner ')
    await tmux.keys(anaFirst ? 'g' : 'G', 'r')
    await paneWith('New role for Ana (now member)')
    await tmux.keys('v')
    await paneWith('Ana is now viewer')
    await paneMatching(/Ana\s+viewer/)
    await tmux.keys('d')
    await paneWith('Remove Ana (viewer)?', '[y/N]')
    await tmux.keys('y')
    await paneWith('removed Ana; their keys are revoked')
    const after = await paneMatching(/1 member · 0 pending/)
    expect(after).not.toMatch(/Ana\s+viewer/)
  })
})
