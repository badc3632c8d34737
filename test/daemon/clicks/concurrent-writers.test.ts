import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createTestDatabase, onPostgres } from '../../support/postgres.js'
import { prng } from '../../support/prng.js'
import {
  CHROME_WINDOWS,
  FIREFOX_LINUX,
  GOOGLEBOT,
  analytics,
  flush,
  makeLink,
  visit,
} from '../../support/redirect.js'

/**
 * Two linkd processes on one database: each records clicks on the same links and
 * flushes at the same time as the other, many times over. No increment may be lost: links.clicks,
 * the hourly, dimension and visitor counters add up to every click both of them recorded. On
 * PostgreSQL the two flushes really overlap (two connection pools); on SQLite they share a file
 * and take turns.
 */
describe('click counters with two writers on one database', () => {
  const cleanup: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step()
  })

  async function sharedDatabaseUrl(): Promise<string> {
    if (onPostgres) {
      const database = await createTestDatabase()
      cleanup.push(() => database.drop())
      return database.url
    }
    const dir = mkdtempSync(join(tmpdir(), 'linkd-two-writers-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    return `sqlite:${join(dir, 'linkd.db')}`
  }

  it('keep exact totals when both record and flush the same links concurrently', async () => {
    const databaseUrl = await sharedDatabaseUrl()
    const masterKey = randomBytes(32) // the processes of one installation share it (visitor hashes)
    const first = await createTestApp({ databaseUrl }, { masterKey })
    cleanup.push(() => first.close())
    const second = await createTestApp({ databaseUrl }, { masterKey }, { orgName: 'second' })
    cleanup.push(() => second.close())
    second.clock.set(first.clock.now())
    const links = [await makeLink(first), await makeLink(first)]

    const random = prng(17)
    const visitors = Array.from({ length: 12 }, (_, i) => ({
      ip: `198.51.100.${i + 1}`,
      ua: i % 3 === 0 ? FIREFOX_LINUX : CHROME_WINDOWS,
    }))
    /** What was recorded, per link: human clicks, bots, QR scans, human clicks per visitor. */
    const expected = links.map(() => ({ humans: 0, bots: 0, qr: 0, perVisitor: new Map<string, number>() }))
    for (let round = 0; round < 10; round++) {
      for (const app of [first, second] as TestApp[])
        for (let n = 0; n < 25; n++) {
          const which = Math.floor(random() * links.length)
          const visitor = visitors[Math.floor(random() * visitors.length)]!
          const bot = random() < 0.1
          const qr = !bot && random() < 0.2
          const res = await visit(app, links[which]!.shortCode, {
            ip: visitor.ip,
            ua: bot ? GOOGLEBOT : visitor.ua,
            ...(qr ? { query: 'qr=1' } : {}),
          })
          expect(res.statusCode).toBe(302)
          const e = expected[which]!
          if (bot) e.bots++
          else {
            e.humans++
            if (qr) e.qr++
            const id = `${visitor.ip} ${visitor.ua}`
            e.perVisitor.set(id, (e.perVisitor.get(id) ?? 0) + 1)
          }
        }
      // SQLite has one writer: its two apps, in one Node thread here, take turns (a second
      // transaction waiting on the file lock would block the thread the first one needs).
      if (onPostgres) await Promise.all([flush(first), flush(second)])
      else for (const app of [first, second]) await flush(app)
    }

    for (const [i, link] of links.entries()) {
      const e = expected[i]!
      expect((await first.call('GET', `/api/use/links/${link.id}`)).json<{ clicks: number }>().clicks).toBe(
        e.humans,
      )
      const stats = await analytics(first, link.id)
      expect(stats.totalClicks).toBe(e.humans)
      expect(stats.qrScans).toBe(e.qr)
      expect(stats.botDetection.count).toBe(e.bots)
      expect(stats.timeSeries.reduce((sum, p) => sum + p.clicks, 0)).toBe(e.humans)
      expect(stats.timeSeries.reduce((sum, p) => sum + p.bots, 0)).toBe(e.bots)
      expect(stats.devices.reduce((sum, d) => sum + Number(d.clicks), 0)).toBe(e.humans)
      expect(stats.uniqueVisitors).toBe(e.perVisitor.size)
      const single = [...e.perVisitor.values()].filter((clicks) => clicks === 1).length
      expect(stats.bounceRate).toBeCloseTo((100 * single) / e.perVisitor.size, 1)
    }
  })
})
