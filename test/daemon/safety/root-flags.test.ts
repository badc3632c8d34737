/**
 * A custom domain's root redirect written before its host was listed: flagged by the re-check
 * that follows an upload (and by the daily job), shown on the domain, `/` then answers the links'
 * warning page; cleared when no list holds the host or a PATCH sets a clean root redirect (or none).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Domain } from '../../../src/contract/domains.js'
import type { PageOf } from '../../../src/contract/common.js'
import type { SafetyList } from '../../../src/contract/safety.js'
import { RECHECK_SAFETY_JOB } from '../../../daemon/modules/safety/index.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { captureEvents } from '../../support/redirect.js'

const HOST = 'go.root.test'
let t: TestApp
let domain: Domain
beforeEach(async () => {
  t = await createTestApp({ cnameTarget: 'links.linkd.test' })
  domain = await addVerified(HOST, 'https://www.phish.test/landing')
})
afterEach(() => t.close())

/** A verified domain of the organization whose `/` redirects to `root`. */
async function addVerified(host: string, root: string, key?: string): Promise<Domain> {
  const added = await t.call('POST', '/api/domains', { body: { domain: host }, ...(key && { key }) })
  expect(added.statusCode, added.body).toBe(201)
  const id = added.json<Domain>().id
  await sqlRows(t, "UPDATE custom_domains SET verification_status = 'verified' WHERE id = ?", id)
  const patched = await t.call('PATCH', `/api/domains/${id}`, {
    body: { rootRedirectUrl: root },
    ...(key && { key }),
  })
  expect(patched.statusCode, patched.body).toBe(200)
  return patched.json<Domain>()
}

async function upload(name: string, file: string, key = t.ownerKey): Promise<SafetyList> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/safety/lists?name=${name}`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
    payload: file,
  })
  expect(res.statusCode, res.body).toBe(201)
  await t.app.linkd.services.safety.settled()
  return res.json<SafetyList>()
}

const getDomain = async (id = domain.id) => (await t.call('GET', `/api/domains/${id}`)).json<Domain>()
const root = (method: 'GET' | 'HEAD' = 'GET', host = HOST) =>
  t.app.inject({ method, url: '/', headers: { host } })

function expectWarningPage(res: Awaited<ReturnType<typeof root>>, listed: string) {
  expect(res.statusCode).toBe(200)
  expect(res.headers.location).toBeUndefined()
  expect(res.headers['cache-control']).toBe('no-store')
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
  expect(res.body).toContain(`<strong>${listed}</strong>`)
  expect(res.body).toContain(`http://${HOST}/`)
  // No way through: the root redirect's own address is not on the page.
  expect(res.body).not.toContain('/landing')
}

