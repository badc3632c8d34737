/**
 * Links written before their host was listed: flagged by the re-check that follows an upload and
 * by the daily job, cleared when no list holds the host any more; a flagged link answers the
 * warning page (200, no Location, the visit counted as blocked) and link.flagged reaches a real
 * webhook receiver.
 */
import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Link } from '../../../src/contract/links.js'
import type { SafetyList } from '../../../src/contract/safety.js'
import { RECHECK_SAFETY_JOB } from '../../../daemon/modules/safety/index.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'
import { analytics, captureEvents, flush, makeLink, visit } from '../../support/redirect.js'

let t: TestApp
let rx: Receiver
beforeEach(async () => {
  t = await createTestApp({ publicUrl: 'https://sho.rt' })
  rx = await startReceiver()
})
afterEach(async () => {
  await t.close()
  await rx.close()
})

const safety = () => t.app.linkd.services.safety
async function upload(name: string, file: string): Promise<SafetyList> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/safety/lists?name=${name}`,
    headers: { authorization: `Bearer ${t.ownerKey}`, 'content-type': 'text/plain' },
    payload: file,
  })
  expect(res.statusCode, res.body).toBe(201)
  await safety().settled()
  return res.json<SafetyList>()
}
const getLink = async (id: string) => (await t.call('GET', `/api/use/links/${id}`)).json<Link>()

describe('flagging links written before their host was listed', () => {
  it('an upload flags them in the background; they answer the warning page; a new list clears them', async () => {
    const bad = await makeLink(t, { destinationUrl: 'https://login.phish.test/account' })
    const ruled = await makeLink(t, {
      destinationUrl: 'https://fine.test/',
      rules: [{ conditions: [{ type: 'device', value: 'mobile' }], destinationUrl: 'https://m.phish.test/' }],
    })
    const good = await makeLink(t, { destinationUrl: 'https://fine.test/' })
    const smart = await t.call('POST', '/api/use/smart-links', {
      body: { fallbackUrl: 'https://fine.test/', android: { url: 'https://phish.test/apk' } },
    })
    expect(smart.statusCode).toBe(201)
    const seen = captureEvents(t, 'link.flagged', 'link.updated')
    // Cached by a first visit: the flag must reach the redirect cache too.
    expect((await visit(t, bad.shortCode)).statusCode).toBe(302)

    await upload('feed', '0.0.0.0 phish.test\n')
    expect((await getLink(bad.id)).flagged).toEqual({
      host: 'phish.test',
      list: 'feed',
      flaggedAt: expect.any(String),
    })
    expect((await getLink(ruled.id)).flagged).toMatchObject({ host: 'phish.test' })
    expect((await getLink(good.id)).flagged).toBeUndefined()
    const sml = (await t.call('GET', `/api/use/smart-links/${smart.json<{ id: string }>().id}`)).json()
    expect(sml.flagged).toMatchObject({ host: 'phish.test', list: 'feed' })
    expect(seen.filter((e) => e.type === 'link.flagged').map((e) => e.data)).toEqual(
      expect.arrayContaining([
        {
          linkId: bad.id,
          shortUrl: bad.shortUrl,
          host: 'phish.test',
          list: 'feed',
          flaggedAt: expect.any(String),
        },
      ]),
    )
    expect(seen.filter((e) => e.type === 'link.flagged')).toHaveLength(3)

    const page = await visit(t, bad.shortCode)
    expect(page.statusCode).toBe(200)
    expect(page.headers.location).toBeUndefined()
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.body).toContain('phish.test')
    expect(page.body).not.toContain('login.phish.test/account')
    const head = await visit(t, bad.shortCode, { method: 'HEAD' })
    expect(head.statusCode).toBe(200)
    expect(head.headers.location).toBeUndefined()
    await flush(t)
    const rows = await sqlRows<{ bot_reason: string }>(
      t,
      'SELECT bot_reason FROM clicks WHERE link_id = ? ORDER BY ts',
      bad.id,
    )
    // The first visit (before the flag) was a human click; the two after it were blocked.
    expect(rows.map((r) => r.bot_reason)).toEqual([null, 'blocked', 'blocked'])
    expect((await getLink(bad.id)).clicks).toBe(1)
    // Link analytics say how many visitors the warning page stopped.
    expect(await analytics(t, bad.id)).toMatchObject({ totalClicks: 1, blockedVisits: 2 })
    expect((await analytics(t, good.id)).blockedVisits).toBe(0)

    // A good link of the same organization still redirects.
    expect((await visit(t, good.shortCode)).statusCode).toBe(302)

    // The list replaced by one without the host: the flags go, the redirect comes back.
    await upload('feed', 'elsewhere.test\n')
    expect((await getLink(bad.id)).flagged).toBeUndefined()
    expect((await visit(t, bad.shortCode)).statusCode).toBe(302)
  })

  it('editing a flagged link to a clean destination clears its flag', async () => {
    const l = await makeLink(t, { destinationUrl: 'https://phish.test/' })
    await upload('feed', 'phish.test\n')
    expect((await getLink(l.id)).flagged).toBeDefined()
    const patch = await t.call('PATCH', `/api/use/links/${l.id}`, {
      body: { destinationUrl: 'https://fine.test/' },
    })
    expect(patch.statusCode).toBe(200)
    expect(patch.json<Link>().flagged).toBeUndefined()
    expect((await visit(t, l.shortCode)).headers.location).toBe('https://fine.test/')
  })

  it('the daily job flags what a list holds and clears what none holds', async () => {
    const l = await makeLink(t, { destinationUrl: 'https://phish.test/' })
    const list = await upload('feed', 'phish.test\n')
    // A re-check missed (the process stopped): the job catches up.
    await sqlRows(
      t,
      'UPDATE links SET flagged_host = NULL, flagged_list = NULL, flagged_at = NULL WHERE id = ?',
      l.id,
    )
    t.app.linkd.services.redirect.cache.clear()
    expect((await visit(t, l.shortCode)).statusCode).toBe(302)
    t.clock.advance(86_400_000)
    const run = await t.app.linkd.scheduler.runNow(RECHECK_SAFETY_JOB)
    expect(run).toMatchObject({ ran: true, status: 'ok', summary: '1 link flagged' })
    expect((await visit(t, l.shortCode)).statusCode).toBe(200)

    // The list deleted: its hosts go, and the flag with them.
    expect((await t.call('DELETE', `/api/safety/lists/${list.id}`)).statusCode).toBe(204)
    await safety().settled()
    expect((await getLink(l.id)).flagged).toBeUndefined()
    expect(await sqlRows(t, 'SELECT host FROM safety_list_hosts')).toEqual([])
    expect(await sqlRows(t, 'SELECT id FROM safety_lists')).toEqual([])
    // Set by hand while no list holds it: the job clears it.
    await sqlRows(
      t,
      "UPDATE links SET flagged_host = 'phish.test', flagged_list = 'gone', flagged_at = 1 WHERE id = ?",
      l.id,
    )
    expect(await t.app.linkd.scheduler.runNow(RECHECK_SAFETY_JOB)).toMatchObject({
      summary: '1 link cleared',
    })
    expect((await getLink(l.id)).flagged).toBeUndefined()
  })

  it('link.flagged reaches a real receiver, signed like every delivery', async () => {
    const hook = await t.call('POST', '/api/webhooks', {
      body: { name: 'rx', url: rx.url, events: ['link.flagged'] },
    })
    expect(hook.statusCode, hook.body).toBe(201)
    const secret = hook.json<{ secret: string }>().secret
    const l = await makeLink(t, { destinationUrl: 'https://www.phish.test/' })
    await upload('urlhaus', 'phish.test\n')
    await t.app.linkd.services.webhooks.settle()
    await t.app.linkd.services.webhooks.worker.runDue()
    const [r] = await rx.waitFor(1)
    expect(r!.headers['x-webhook-event']).toBe('link.flagged')
    const ts = r!.headers['x-webhook-timestamp'] as string
    const sig = createHmac('sha256', secret)
      .update(Buffer.concat([Buffer.from(`${ts}.`), r!.raw]))
      .digest('hex')
    expect(r!.headers['x-webhook-signature']).toBe(`sha256=${sig}`)
    const body = JSON.parse(r!.raw.toString('utf8'))
    expect(body).toMatchObject({
      event: 'link.flagged',
      organizationId: t.orgId,
      data: { linkId: l.id, shortUrl: l.shortUrl, host: 'phish.test', list: 'urlhaus' },
    })
  })
})
