/**
 * A list of 2,000,000 hosts (the limit), generated in the test: accepted whole, matched by its
 * hosts and their subdomains; one host more is refused and leaves nothing behind. Time and memory
 * are measured by `npm run bench safety` (test/bench/safety.ts), not asserted here. SQLite
 * only: PostgreSQL loads the same rows through the same code in ~8 minutes, too long for the suite;
 * its bulk load is covered by the smaller lists of safety-lists.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAFETY_LIMITS } from '../../../src/contract/safety.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { hostsFeed } from '../../support/safety-feed.js'
import { onPostgres } from '../../support/postgres.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const upload = async (name: string, body: Buffer) => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/safety/lists?name=${name}`,
    headers: { authorization: `Bearer ${t.ownerKey}`, 'content-type': 'text/plain' },
    payload: body,
  })
  await t.app.linkd.services.safety.settled()
  return res
}
const create = (destinationUrl: string) => t.call('POST', '/api/use/links', { body: { destinationUrl } })

describe.skipIf(onPostgres)('a list of 2,000,000 hosts', () => {
  it('is accepted whole and matched; one host more is refused', { timeout: 600_000 }, async () => {
    const max = SAFETY_LIMITS.entriesMax
    const res = await upload('big', Buffer.from([...hostsFeed(max)].join('')))
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ format: 'hosts', entries: max })
    expect((await create('https://host-0.feed.test/')).statusCode).toBe(400)
    expect((await create(`https://a.b.host-${max - 1}.feed.test/x`)).statusCode).toBe(400)
    expect((await create(`https://host-${max}.feed.test/`)).statusCode).toBe(201)

    const over = await upload('bigger', Buffer.from([...hostsFeed(max + 1)].join('')))
    expect(over.statusCode).toBe(400)
    expect(over.json().message).toMatch(/more than 2,000,000 hosts/)
    expect((await t.call('GET', '/api/safety/lists')).json().total).toBe(1)
    // The refused upload's rows are removed, not only hidden.
    const [row] = await sqlRows<{ n: number | string }>(t, 'SELECT COUNT(*) AS n FROM safety_list_hosts')
    expect(Number(row!.n)).toBe(max)
  })
})
