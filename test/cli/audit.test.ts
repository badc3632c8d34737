/** `linkctl audit` on a terminal: a table of the writes, relative times; a key without team:read exits 4. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAudit } from '../../src/cli/commands/audit.js'
import { exitCodeFor } from '../../src/session/exit-codes.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { testCtx } from '../support/cli.js'
import { joinTeam } from '../support/team.js'

let d: TestDaemon
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(() => d.close())

const tty = (apiKey = d.ownerKey) =>
  testCtx({ flags: { url: d.url, apiKey }, json: false, isTTY: true, env: { NO_COLOR: '1', COLUMNS: '160' } })

describe('linkctl audit', () => {
  it('prints a table on a terminal, and says so when nothing matches', async () => {
    const res = await d.testApp.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.org/' },
    })
    const linkId = res.json<{ id: string }>().id
    const { ctx, out } = tty()
    await runAudit({}, ctx)
    const [header, row] = out.text.split('\n')
    expect(header!.split(/\s{2,}/)).toEqual(['AT', 'ACTION', 'RESOURCE', 'MEMBER', 'KEY', 'IP', 'STATUS'])
    expect(row).toContain('link.create')
    expect(row).toContain(linkId)
    expect(row).toMatch(/\s201$/)

    const none = tty()
    await runAudit({ action: 'nothing.matches' }, none.ctx)
    expect(none.out.text).toBe('')
    expect(none.err.text).toContain('No audit entries match.')
  })

  it("a terminal shows the member's name, a pipe the id; --member takes an id, e-mail or name", async () => {
    await d.testApp.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.org/named' } })
    const me = (await d.testApp.call('GET', '/api/team/me')).json<{ member: { id: string; name: string } }>()
      .member
    const { ctx, out } = tty()
    await runAudit({ limit: 1 }, ctx)
    const row = out.text.split('\n')[1]!.split(/\s{2,}/)
    expect(row[3]).toBe(me.name)
    const piped = testCtx({ flags: { url: d.url, apiKey: d.ownerKey }, json: false, isTTY: false })
    await runAudit({ limit: 1 }, piped.ctx)
    const [head, first] = piped.out.text.split('\n').map((l) => l.split('\t'))
    expect(first![head!.indexOf('MEMBER')]).toBe(me.id)
    for (const member of [me.id, me.name.toUpperCase()]) {
      const json = testCtx({ flags: { url: d.url, apiKey: d.ownerKey }, json: true, isTTY: false })
      await runAudit({ member }, json.ctx)
      const entries = JSON.parse(json.out.text) as { data: { memberId: string }[] }
      expect(entries.data.length).toBeGreaterThan(0)
      expect(entries.data.every((e) => e.memberId === me.id)).toBe(true)
    }
    const nobody = tty()
    const err = await runAudit({ member: 'nobody@example.com' }, nobody.ctx).catch((e: unknown) => e)
    expect(exitCodeFor(err)).toBe(5)
  })

  it('a removed member is still found by --member and shown by name, marked removed', async () => {
    const ana = await joinTeam(d.testApp, 'member', 'Ana')
    const link = await d.testApp.call('POST', '/api/use/links', {
      key: ana.key,
      body: { destinationUrl: 'https://example.org/ana' },
    })
    expect(link.statusCode, link.body).toBe(201)
    expect((await d.testApp.call('DELETE', `/api/team/members/${ana.memberId}`)).statusCode).toBe(204)

    const json = testCtx({ flags: { url: d.url, apiKey: d.ownerKey }, json: true, isTTY: false })
    await runAudit({ member: 'ana@example.com' }, json.ctx)
    const entries = JSON.parse(json.out.text) as { data: { memberId: string; action: string }[] }
    expect(entries.data.map((e) => [e.memberId, e.action])).toEqual([
      [ana.memberId, 'link.create'],
      [ana.memberId, 'invitation.accept'],
    ])
    const { ctx, out } = tty()
    await runAudit({ member: 'Ana' }, ctx)
    const rows = out.text.trim().split('\n').slice(1)
    expect(rows.map((r) => r.split(/\s{2,}/)[3])).toEqual(['Ana (removed)', 'Ana (removed)'])

    // Invited again, the e-mail names the current member; the removed one is still reachable by id.
    const again = await joinTeam(d.testApp, 'viewer', 'Ana')
    const now = testCtx({ flags: { url: d.url, apiKey: d.ownerKey }, json: true, isTTY: false })
    await runAudit({ member: 'ana@example.com' }, now.ctx)
    const current = JSON.parse(now.out.text) as { data: { memberId: string }[] }
    expect(current.data.map((e) => e.memberId)).toEqual([again.memberId])
    expect(now.err.text).toContain(`"ana@example.com" also names ${ana.memberId} (removed): pass an id`)
    const byId = testCtx({ flags: { url: d.url, apiKey: d.ownerKey }, json: true, isTTY: false })
    await runAudit({ member: ana.memberId }, byId.ctx)
    expect((JSON.parse(byId.out.text) as { total: number }).total).toBe(2)
  })

  it('a key without team:read is refused (exit 4)', async () => {
    const k = await d.testApp.createKey({ name: 'links only', permissions: ['links:read'] })
    const { ctx } = tty(k.key)
    const err = await runAudit({}, ctx).catch((e: unknown) => e)
    expect(exitCodeFor(err)).toBe(4)
    expect(String(err)).toContain('team:read')
  })
})
