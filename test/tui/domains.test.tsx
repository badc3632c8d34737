/** The Domains screen against the fake client: statuses, the DNS records to copy, actions and results. */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient, makeDomain } from './fake-client.js'
import { frameWith, press, renderTui } from './harness.js'

afterEach(() => cleanup())

describe('domains screen', () => {
  it('shows verification, certificate with expiry, default, and the selected domain’s DNS records', async () => {
    const app = renderTui({ initialScreen: 'domains' })
    const frame = await frameWith(app, '2 domains', 'go.example.com')
    expect(frame).toMatch(/go\.example\.com\s+verified\s+active\s+2027-02-01\s+yes/)
    expect(frame).toMatch(/new\.example\.com\s+pending\s+none/)
    expect(frame).toMatch(/CNAME go\.example\.com {2}\(pending\)\n\s+links\.example\.net\n/)
    await press(app, 'j')
    const second = await frameWith(app, 'DNS records of new.example.com')
    expect(second).toMatch(/TXT {3}_linkd\.new\.example\.com {2}\(pending\)\n\s+linkd-verify=tok_new\n/)
  })

  it('verify, check propagation and set default show their results', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'domains' })
    await frameWith(app, '2 domains')
    await press(app, 'j', 'v')
    await frameWith(app, 'Verification of new.example.com: failed')
    await press(app, 'p')
    const frame = await frameWith(app, 'Propagation of new.example.com: not complete (1.1.1.1, 8.8.8.8)')
    expect(frame).toMatch(
      /CNAME new\.example\.com: 1\.1\.1\.1 Verified \(links\.example\.net\) · 8\.8\.8\.8 unreachable\s+\(timed\s+out\)/,
    )
    await press(app, 's')
    await frameWith(app, 'new.example.com is now the default domain for new links')
    expect(client.calls).toEqual(
      expect.arrayContaining([
        'domains.verify new',
        'domains.checkPropagation new',
        'domains.setDefault new',
      ]),
    )
    expect(client.state.domains.find((d) => d.id === 'new')?.isDefault).toBe(true)
  })

  it('a key without domains:write can check propagation but not verify', async () => {
    const client = new FakeClient()
    const app = renderTui({ client, initialScreen: 'domains', scopes: new Set(['domains:read']) })
    await frameWith(app, '2 domains')
    await press(app, 'v', 's', 'p')
    await frameWith(app, 'Propagation of go.example.com')
    expect(
      client.calls.some((c) => c.startsWith('domains.verify') || c.startsWith('domains.setDefault')),
    ).toBe(false)
  })

  it('a domain verified by file shows the URL and body to publish, the last check, then its DNS record', async () => {
    const client = new FakeClient()
    client.state.domains.push(
      makeDomain('byfile', {
        verificationMethod: 'FILE',
        verificationStatus: 'failed',
        dnsRecords: [
          { type: 'CNAME', name: 'byfile.example.com', value: 'links.example.net', status: 'Pending' },
        ],
        verificationFile: {
          url: 'http://byfile.example.com/.well-known/linkd-verification/tok_byfile',
          path: '/.well-known/linkd-verification/tok_byfile',
          body: 'linkd-verify=tok_byfile',
          status: 'Failed',
          reason:
            'http://byfile.example.com/.well-known/linkd-verification/tok_byfile answered HTTP 404, not 200 with the file',
        },
      }),
    )
    const app = renderTui({ client, initialScreen: 'domains' })
    await frameWith(app, '3 domains')
    await press(app, 'j', 'j')
    const frame = await frameWith(app, 'Verification file of byfile.example.com (failed)')
    expect(frame).toMatch(
      /URL {3}http:\/\/byfile\.example\.com\/\.well-known\/linkd-verification\/tok_byfile\n/,
    )
    expect(frame).toMatch(/Body {2}linkd-verify=tok_byfile\n/)
    // Long lines wrap at the terminal's width.
    expect(frame.replace(/\s+/g, ' ')).toMatch(
      /Last check: http:\/\/\S+ answered HTTP 404, not 200 with the file/,
    )
    expect(frame).toContain('DNS record of byfile.example.com, to create when its traffic should come here:')
    await press(app, 'v')
    await frameWith(app, 'Verification of byfile.example.com: failed')
  })
})
