/**
 * `npm run bench safety`: what a 2,000,000-host safety list costs. Link creation (median time of
 * a create through the API) without any list, with the list, and without it again once deleted,
 * in the same run (the difference), the upload's time, the process's RSS before and after, the
 * lookup alone (the destination check every create and update makes), and a redirect with and
 * without the list (it never reads the lists).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import { buildApp } from '../../daemon/app.js'
import { loadConfig } from '../../daemon/config.js'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import { SAFETY_LIMITS } from '../../src/contract/safety.js'
import { hostsFeed } from '../support/safety-feed.js'
import { fmt, median, report } from './lib.js'

const CREATES = 400
const WARM_UP = 2000
const REDIRECTS = 4000
v8.setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
/** RSS and the JS heap in use after a full collection: what stays held, not garbage waiting. */
const memory = () => {
  gc()
  const m = process.memoryUsage()
  return { rss: m.rss / 1024 / 1024, heap: m.heapUsed / 1024 / 1024 }
}

export async function safetyBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-safety-'))
  try {
    const config = loadConfig({
      env: {},
      flags: {
        dataDir: dir,
        databaseUrl: `sqlite:${join(dir, 'linkd.db')}`,
        logLevel: 'silent',
        jobs: false,
        // One client address sends everything: lift the limits.
        rateLimitPerIp: 1_000_000_000,
        rateLimitPerOrg: 1_000_000_000,
        rateLimitRedirectsPerIp: 1_000_000_000,
      },
    })
    const db = openDatabase(config.databaseUrl)
    await migrate(db, Date.now())
    const app = await buildApp({ config, db, masterKey: randomBytes(32) })
    const { orgs, keys, safety } = app.linkd.services
    const org = await orgs.create('bench')
    const key = (await keys.createOwnerKey(org.id)).key
    let n = 0
    const createMs = async (host: (i: number) => string, expect: number) => {
      const times: number[] = []
      for (let i = 0; i < CREATES; i++) {
        const start = performance.now()
        const res = await app.inject({
          method: 'POST',
          url: '/api/use/links',
          headers: { authorization: `Bearer ${key}` },
          payload: { destinationUrl: `https://${host(i)}/page-${n++}` },
        })
        times.push(performance.now() - start)
        if (res.statusCode !== expect) throw new Error(`create: ${res.statusCode} ${res.body}`)
      }
      return median(times)
    }
    const redirectMs = async (code: string) => {
      const times: number[] = []
      for (let i = 0; i < REDIRECTS; i++) {
        const start = performance.now()
        const res = await app.inject({
          method: 'GET',
          url: `/${code}`,
          headers: { host: new URL(config.publicUrl).host, 'user-agent': 'bench' },
        })
        times.push(performance.now() - start)
        if (res.statusCode !== 302) throw new Error(`redirect: ${res.statusCode} ${res.body}`)
      }
      return median(times)
    }
    for (let i = 0; i < WARM_UP / CREATES; i++) await createMs((j) => `warm-${i}-${j}.example.com`, 201)
    const target = await app.inject({
      method: 'POST',
      url: '/api/use/links',
      headers: { authorization: `Bearer ${key}` },
      payload: { destinationUrl: 'https://target.example.com/', customSlug: 'bench-target' },
    })
    if (target.statusCode !== 201) throw new Error(`create: ${target.statusCode} ${target.body}`)
    await redirectMs('bench-target')
    const without = await createMs((i) => `site-${i}.example.com`, 201)
    const redirectWithout = await redirectMs('bench-target')
    const before = memory()

    const max = SAFETY_LIMITS.entriesMax
    const start = performance.now()
    const list = await safety.upload(org.id, { name: 'big' }, Readable.from(hostsFeed(max)))
    const uploadS = (performance.now() - start) / 1000
    await safety.settled()
    const after = memory()

    const withList = await createMs((i) => `other-${i}.example.com`, 201)
    const blocked = await createMs((i) => `deep.host-${i * 997}.feed.test`, 400)
    const checks: number[] = []
    for (let i = 0; i < 2000; i++) {
      const s = performance.now()
      await safety.assertDestinationsAllowed(org.id, [
        { field: 'destinationUrl', url: `https://a.b.c${i}.example.com/x` },
      ])
      checks.push(performance.now() - s)
    }
    const redirectWith = await redirectMs('bench-target')
    const listed = await app.inject({
      method: 'DELETE',
      url: `/api/safety/lists/${list.id}`,
      headers: { authorization: `Bearer ${key}` },
    })
    if (listed.statusCode !== 204) throw new Error(`delete: ${listed.statusCode} ${listed.body}`)
    await safety.settled()
    const withoutAgain = await createMs((i) => `again-${i}.example.com`, 201)
    const redirectAgain = await redirectMs('bench-target')
    const baseline = (without + withoutAgain) / 2
    report('safety lists: 2,000,000 hosts', [
      ['hosts stored', `${list.entries}`],
      ['upload (parse + store)', `${fmt(uploadS)} s`],
      ['create, no list: before / after (median)', `${fmt(without, 3)} / ${fmt(withoutAgain, 3)} ms`],
      ['create, with the list (median)', `${fmt(withList, 3)} ms`],
      [
        'create with the list vs without (mean of both)',
        `${fmt(withList - baseline, 3)} ms more, ${fmt(withList / baseline, 2)}× (goal: <= 1 ms more)`,
      ],
      [
        'redirect (inject, median) without / with / without again',
        `${fmt(redirectWithout, 3)} / ${fmt(redirectWith, 3)} / ${fmt(redirectAgain, 3)} ms (${fmt((2 * redirectWith) / (redirectWithout + redirectAgain), 2)}×)`,
      ],
      ['create refused, listed parent (median)', `${fmt(blocked, 3)} ms`],
      ['destination check alone (median)', `${fmt(median(checks), 3)} ms`],
      [
        'RSS before / after the upload (JS heap in use)',
        `${fmt(before.rss, 0)} / ${fmt(after.rss, 0)} MB (${fmt(before.heap, 0)} / ${fmt(after.heap, 0)} MB; the SQLite page cache is 32 MB)`,
      ],
    ])
    await app.close()
    await db.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
