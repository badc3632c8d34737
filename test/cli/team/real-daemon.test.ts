/**
 * Team commands against a real daemon: a fresh invitation, read on a terminal a moment after the
 * daemon made it, "expires in 7 days"; joining on an invitation whose inviter was removed says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTeamInvite } from '../../../src/cli/commands/team/invite.js'
import { runTeamInvitations } from '../../../src/cli/commands/team/invitations.js'
import { runTeamJoin } from '../../../src/cli/commands/team/join.js'
import { exitCodeFor } from '../../../src/session/exit-codes.js'
import { joinTeam } from '../../support/team.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { tempDir, testCtx } from '../../support/cli.js'

let d: TestDaemon
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(() => d.close())

const tty = () =>
  testCtx({
    flags: { url: d.url, apiKey: d.ownerKey },
    json: false,
    isTTY: true,
    env: { NO_COLOR: '1', COLUMNS: '160' },
  })

describe('invitation expiry on a terminal', () => {
  it('says "in 7 days" right after the invitation is made, in invite and in the list', async () => {
    // The daemon made it two seconds before linkctl reads it.
    d.testApp.clock.set(Date.now() - 2000)
    const invite = tty()
    await runTeamInvite({ email: 'ana@example.com' }, invite.ctx)
    expect(invite.out.text).toContain('; the token expires in 7 days. They run:')
    const list = tty()
    await runTeamInvitations({}, list.ctx)
    const [header, row] = list.out.text.split('\n')
    const cells = row!.split(/\s{2,}/)
    expect(cells[header!.split(/\s{2,}/).indexOf('EXPIRES')]).toBe('in 7 days')
  })
})

/** `linkctl team join` with a fresh config dir: undefined when it joined, else the error. */
async function join(token: string, name: string): Promise<unknown> {
  const cfg = tempDir()
  const { ctx } = testCtx({
    flags: { url: d.url },
    json: false,
    isTTY: false,
    env: { LINKCTL_CONFIG_DIR: cfg.dir },
  })
  return runTeamJoin({ token, name }, ctx)
    .then(() => undefined)
    .catch((e: unknown) => e)
    .finally(() => cfg.remove())
}

describe('joining', () => {
  it("an invitation whose inviter was removed is refused with the daemon's reason (exit 1)", async () => {
    const admin = await joinTeam(d.testApp, 'admin', 'Adm')
    const inv = await d.testApp.call('POST', '/api/team/invitations', {
      key: admin.key,
      body: { email: 'eve@example.com' },
    })
    const token = inv.json<{ token: string }>().token
    expect((await d.testApp.call('DELETE', `/api/team/members/${admin.memberId}`)).statusCode).toBe(204)
    const err = await join(token, 'Eve')
    expect(exitCodeFor(err)).toBe(1)
    expect(String(err)).toContain(
      'this invitation can no longer be used: this invitation was revoked because the member who sent it was removed',
    )
  })

  it('a token used once already is refused with one piece of advice, not two', async () => {
    const inv = await d.testApp.call('POST', '/api/team/invitations', { body: { email: 'rui@example.com' } })
    const token = inv.json<{ token: string }>().token
    expect(await join(token, 'Rui')).toBeUndefined()
    const err = await join(token, 'Rui again')
    expect(exitCodeFor(err)).toBe(1)
    expect((err as Error).message).toBe(
      'this invitation can no longer be used: this invitation is accepted; ask a team admin for a new one (an invitation works once, for 7 days) (HTTP 410)',
    )
  })
})
