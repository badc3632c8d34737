/**
 * A refusal of one occurrence of a repeatable flag, against the real daemon: said as that flag and
 * what was typed (`--allowed-origin notaurl`), or which occurrence (`the 2nd --rule`), never as the
 * API's indexed field (`allowedOrigins.1`, `rules.1.destinationUrl`). `--json` keeps the API's body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from '../support/daemon.js'
import { cli } from '../support/cli.js'

let d: TestDaemon
beforeAll(async () => {
  d = await startTestDaemon()
})
afterAll(() => d.close())

const run = (argv: string[]) => cli(argv, { env: { LINKCTL_URL: d.url, LINKCTL_API_KEY: d.ownerKey } })

async function refused(argv: string[]): Promise<string> {
  const r = await run(argv)
  expect(r.code, r.stderr).toBe(1)
  return r.stderr
}

const ok = 'https://example.com/ok'

describe('an occurrence of a repeatable flag refused by the API', () => {
  it('keys: --allowed-origin names the value typed, on create and update', async () => {
    const origin = await refused([
      'keys',
      'create',
      '--name',
      'k',
      '--allowed-origin',
      'https://app.example.com',
      '--allowed-origin',
      'notaurl',
    ])
    expect(origin).toBe(
      'error: --allowed-origin notaurl: "notaurl" is not an origin such as https://app.example.com (HTTP 400)\n',
    )
    expect(origin).not.toContain('allowedOrigins')
    const key = JSON.parse((await run(['keys', 'create', '--name', 'k2', '--json'])).stdout) as { id: string }
    const update = await refused(['keys', 'update', key.id, '--allowed-origin', 'ftp://x y'])
    expect(update).toMatch(/^error: --allowed-origin 'ftp:\/\/x y': /)
    const json = await run(['keys', 'create', '--name', 'k', '--allowed-origin', 'notaurl', '--json'])
    expect(JSON.parse(json.stderr)).toMatchObject({ details: [{ field: 'allowedOrigins.0' }] })
  })

  it('links: the nth --rule and --variant, and the --tag typed', async () => {
    const rule = await refused([
      'links',
      'create',
      ok,
      '--rule',
      'os:ios=>https://apps.example.com/a',
      '--rule',
      'os:android=>javascript:alert(1)',
    ])
    expect(rule).toBe(
      "error: the 2nd --rule's destinationUrl must start with http:// or https:// (HTTP 400)\n",
    )
    const variant = await refused([
      'links',
      'create',
      ok,
      '--variant',
      'https://example.com/a=50',
      '--variant',
      'ftp://example.com/b=50',
    ])
    expect(variant).toMatch(/^error: the 2nd --variant's destinationUrl must start with http/)
    // Repeated and blank tags are dropped before sending: the refused tag is the one quoted.
    const tag = await refused(['links', 'create', ok, '--tag', 'a', '--tag', ' a ', '--tag', 'b\u200bc'])
    expect(tag).toMatch(/^error: --tag 'b.*c' must not contain control/)
    expect(tag).not.toMatch(/tags\.\d/)
    // Too many: the whole list refused, said as the flag too.
    const many = Array.from({ length: 21 }, (_, i) => ['--tag', `t${i}`]).flat()
    expect(await refused(['links', 'create', ok, ...many])).toBe(
      'error: --tag must have at most 20 items (HTTP 400)\n',
    )
  })

  it('smart links: --tag and the nth --variant', async () => {
    const variant = await refused([
      'sl',
      'create',
      '--fallback',
      ok,
      '--variant',
      'https://example.com/a=50',
      '--variant',
      'notaurl=50',
    ])
    expect(variant).toMatch(/^error: the 2nd --variant's destinationUrl must /)
    const tag = await refused(['sl', 'create', '--fallback', ok, '--tag', 'x\u202ey'])
    expect(tag).toMatch(/^error: --tag 'x.*y' must not contain/)
  })

  it('webhooks: the --header refused, as typed', async () => {
    const r = await refused([
      'webhooks',
      'create',
      'https://example.com/hook',
      '--name',
      'w',
      '--event',
      'link.created',
      '--header',
      'X-Team: games',
      '--header',
      'Host: evil.example',
    ])
    expect(r).toMatch(/^error: --header 'Host: evil.example': is reserved/)
  })

  it('domains app-links: the --ios-app-id, --ios-path and --android-fingerprint typed', async () => {
    expect((await run(['domains', 'add', 'go.example.org'])).code).toBe(0)
    const id = await refused([
      'domains',
      'app-links',
      'go.example.org',
      '--ios-app-id',
      'ABCDE12345.com.example.game',
      '--ios-app-id',
      'bad',
    ])
    expect(id).toMatch(/^error: --ios-app-id bad must be the 10-character Team ID/)
    const path = await refused([
      'domains',
      'app-links',
      'go.example.org',
      '--ios-app-id',
      'ABCDE12345.com.example.game',
      '--ios-path',
      'games/*',
    ])
    expect(path).toMatch(/^error: --ios-path 'games\/\*' must start with/)
    const print = await refused([
      'domains',
      'app-links',
      'go.example.org',
      '--android-package',
      'com.example.game',
      '--android-fingerprint',
      '12:34',
    ])
    expect(print).toMatch(/^error: --android-fingerprint 12:34 must be a SHA-256 fingerprint/)
  })
})
