/**
 * Upgrading keeps every user's data: a database written by the previous release
 * (test/fixtures/upgrade/<release>/, made by its own code, see make.sh) is opened by this code,
 * which applies the newer migrations; every answer the release gave still holds (fields added
 * since may appear), old short links still redirect and a link password set then still opens.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createTestDatabase, onPostgres } from '../../support/postgres.js'
import { answers, type UpgradeFixture } from '../../support/upgrade.js'
import { visit } from '../../support/redirect.js'
import type { Link } from '../../../src/contract/links.js'

const RELEASE = 'v0.1.0'
const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'upgrade', RELEASE)
const fixture = JSON.parse(
  readFileSync(join(dir, `${onPostgres ? 'postgres' : 'sqlite'}.json`), 'utf8'),
) as UpgradeFixture
const work = mkdtempSync(join(tmpdir(), 'linkd-upgrade-'))
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
  rmSync(work, { recursive: true, force: true })
})

/** The release's database, restored where this code can open it: a copied file or a new database. */
async function restored(): Promise<string> {
  if (!onPostgres) {
    const file = join(work, 'linkd.db')
    copyFileSync(join(dir, 'linkd.db'), file)
    return `sqlite:${file}`
  }
  const db = await createTestDatabase({ empty: true })
  cleanups.push(() => db.drop())
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  await client.query(readFileSync(join(dir, 'postgres.sql'), 'utf8'))
  await client.end()
  return db.url
}

describe(`a database written by ${RELEASE}`, () => {
  let t: TestApp
  it('migrates to this version when opened', async () => {
    t = await createTestApp(
      { databaseUrl: await restored() },
      { masterKey: Buffer.from(fixture.masterKey, 'hex') },
      { orgName: 'upgrade-check' },
    )
    cleanups.push(() => t.close())
    t.clock.set(fixture.now)
  })

  it(`answers every read as ${RELEASE} did`, async () => {
    const now = await answers(t, fixture.ownerKey, Object.keys(fixture.answers))
    for (const [path, then] of Object.entries(fixture.answers))
      expect(now[path], path).toMatchObject(then as object)
  })

  it('still redirects the old short links, and their passwords still open them', async () => {
    const [plain, locked] = Object.entries(fixture.answers)
      .filter(([path]) => /^\/api\/use\/links\/lnk_\w+$/.test(path))
      .map(([, body]) => body as Link)
    const res = await visit(t, plain!.shortCode)
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe(plain!.destinationUrl)
    expect(locked!.passwordProtected).toBe(true)
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/${locked!.shortCode}`,
      payload: 'password=nope',
      headers: { host: t.config.shortDomain, 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(wrong.statusCode).toBe(401)
    const right = await t.app.inject({
      method: 'POST',
      url: `/${locked!.shortCode}`,
      payload: 'password=open-sesame',
      headers: { host: t.config.shortDomain, 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(right.statusCode).toBe(302)
    expect(right.headers.location).toBe(locked!.destinationUrl)
  })

  it('takes new writes beside the old data', async () => {
    const res = await t.call('POST', '/api/use/links', {
      key: fixture.ownerKey,
      body: { destinationUrl: 'https://example.com/after-upgrade' },
    })
    expect(res.statusCode, res.body).toBe(201)
    const list = await t.call('GET', '/api/use/links?limit=10', { key: fixture.ownerKey })
    expect(list.json<{ data: Link[] }>().data.map((l) => l.destinationUrl)).toEqual(
      expect.arrayContaining(['https://example.com/after-upgrade', 'https://example.com/vip']),
    )
  })
})
