/**
 * Split destinations from linkctl: `--variant URL=WEIGHT` (repeatable) on links and smart links,
 * `--clear-variants` on update, `get` showing them and `stats` the figures of each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Link } from '../../../src/contract/links.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js'
import { cli } from '../../support/cli.js'

let d: TestDaemon
beforeAll(async () => {
  // The shared short domain without a port, so that redirects answer on the random test port.
  d = await startTestDaemon({ shortDomain: '127.0.0.1' })
})
afterAll(() => d.close())

const run = (args: string[], isTTY = false) =>
  cli(args, { env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey, NO_COLOR: '1' }, isTTY })

const A = 'https://example.com/a?x=1'
const B = 'https://example.com/b'

describe('linkctl and variants', () => {
  it('links create|update --variant, --clear-variants; get and stats show them', async () => {
    const made = await run([
      'links',
      'create',
      'https://example.com/main',
      '--short-code',
      'split-cli',
      '--variant',
      `${A}=70`,
      '--variant',
      `${B}=30`,
      '--json',
    ])
    expect(made.code, made.stderr).toBe(0)
    const link = JSON.parse(made.stdout) as Link
    expect(link.variants).toEqual([
      { destinationUrl: A, weight: 70 },
      { destinationUrl: B, weight: 30 },
    ])
    const shown = await run(['links', 'get', 'split-cli'], true)
    expect(shown.stdout).toMatch(new RegExp(`VARIANT 1 +${A.replace(/[?.]/g, '\\$&')}=70\n`))
    expect(shown.stdout).toMatch(new RegExp(`VARIANT 2 +${B.replace(/[?.]/g, '\\$&')}=30\n`))

    const res = await fetch(`${d.url}/split-cli`, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 Firefox/120.0' },
    })
    const went = res.headers.get('location')
    expect([A, B]).toContain(went)
    const stats = await run(['links', 'stats', 'split-cli'])
    expect(stats.code, stats.stderr).toBe(0)
    expect(stats.stdout).toContain('DESTINATION\tWEIGHT\tCLICKS\tVISITORS\tINSTALLS\n')
    expect(stats.stdout).toContain(`${A}\t70\t${went === A ? 1 : 0}\t${went === A ? 1 : 0}\t0\n`)
    expect(stats.stdout).toContain(`${B}\t30\t${went === B ? 1 : 0}\t${went === B ? 1 : 0}\t0\n`)

    const replaced = await run([
      'links',
      'update',
      'split-cli',
      '--variant',
      `${B}=50`,
      '--variant',
      `${A}=50`,
      '--json',
    ])
    expect(replaced.code, replaced.stderr).toBe(0)
    expect((JSON.parse(replaced.stdout) as Link).variants.map((v) => v.weight)).toEqual([50, 50])
    const cleared = await run(['links', 'update', 'split-cli', '--clear-variants', '--json'])
    expect(cleared.code, cleared.stderr).toBe(0)
    expect((JSON.parse(cleared.stdout) as Link).variants).toEqual([])
    expect(
      (await run(['links', 'update', 'split-cli', '--clear-variants', '--variant', `${A}=100`])).code,
    ).toBe(2)
  })

  it('bad variants: usage errors (exit 2) before any request, the daemon names the field (exit 1)', async () => {
    for (const bad of [B, `${B}=`, `${B}=0`, `${B}=100`, `${B}=7.5`, '=50'])
      expect((await run(['links', 'create', 'https://example.com/x', '--variant', bad])).code, bad).toBe(2)
    const sum = await run([
      'links',
      'create',
      'https://example.com/x',
      '--variant',
      `${A}=50`,
      '--variant',
      `${B}=49`,
    ])
    expect(sum.code).toBe(1)
    expect(sum.stderr).toContain('must add up to 100')
    const one = await run(['links', 'create', 'https://example.com/x', '--variant', `${A}=50`])
    expect(one.code).toBe(1)
    expect(one.stderr).toContain('--variant must have at least 2 items')
  })

  it('smart-links create|update --variant split the fallback', async () => {
    const made = await run([
      'smart-links',
      'create',
      '--fallback',
      'https://example.com/fallback',
      '--variant',
      `${A}=40`,
      '--variant',
      `${B}=60`,
      '--json',
    ])
    expect(made.code, made.stderr).toBe(0)
    const smart = JSON.parse(made.stdout) as SmartLink
    expect(smart.variants).toEqual([
      { destinationUrl: A, weight: 40 },
      { destinationUrl: B, weight: 60 },
    ])
    expect((await run(['smart-links', 'get', smart.id], true)).stdout).toMatch(
      /VARIANT 2 +https:\/\/example\.com\/b=60\n/,
    )
    const cleared = await run(['smart-links', 'update', smart.id, '--clear-variants', '--json'])
    expect((JSON.parse(cleared.stdout) as SmartLink).variants).toEqual([])
  })
})
