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

  it('add of an internationalized name says the punycode form to add', async () => {
    const r = await cli(['domains', 'add', 'bücher.example.test'], { env })
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      'error: domain is an internationalized name: add its punycode form, xn--bcher-kva.example.test (HTTP 400)\n',
    )
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
    // `remove` as the other nouns' verbs (team, safety lists, blocklist) name it.
    const deleted = await cli(['domains', 'remove', 'named.example.test', '--yes'], { env })
    expect(deleted.stderr).toBe(`Deleted domain ${domain.id}\n`)
  })

  it('add of a host another organization added: exit 6 with the TXT record that proves control', async () => {
    await cli(['domains', 'add', 'claimed.example.test'], { env })
    const other = await d.testApp.createOrg('other', 'enterprise')
    const otherEnv = { ...env, LINKCTL_API_KEY: other.ownerKey }
    const r = await cli(['domains', 'add', 'claimed.example.test'], { env: otherEnv })
    expect(r.code).toBe(6)
    expect(r.stdout).toBe('')
    const token = /"(linkd-verify=[A-Za-z0-9]{32})"/.exec(r.stderr)?.[1]
    expect(r.stderr).toBe(
      'error: claimed.example.test has been added by another organization, which has not verified it (HTTP 409).\n' +
        'If the domain is yours, prove it: create this record at its DNS provider (zone-file form)\n\n' +
        `  _linkd-challenge.claimed.example.test.   3600  IN  TXT    "${token}"\n\n` +
        'then run linkctl domains add claimed.example.test again: an unverified claim gives way to an organization that proves control of the domain.\n' +
        'The record now: returned by 0 of 1 resolvers; every one must return it (not reached: 127.0.0.1:1).\n',
    )
    // --json: the API's error body as it came, with linkctl's explanation.
    const json = await cli(['domains', 'add', 'claimed.example.test', '--json'], { env: otherEnv })
    expect(json.code).toBe(6)
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: 'Conflict',
      statusCode: 409,
      details: expect.arrayContaining([{ field: 'txtRecord.value', message: token }]),
      hint: expect.stringContaining(token!),
    })
    expect((await cli(['domains', 'delete', 'claimed.example.test', '--yes'], { env })).code).toBe(0)
  })
})

