import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli } from '../support/cli.js'

describe('linkctl domains', () => {
  let d: TestDaemon
  let env: Record<string, string>
  beforeAll(async () => {
    d = await startTestDaemon({ cnameTarget: 'links.linkd.test' })
    env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey }
  })
  afterAll(() => d.close())

  it('add prints the records to create, as a table and paste-ready zone lines on a terminal', async () => {
    const r = await cli(['domains', 'add', 'go.example.test'], { env, isTTY: true })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Create these records at your DNS provider')
    expect(r.stdout).toMatch(
      /_linkd-challenge\.go\.example\.test\.\s+3600\s+IN\s+TXT\s+"linkd-verify=[A-Za-z0-9]{32}"/,
    )
    expect(r.stdout).toMatch(/go\.example\.test\.\s+3600\s+IN\s+CNAME\s+links\.linkd\.test\./)
    expect(r.stdout).toMatch(/linkctl domains verify go\.example\.test\n/)
    expect(r.stderr).toBe('')
  })

  it('list / get / ssl / stats piped and as JSON; errors map to exit codes', async () => {
    const list = await cli(['domains', 'list', '--json'], { env })
    const id = JSON.parse(list.stdout).data[0].id as string
    const piped = await cli(['domains', 'list'], { env })
    expect(piped.stdout.split('\n')[0]).toBe('ID\tDOMAIN\tVERIFICATION\tSSL\tDEFAULT\tCREATED')
    expect(piped.stdout).toContain(`${id}\tgo.example.test\tpending`)
    const get = await cli(['domains', 'get', id], { env })
    expect(get.stdout).toContain('TYPE\tNAME\tVALUE\tSTATUS')
    expect(get.stdout).toContain('CNAME\tgo.example.test\tlinks.linkd.test\tPending')
    // One timestamp style: ISO when piped, relative on a terminal.
    expect(get.stdout.split('\n')[1]).toMatch(/\t\d{4}-\d{2}-\d{2}T[\d:.]+Z$/)
    const tty = await cli(['domains', 'get', id], { env: { ...env, NO_COLOR: '1' }, isTTY: true })
    expect(tty.stdout).toMatch(/CREATED\s+(just now|\d+ [a-z]+ ago)\n/)
    expect(JSON.parse((await cli(['domains', 'ssl', id, '--json'], { env })).stdout).sslStatus).toBeNull()
    expect(JSON.parse((await cli(['domains', 'stats', '--json'], { env })).stdout).totalDomains).toBe(1)
    expect((await cli(['domains', 'set-default', id], { env })).code).toBe(1)
    expect((await cli(['domains', 'get', 'dom_missing'], { env })).code).toBe(5)
    expect((await cli(['domains', 'add', 'go.example.test'], { env })).code).toBe(6)
    expect((await cli(['domains', 'delete', id], { env })).code).toBe(2)
    const deleted = await cli(['domains', 'delete', id, '--yes'], { env })
    expect(deleted.code).toBe(0)
    expect(deleted.stderr).toContain(`Deleted domain ${id}`)
    expect((await cli(['domains', 'get', id], { env })).code).toBe(5)
    expect(JSON.parse((await cli(['domains', 'list', '--json'], { env })).stdout).data).toEqual([])
  })

  it('every verb takes the domain name as well as its id; an unknown name is not found (exit 5)', async () => {
    await cli(['domains', 'add', 'named.example.test'], { env })
    const byName = await cli(['domains', 'get', 'named.example.test', '--json'], { env })
    expect(byName.code, byName.stderr).toBe(0)
    const domain = JSON.parse(byName.stdout) as { id: string; domain: string }
    expect(domain.domain).toBe('named.example.test')
    const check = await cli(['domains', 'ssl', 'Named.Example.test', '--json'], { env })
    expect(check.code, check.stderr).toBe(0)
    expect(JSON.parse(check.stdout).sslStatus).toBeNull()
    const updated = await cli(
      ['domains', 'update', 'named.example.test', '--root-redirect', 'https://example.com', '--json'],
      { env },
    )
    expect(updated.code, updated.stderr).toBe(0)
    expect(JSON.parse(updated.stdout)).toMatchObject({
      id: domain.id,
      rootRedirectUrl: 'https://example.com',
    })
    const unknown = await cli(['domains', 'verify', 'nobody.example.test'], { env })
    expect(unknown.code).toBe(5)
    expect(unknown.stderr).toBe(
      'error: no domain named nobody.example.test in this organization (see: linkctl domains list)\n',
    )
    const deleted = await cli(['domains', 'delete', 'named.example.test', '--yes'], { env })
    expect(deleted.stderr).toBe(`Deleted domain ${domain.id}\n`)
  })
})

describe('linkctl domains add in the default set-up (CNAME target 127.0.0.1)', () => {
  let d: TestDaemon
  beforeAll(async () => {
    d = await startTestDaemon()
  })
  afterAll(() => d.close())

  it('warns naming LINKD_CNAME_TARGET instead of offering a CNAME to an IP address', async () => {
    const env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }
    const r = await cli(['domains', 'add', 'go.example.test'], { env, isTTY: true })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(
      /^warning: the CNAME target 127\.0\.0\.1 is an IP address: .*Set LINKD_CNAME_TARGET to /,
    )
    expect(r.stdout).not.toContain('Create these records')
    expect(r.stdout).not.toMatch(/CNAME\s+127\.0\.0\.1\./)
    expect(r.stdout).toContain(
      'Fix the setting above, restart linkd, then run: linkctl domains get go.example.test',
    )
    const json = await cli(['domains', 'get', 'go.example.test', '--json'], { env })
    expect(JSON.parse(json.stdout).warnings).toEqual([expect.stringContaining('LINKD_CNAME_TARGET')])
  })
})
