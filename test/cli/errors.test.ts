/**
 * Errors for humans, with real local servers: each message once, a refused key
 * says where it came from and how to log in, a server that is not linkd is named as such, and TLS
 * spoken to a plain-HTTP port (or the reverse) is said in one line.
 */
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from '../../src/session/profiles.js'
import { cli, errorReply, OWNER_KEY, stubServer, tempDir } from '../support/cli.js'

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )
}
const close = (server: Server) => new Promise((resolve) => server.close(resolve))

describe('errors for humans', () => {
  const config = tempDir()
  let stub: Awaited<ReturnType<typeof stubServer>>
  let notLinkd: Server
  let webPage: Server
  let tls: Server
  const hosts = { notLinkd: '', webPage: '', tls: '' }
  beforeAll(async () => {
    stub = await stubServer({
      'GET /api/keys': () => errorReply(401, 'Unauthorized', 'Invalid API key'),
      // linkd's answer to a path it has no route for (an --url with a path puts it before /api).
      'GET /api/api/use/links': () => errorReply(404, 'NotFound', 'no route GET /api/api/use/links'),
      'POST /api/use/links': () =>
        errorReply(400, 'ValidationError', 'destinationUrl must start with http:// or https://', '/', [
          { field: 'destinationUrl', message: 'must start with http:// or https://' },
        ]),
    })
    // Another program on the port: 404 pages in HTML, or a web page for every path.
    notLinkd = createHttpServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>nope</h1>'),
    )
    webPage = createHttpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hi</h1>'),
    )
    const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url))
    tls = createHttpsServer(
      { cert: fixture('localhost.pem'), key: fixture('localhost-key.pem') },
      (_req, res) => res.end('{}'),
    )
    hosts.notLinkd = await listen(notLinkd)
    hosts.webPage = await listen(webPage)
    hosts.tls = await listen(tls)
    const store = await openStore({ LINKCTL_CONFIG_DIR: config.dir })
    store.save('work', { url: stub.url, apiKey: OWNER_KEY })
  })
  afterAll(async () => {
    await Promise.all([stub.close(), close(notLinkd), close(webPage), close(tls)])
    config.remove()
  })

  const env = (over: NodeJS.ProcessEnv = {}) => ({ LINKCTL_CONFIG_DIR: config.dir, ...over })

  it('a refused key names where it came from and the login command', async () => {
    const fromProfile = await cli(['keys', 'list', '--profile', 'work'], { env: env() })
    expect(fromProfile.code).toBe(4)
    expect(fromProfile.stderr).toBe(
      'error: Invalid API key (HTTP 401): the key from profile "work" was refused; run `linkctl login --profile work` with a valid key\n',
    )
    const fromFlag = await cli(['keys', 'list', '--url', stub.url, '--api-key', OWNER_KEY], { env: env() })
    expect(fromFlag.stderr).toMatch(/the key from the --api-key flag was refused; run `linkctl login`/)
    const fromEnv = await cli(['keys', 'list'], {
      env: env({ LINKCTL_URL: stub.url, LINKCTL_API_KEY: OWNER_KEY }),
    })
    expect(fromEnv.stderr).toMatch(/the key from LINKCTL_API_KEY was refused/)
  })

  it('an --url with a path that linkd has no route under says to use linkd\'s address (exit 2, not "not found")', async () => {
    const r = await cli(['links', 'list', '--url', `${stub.url}/api`, '--api-key', OWNER_KEY], { env: env() })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      `error: linkd has no route GET /api/api/use/links: ${stub.url}/api (--url) has a path; linkd's address is ${stub.url}\n`,
    )
  })

  it('a validation problem is printed once', async () => {
    const r = await cli(['links', 'create', 'example.com'], {
      env: env({ LINKCTL_URL: stub.url, LINKCTL_API_KEY: OWNER_KEY }),
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toBe('error: destinationUrl must start with http:// or https:// (HTTP 400)\n')
  })

  it('a server that answers but is not linkd is named as such, in one line', async () => {
    for (const host of [hosts.notLinkd, hosts.webPage]) {
      const r = await cli(['keys', 'list', '--url', `http://${host}`, '--api-key', OWNER_KEY], { env: env() })
      expect(r.code, r.stderr).toBe(1)
      expect(r.stderr).toBe(`error: http://${host} does not look like linkd (no /api/use)\n`)
    }
  })

  it('https:// to a plain-HTTP port, and http:// to a TLS port, say so in one line', async () => {
    const toPlain = await cli(
      ['keys', 'list', '--url', `https://${hosts.notLinkd}`, '--api-key', OWNER_KEY],
      {
        env: env(),
      },
    )
    expect(toPlain.code).toBe(1)
    expect(toPlain.stderr).toBe(
      `error: https://${hosts.notLinkd} answers plain HTTP, not TLS: use http://${hosts.notLinkd}\n`,
    )
    const toTls = await cli(['keys', 'list', '--url', `http://${hosts.tls}`, '--api-key', OWNER_KEY], {
      env: env(),
    })
    expect(toTls.code).toBe(1)
    expect(toTls.stderr).toBe(
      `error: http://${hosts.tls} speaks TLS, not plain HTTP: use https://${hosts.tls}\n`,
    )
  })
})

describe('a file named on the command line that cannot be read', () => {
  const temp = tempDir()
  afterAll(() => temp.remove())
  const dir = temp.dir
  // Nothing listens there: the file is refused before anything is sent.
  const env = { LINKCTL_URL: 'http://127.0.0.1:2', LINKCTL_API_KEY: OWNER_KEY }
  it('is one usage error (exit 2) naming the flag or file and why, in words, before anything is sent', async () => {
    const missing = `${dir}/missing.txt`
    const cases: Array<[string[], string]> = [
      [['qr', 'create', 'abc', '--logo', missing], `--logo ${missing}`],
      [['links', 'import', missing], missing],
      [['events', 'send', missing, '--game', 'g1', '--sdk-key', 'sdk_x'], missing],
      [['safety', 'lists', 'add', missing, '--name', 'bad'], missing],
      [
        [
          'skan',
          'campaigns',
          'create',
          'g1',
          '--name',
          'c',
          '--ad-network',
          'x.skadnetwork',
          '--lock-window',
          '24',
        ].concat(['--schema', missing]),
        `--schema ${missing}`,
      ],
      [['webhooks', 'sign', '--secret', 's', '--payload-file', missing], `--payload-file ${missing}`],
    ]
    for (const [args, named] of cases) {
      const res = await cli(args, { env })
      expect({ args, code: res.code, stderr: res.stderr }).toEqual({
        args,
        code: 2,
        stderr: `error: cannot read ${named}: no such file\n`,
      })
    }
    // A directory where a file is wanted says so too.
    const asDir = await cli(['links', 'import', dir], { env })
    expect(asDir).toMatchObject({ code: 2, stderr: `error: cannot read ${dir}: it is a directory\n` })
  })
})