describe('linkctl domains in the default set-up (CNAME target 127.0.0.1, no resolver reachable)', () => {
  let d: TestDaemon
  let env: Record<string, string>
  beforeAll(async () => {
    // createTestApp's resolver is 127.0.0.1:1, a closed UDP port: the resolver cannot be reached.
    d = await startTestDaemon()
    env = { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }
  })
  afterAll(() => d.close())

  it('add warns naming LINKD_CNAME_TARGET, still shows every record and the TXT record to create now', async () => {
    const r = await cli(['domains', 'add', 'go.example.test'], { env, isTTY: true })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(
      /^warning: the CNAME target 127\.0\.0\.1 is an IP address: .*Set LINKD_CNAME_TARGET to /,
    )
    // The table holds both records; only the TXT one is offered as a zone line.
    expect(r.stdout).toMatch(
      /\nDNS records:\nTYPE\s+NAME\s+VALUE\s+STATUS\nTXT\s.+\nCNAME\s+go\.example\.test\s/,
    )
    expect(r.stdout).toContain('Create this record at your DNS provider (zone-file form):')
    expect(r.stdout).toMatch(
      /_linkd-challenge\.go\.example\.test\.\s+3600\s+IN\s+TXT\s+"linkd-verify=[A-Za-z0-9]{32}"/,
    )
    expect(r.stdout).not.toMatch(/IN\s+CNAME/)
    expect(r.stdout).toContain(
      'The CNAME record waits for the setting in the warning above: fix it, restart linkd, then run: linkctl domains get go.example.test',
    )
    const piped = await cli(['domains', 'get', 'go.example.test'], { env })
    expect(piped.stdout).toMatch(/\nTXT\t_linkd-challenge\.go\.example\.test\tlinkd-verify=\w{32}\tPending\n/)
    expect(piped.stdout).toContain('\nCNAME\tgo.example.test\t127.0.0.1\tPending\n')
    const json = await cli(['domains', 'get', 'go.example.test', '--json'], { env })
    expect(JSON.parse(json.stdout).warnings).toEqual([expect.stringContaining('LINKD_CNAME_TARGET')])
  })

  it('check reports the resolver it cannot reach as unreachable, not as not propagated', async () => {
    const piped = await cli(['domains', 'check', 'go.example.test'], { env })
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout).toBe(
      'RESOLVER\tTYPE\tNAME\tSTATUS\tFOUND\n' +
        '127.0.0.1:1\tTXT\t_linkd-challenge.go.example.test\tunreachable\tconnection refused\n' +
        '127.0.0.1:1\tCNAME\tgo.example.test\tunreachable\tconnection refused\n',
    )
    expect(piped.stderr).toBe('warning: resolver 127.0.0.1:1 unreachable (connection refused)\n')
    const tty = await cli(['domains', 'check', 'go.example.test'], { env, isTTY: true })
    expect(tty.stderr).toBe(
      'warning: resolver 127.0.0.1:1 unreachable (connection refused)\nNo resolver answered: propagation unknown.\n',
    )
    const json = JSON.parse((await cli(['domains', 'check', 'go.example.test', '--json'], { env })).stdout)
    expect(json.records[0].resolvers).toEqual([
      { resolver: '127.0.0.1:1', status: 'Pending', found: [], reachable: false, error: 'ECONNREFUSED' },
    ])
  })

  it('--method file shows the file to publish; verify names why the fetch failed; update --method switches', async () => {
    const r = await cli(['domains', 'add', 'file.example.test', '--method', 'file'], { env, isTTY: true })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/METHOD\s+FILE\n/)
    // The table cuts long cells on a terminal; the steps below it give the URL and body whole.
    expect(r.stdout).toMatch(/\nFILE\s+http:\/\/file\.example\.test\/\S+\s+linkd-verify=\S+\s+Pending\n/)
    expect(r.stdout).toContain('Publish this file on the web server now answering file.example.test')
    expect(r.stdout).toMatch(
      /\n {2}URL {3}http:\/\/file\.example\.test\/\.well-known\/linkd-verification\/\w{32}\n {2}Body {2}linkd-verify=\w{32}\n/,
    )
    expect(r.stdout).toContain('Then run: linkctl domains verify file.example.test\n')
    expect(r.stdout).not.toMatch(/IN\s+TXT/)
    const piped = await cli(['domains', 'get', 'file.example.test'], { env })
    expect(piped.stdout).toMatch(/\nFILE\thttp:\/\/file\.example\.test\/\S+\tlinkd-verify=\w{32}\tPending\n/)

    // Nothing resolves here (the resolver is a closed port): the file cannot be fetched.
    const v = await cli(['domains', 'verify', 'file.example.test'], { env })
    expect(v.code).toBe(1)
    expect(v.stdout).toMatch(/\nFILE\t\S+\t\S+\tFailed\n/)
    expect(v.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^error: file\.example\.test is not verified: http:\/\/file\.example\.test\/\S+ not fetched: cannot resolve file\.example\.test: ECONNREFUSED; publish the file as shown above, then verify again$/,
    )

    const back = await cli(['domains', 'update', 'file.example.test', '--method', 'dns', '--json'], { env })
    expect(back.code, back.stderr).toBe(0)
    expect(JSON.parse(back.stdout)).toMatchObject({ verificationMethod: 'CNAME', verificationFile: null })
    const bad = await cli(['domains', 'add', 'x.example.test', '--method', 'html'], { env })
    expect(bad.code).toBe(2)
    await cli(['domains', 'delete', 'file.example.test', '--yes'], { env })
  })

  it('a failed verification advises only what the output shows', async () => {
    // Failed by the re-check job (pending past the propagation window); no record is marked Failed.
    await d.testApp.db.kysely.updateTable('custom_domains').set({ verification_status: 'failed' }).execute()
    const r = await cli(['domains', 'verify', 'go.example.test'], { env, isTTY: true })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/\nCNAME\s+go\.example\.test\s/)
    expect(r.stderr).not.toContain('marked Failed')
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
      'error: go.example.test is not verified: fix the setting in the warning above and restart linkd (for the CNAME record), then verify again',
    )
  })

  it('a root redirect on a safety list: get says FLAGGED, list says verified, root flagged', async () => {
    const added = await cli(['domains', 'add', 'root.example.test', '--json'], { env })
    const id = JSON.parse(added.stdout).id as string
    await d.testApp.db.kysely
      .updateTable('custom_domains')
      .set({ verification_status: 'verified' })
      .where('id', '=', id)
      .execute()
    const root = await cli(['domains', 'update', id, '--root-redirect', 'https://get.listed.test/'], { env })
    expect(root.code, root.stderr).toBe(0)
    const up = await fetch(`${d.url}/api/safety/lists?name=cli-root`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.ownerKey}`, 'content-type': 'text/plain' },
      body: 'listed.test\n',
    })
    expect(up.status).toBe(201)
    await d.testApp.app.linkd.services.safety.settled()

    const get = await cli(['domains', 'get', id], { env: { ...env, NO_COLOR: '1' }, isTTY: true })
    expect(get.stdout).toMatch(/^FLAGGED\s+listed\.test is on the safety list "cli-root" \(since /m)
    expect(get.stdout.replace(/\s+/g, ' ')).toContain('): visits to / get a warning page')
    const list = await cli(['domains', 'list'], { env })
    expect(list.stdout).toContain(`${id}\troot.example.test\tverified, root flagged\t`)
    const json = JSON.parse((await cli(['domains', 'get', id, '--json'], { env })).stdout)
    expect(json.rootRedirectFlagged).toMatchObject({ host: 'listed.test', list: 'cli-root' })

    // A clean root redirect: no flag, and nothing said.
    await cli(['domains', 'update', id, '--root-redirect', 'https://clean.example.com/'], { env })
    expect((await cli(['domains', 'get', id], { env })).stdout).not.toContain('FLAGGED')
    expect((await cli(['domains', 'list'], { env })).stdout).toContain(`${id}\troot.example.test\tverified\t`)
    await cli(['domains', 'delete', id, '--yes'], { env })
  })
})
