/** A fresh invitation, read on a terminal a moment after the daemon made it, "expires in 7 days". */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTeamInvite } from '../../../src/cli/commands/team/invite.js'
import { runTeamInvitations } from '../../../src/cli/commands/team/invitations.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { testCtx } from '../../support/cli.js'

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
