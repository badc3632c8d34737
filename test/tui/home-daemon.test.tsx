/** Home's "clicks today" against the real daemon: clicks recorded through redirects, two organizations. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, render } from 'ink-testing-library'
import { LinkdClient } from '../../src/client/index.js'
import type { Link } from '../../src/contract/links.js'
import { App } from '../../src/tui/app.js'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { FIREFOX_LINUX, GOOGLEBOT } from '../support/redirect.js'
import { frameWhere } from './harness.js'
import { ManualClock } from './manual-clock.js'

let d: TestDaemon
beforeAll(async () => {
  // Redirects answer on the test port.
  d = await startTestDaemon({ shortDomain: '127.0.0.1' })
})
afterAll(async () => {
  cleanup()
  await d.close()
})

const client = (apiKey: string) => new LinkdClient({ baseUrl: d.url, apiKey })

async function visit(link: Link, userAgent = FIREFOX_LINUX): Promise<void> {
  const res = await fetch(`${d.url}/${link.shortCode}`, {
    redirect: 'manual',
    headers: { 'user-agent': userAgent },
  })
  expect(res.status).toBe(302)
}

describe('home against linkd', () => {
  it('clicks today is the organization’s human clicks over all its links, not another’s', async () => {
    const ours = client(d.ownerKey)
    const other = await d.testApp.createOrg('other')
    // More links than Home lists, each clicked: the total is not a top-n sum.
    const links: Link[] = []
    for (let i = 0; i < 12; i++)
      links.push(await ours.links.create({ destinationUrl: `https://example.com/${i}` }))
    for (const link of links) await visit(link)
    await visit(links[0]!, GOOGLEBOT)
    const theirs = await client(other.ownerKey).links.create({ destinationUrl: 'https://example.com/theirs' })
    for (let i = 0; i < 4; i++) await visit(theirs)

    // The TUI's "today" is the daemon's.
    const clock = new ManualClock(d.clock.now())
    const app = render(<App client={ours} refreshSeconds={1} clock={clock} color={false} scopes={null} />)
    await frameWhere(app, (f) => /clicks today\s+12\b/.test(f), 'clicks today 12')
    await visit(links[5]!)
    clock.advance(1000)
    await frameWhere(app, (f) => /clicks today\s+13\b/.test(f), 'clicks today 13')
    app.unmount()
  })
})