describe('a custom domain root redirect on a safety list', () => {
  it('an upload flags it: shown on the domain, `/` answers the warning page; deleting the list clears it', async () => {
    expect(domain.rootRedirectFlagged).toBeNull()
    expect((await root()).statusCode).toBe(302)
    const seen = captureEvents(t, 'link.flagged', 'link.updated')

    const list = await upload('feed', '0.0.0.0 phish.test\n')
    expect((await getDomain()).rootRedirectFlagged).toEqual({
      host: 'phish.test',
      list: 'feed',
      flaggedAt: new Date(t.clock.now()).toISOString(),
    })
    const listed = (await t.call('GET', '/api/domains')).json<PageOf<Domain>>()
    expect(listed.data[0]!.rootRedirectFlagged).toMatchObject({ host: 'phish.test', list: 'feed' })
    expectWarningPage(await root(), 'phish.test')
    const head = await root('HEAD')
    expect(head.statusCode).toBe(200)
    expect(head.headers.location).toBeUndefined()
    expect(head.body).toBe('')
    // No link event describes a domain.
    expect(seen).toEqual([])

    expect((await t.call('DELETE', `/api/safety/lists/${list.id}`)).statusCode).toBe(204)
    await t.app.linkd.services.safety.settled()
    expect((await getDomain()).rootRedirectFlagged).toBeNull()
    const back = await root()
    expect(back.statusCode).toBe(302)
    expect(back.headers.location).toBe('https://www.phish.test/landing')
  })

  it('a PATCH to a clean root redirect clears the flag, and so does removing the root redirect', async () => {
    await upload('feed', 'phish.test\n')
    expect((await getDomain()).rootRedirectFlagged).not.toBeNull()
    // Still listed: refused, and the flag stays.
    const refused = await t.call('PATCH', `/api/domains/${domain.id}`, {
      body: { rootRedirectUrl: 'https://other.phish.test/' },
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ error: 'DestinationBlocked' })
    expect((await getDomain()).rootRedirectFlagged).not.toBeNull()

    const clean = await t.call('PATCH', `/api/domains/${domain.id}`, {
      body: { rootRedirectUrl: 'https://fine.test/' },
    })
    expect(clean.statusCode).toBe(200)
    expect(clean.json<Domain>().rootRedirectFlagged).toBeNull()
    expect((await root()).headers.location).toBe('https://fine.test/')

    // Flagged again by hand (as a re-check would), then the root redirect removed.
    await sqlRows(
      t,
      "UPDATE custom_domains SET root_flagged_host = 'fine.test', root_flagged_list = 'feed', root_flagged_at = 1 WHERE id = ?",
      domain.id,
    )
    const none = await t.call('PATCH', `/api/domains/${domain.id}`, { body: { rootRedirectUrl: null } })
    expect(none.statusCode).toBe(200)
    expect(none.json<Domain>()).toMatchObject({ rootRedirectUrl: null, rootRedirectFlagged: null })
    expect((await root()).statusCode).toBe(404)
  })

  it("another organization's list does not flag it; its own domain is flagged by its own list", async () => {
    const other = await t.createOrg('other', 'enterprise')
    const theirs = await addVerified('go.theirs.test', 'https://evil.test/', other.ownerKey)
    await upload('theirs', 'phish.test\n', other.ownerKey)
    expect((await getDomain()).rootRedirectFlagged).toBeNull()
    expect((await root()).statusCode).toBe(302)

    await upload('mine', 'evil.test\n')
    expect((await getDomain()).rootRedirectFlagged).toBeNull()
    const got = await t.call('GET', `/api/domains/${theirs.id}`, { key: other.ownerKey })
    expect(got.json<Domain>().rootRedirectFlagged).toBeNull()

    await upload('theirs', 'evil.test\n', other.ownerKey)
    const flagged = await t.call('GET', `/api/domains/${theirs.id}`, { key: other.ownerKey })
    expect(flagged.json<Domain>().rootRedirectFlagged).toMatchObject({ host: 'evil.test', list: 'theirs' })
    expect((await root('GET', 'go.theirs.test')).statusCode).toBe(200)
    expect((await getDomain()).rootRedirectFlagged).toBeNull()
  })

  it('the daily job flags what a list holds and clears what none holds, for every organization', async () => {
    await upload('feed', 'phish.test\n')
    // A re-check missed (the process stopped): the job catches up.
    await sqlRows(
      t,
      'UPDATE custom_domains SET root_flagged_host = NULL, root_flagged_list = NULL, root_flagged_at = NULL',
    )
    await t.app.linkd.services.directory.refresh()
    expect((await root()).statusCode).toBe(302)
    t.clock.advance(86_400_000)
    expect(await t.app.linkd.scheduler.runNow(RECHECK_SAFETY_JOB)).toMatchObject({
      ran: true,
      status: 'ok',
      summary: '1 domain root flagged',
    })
    expect((await root()).statusCode).toBe(200)

    // Set by hand while no list holds the host: the job clears it.
    await upload('feed', 'elsewhere.test\n')
    await sqlRows(
      t,
      "UPDATE custom_domains SET root_flagged_host = 'phish.test', root_flagged_list = 'gone', root_flagged_at = 1",
    )
    t.clock.advance(86_400_000)
    expect(await t.app.linkd.scheduler.runNow(RECHECK_SAFETY_JOB)).toMatchObject({
      summary: '1 domain root cleared',
    })
    expect((await getDomain()).rootRedirectFlagged).toBeNull()
    expect((await root()).statusCode).toBe(302)
  })
})
