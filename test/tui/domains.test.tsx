/**
 * The Domains screen: statuses and the records to publish against the fake client; verify, check
 * propagation and set default against a real linkd (whose DNS resolver does not answer).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { FakeClient, makeDomain } from './fake-client.js'
import { frameWith, press, refreshUntil, renderTui } from './harness.js'
import { sqlRows } from '../support/app.js'
import { newOrg, renderOnDaemon, useDaemon } from './tui-daemon.js'

afterEach(() => cleanup())

describe('domains screen, rendering', () => {
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
  })
})

const daemon = useDaemon()
let names = 0

/** A new organization with one domain added, and the TUI on its Domains screen. */
async function domainOnDaemon(scopes: Set<string> | null = null) {
  const org = await newOrg(daemon())
  const domain = await org.api.domains.add({ domain: `links${++names}.example.com` })
  const app = renderOnDaemon(daemon(), org.ownerKey, { initialScreen: 'domains', scopes })
  await frameWith(app, '1 domain', domain.domain)
  return { org, domain, app }
}

describe('domains screen against linkd', () => {
  it('verify, check propagation and set default show the daemon’s results and refusals', async () => {
    const { org, domain, app } = await domainOnDaemon()
    await press(app, 'v')
    // Nothing answers the daemon's DNS queries here: still pending.
    await frameWith(app, `Verification of ${domain.domain}: pending`)
    await press(app, 'p')
    const propagation = await frameWith(app, `Propagation of ${domain.domain}: not complete (127.0.0.1:1)`)
    expect(propagation).toMatch(
      /TXT _linkd-challenge\.\S+: 127\.0\.0\.1:1 unreachable \(connection refused\)/,
    )
    await press(app, 's')
    const refused = await frameWith(app, `Making ${domain.domain} the default failed:`)
    expect(refused.replace(/\s+/g, ' ')).toContain(
      `domain ${domain.domain} is not verified; verify it before making it the default (HTTP 422)`,
    )
    // Verified (as a DNS answer would have it): now it can be the default.
    await sqlRows(
      daemon().testApp,
      "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?",
      domain.id,
    )
    await refreshUntil(app, (f) => new RegExp(`${domain.domain}\\s+verified`).test(f), 'the domain verified')
    await press(app, 's')
    await frameWith(app, `${domain.domain} is now the default domain for new links`)
    expect(app.sent('domains.verify')).toEqual([[domain.id]])
    expect(app.sent('domains.setDefault')).toEqual([[domain.id], [domain.id]])
    expect((await org.api.domains.get(domain.id)).isDefault).toBe(true)
  })

  it('a key without domains:write can check propagation but not verify', async () => {
    const { domain, app } = await domainOnDaemon(new Set(['domains:read']))
    await press(app, 'v', 's', 'p')
    await frameWith(app, `Propagation of ${domain.domain}`)
    expect(app.sent('domains.verify')).toEqual([])
    expect(app.sent('domains.setDefault')).toEqual([])
  })
})
