import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openGeo } from '../../../daemon/geo.js'
import { AGENT_CACHE_MAX, parseAgent, readAgent } from '../../../daemon/modules/clicks/classify.js'
import { createLocator, lookup, PLACE_CACHE_MAX } from '../../../daemon/modules/clicks/location.js'
import { boundedMemo } from '../../../daemon/modules/clicks/memo.js'
import { buildMmdb } from '../../support/mmdb.js'
import {
  CHROME_WINDOWS,
  FIREFOX_LINUX,
  GOOGLEBOT,
  SAFARI_IPAD,
  SAFARI_IPHONE,
  SLACKBOT,
} from '../../support/redirect.js'

const dir = mkdtempSync(join(tmpdir(), 'linkd-caches-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('lookup caches of click enrichment', () => {
  it('a bounded memo gives what the function gives, calls it once per remembered key, and holds at most max keys', () => {
    const calls: string[] = []
    const memo = boundedMemo((key: string) => (calls.push(key), `<${key}>`), 3)
    expect([memo('a'), memo('b'), memo('a'), memo('c'), memo('b')]).toEqual([
      '<a>',
      '<b>',
      '<a>',
      '<c>',
      '<b>',
    ])
    expect(calls).toEqual(['a', 'b', 'c'])
    expect(memo.size).toBe(3)
    expect(memo('d')).toBe('<d>') // full: starts over
    expect(memo.size).toBe(1)
    expect(memo('a')).toBe('<a>')
    expect(calls).toEqual(['a', 'b', 'c', 'd', 'a'])
  })

  it('user agents: the cached parse equals a fresh one, and the cache stays bounded', () => {
    const agents = [CHROME_WINDOWS, SAFARI_IPHONE, SAFARI_IPAD, FIREFOX_LINUX, GOOGLEBOT, SLACKBOT, '', '  ']
    for (let round = 0; round < 2; round++)
      for (const ua of agents) expect(parseAgent(ua), ua).toEqual(readAgent(ua))
    expect(parseAgent(SAFARI_IPHONE)).toEqual({
      device: 'mobile',
      browser: 'Mobile Safari',
      os: 'iOS',
      bot: null,
    })
    for (let i = 0; i < AGENT_CACHE_MAX + 500; i++) {
      const ua = `${CHROME_WINDOWS} build/${i}`
      const agent = parseAgent(ua)
      if (i % 997 === 0) expect(agent).toEqual(readAgent(ua))
      expect(parseAgent.size).toBeLessThanOrEqual(AGENT_CACHE_MAX)
    }
    expect(parseAgent.size).toBeGreaterThan(0)
  })

  it('places: the cached lookup equals a fresh one (bundled and city databases), and the cache stays bounded', () => {
    const cityDb = join(dir, 'city.mmdb')
    writeFileSync(
      cityDb,
      buildMmdb([
        { cidr: '81.2.69.0/24', record: { country_code: 'GB', state1: 'England', city: 'London' } },
      ]),
    )
    const geo = openGeo()
    const countryOf = (ip: string) => geo.country(ip)
    const ips = ['8.8.8.8', '::ffff:8.8.4.4', '81.2.69.160', '127.0.0.1', '10.0.0.1', '2001:4860:4860::8888']
    for (const path of [undefined, cityDb]) {
      const cached = createLocator(countryOf, path)
      const fresh = lookup(countryOf, path)
      for (let round = 0; round < 2; round++) for (const ip of ips) expect(cached(ip), ip).toEqual(fresh(ip))
    }
    expect(createLocator(countryOf, cityDb)('81.2.69.160')).toEqual({
      country: 'GB',
      region: 'England',
      city: 'London',
    })

    const cached = createLocator(countryOf)
    const fresh = lookup(countryOf)
    for (let i = 0; i < PLACE_CACHE_MAX + 1000; i++) {
      const ip = `${1 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}.9`
      const place = cached(ip)
      if (i % 1999 === 0) expect(place).toEqual(fresh(ip))
      expect(cached.size).toBeLessThanOrEqual(PLACE_CACHE_MAX)
    }
    expect(cached.size).toBe(1000)
  })
})
