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
    expect(r.stdout).toMatch(/linkctl domains verify dom_/)
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
})
