/**
 * The reverse-proxy examples of docs/deployment.md, checked by the real programs: the
 * ```nginx and ```caddyfile blocks are read from the page itself, so the docs cannot drift from
 * what is tested. A reader's substitutions only (the page lists them): ports, certificate paths.
 * `nginx -t` and `caddy validate` accept them; then nginx runs them in front of a real linkd, and
 * short links, the API and the TLS pass-through of port 443 answer through it, as short links and
 * the API do through Caddy's plain-HTTP site (run without automatic HTTPS: no CA is reached),
 * linkd seeing each client's own address (X-Forwarded-For from the proxy trusted by
 * LINKD_TRUST_PROXY).
 * Needs `npm run build` first, and nginx (with its stream module), caddy and openssl: the Debian
 * packages .ci/run installs.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LinkdClient } from '../../src/client/index.js'
import { findBinary, missingBinaries, missingTools, nginxStreamModule } from '../support/binaries.js'
import { selfSignedCertificate } from '../support/certificates.js'
import { fences, substitute } from '../support/deployment-docs.js'
import { cleanEnv, freePort, runProgram, startLinkdForCli, type LinkdForCli } from '../support/processes.js'

const SHARED_DOMAIN = 'lnk.example.com'
const BROWSER_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15'

const skipTools = missingBinaries('nginx', 'caddy', 'openssl')
const streamModule = skipTools ? '' : nginxStreamModule(findBinary('nginx')!)
const skip = skipTools ?? (streamModule === undefined ? missingTools(['ngx_stream_module']) : undefined)

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** One request to 127.0.0.1:`port`, sent from the loopback address `from` (a client of its own). */
function requestFrom(
  from: string,
  port: number,
  path: string,
  headers: Record<string, string>,
  tls?: { servername: string; ca: string },
): Promise<Answer> {
  const send = tls ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = send(
      { host: '127.0.0.1', port, path, localAddress: from, headers, ...(tls ?? {}) },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** A proxy started by a test: stopped (SIGTERM to the process it started) by `stop`. */
interface Proxy {
  stop(): Promise<void>
}

/**
 * Starts `program` and waits until it answers plain HTTP on `port`; an early exit fails with its
 * output and `log()` (nginx writes start-up errors to its error log).
 */
async function startProxy(
  program: string,
  args: string[],
  port: number,
  env: Record<string, string> = {},
  log = () => '',
): Promise<Proxy> {
  const child = spawn(program, args, { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const proxy = {
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${program} exited (${child.exitCode}): ${output}${log()}`)
    try {
      await requestFrom('127.0.0.1', port, '/health', {})
      return proxy
    } catch (error) {
      if (attempt > 200) {
        await proxy.stop()
        throw error
      }
      await sleep(25)
    }
  }
}

describe.skipIf(skip)('the proxy examples of docs/deployment.md', () => {
  let work = ''
  let cli: LinkdForCli
  let client: LinkdClient
  const proxies: Proxy[] = []
  let nginxConf = ''
  let certificate = ''
  const ports = { http: 0, tls: 0, passThrough: 0 }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'linkd-proxy-configs-'))
    // As the docs' settings: the public URL on the shared domain, the proxy's address trusted.
    cli = await startLinkdForCli('linkd-proxy-e2e-', {
      LINKD_PUBLIC_URL: `https://${SHARED_DOMAIN}`,
      LINKD_TRUST_PROXY: '127.0.0.1',
    })
    client = new LinkdClient({ baseUrl: cli.daemon.url, apiKey: cli.env.LINKCTL_API_KEY })
    const linkdPort = new URL(cli.daemon.url).port
    for (const name of ['http', 'tls', 'passThrough'] as const) ports[name] = await freePort()
    const certificates = join(work, 'letsencrypt')
    mkdirSync(certificates)
    const made = selfSignedCertificate(certificates, {
      name: 'fullchain',
      cn: SHARED_DOMAIN,
      san: `DNS:${SHARED_DOMAIN}`,
    })
    writeFileSync(join(certificates, 'privkey.pem'), readFileSync(made.key))
    certificate = readFileSync(made.cert, 'utf8')

    // The reader's substitutions: every linkd process is the test's one; nginx on free ports.
    const [server, stream, ...others] = fences('nginx')
    expect(others, 'two nginx blocks: the http servers, then the stream block').toEqual([])
    const servers = substitute(server!, [
      [/127\.0\.0\.1:808[123]/, `127.0.0.1:${linkdPort}`],
      [/listen 80 default_server;/, `listen 127.0.0.1:${ports.http} default_server;`],
      [/127\.0\.0\.1:8444/, `127.0.0.1:${ports.tls}`],
      [/\/etc\/letsencrypt\/live\/lnk\.example\.com/, certificates],
    ])
    const passThrough = substitute(stream!, [
      [/127\.0\.0\.1:8444/, `127.0.0.1:${ports.tls}`],
      // linkd's own HTTPS listeners (custom domains): not reached by these tests.
      [/127\.0\.0\.1:944[123]/, `127.0.0.1:${await freePort()}`],
      [/listen 443;/, `listen 127.0.0.1:${ports.passThrough};`],
    ])
    // The docs' blocks where a Debian nginx.conf has them: servers in `http`, `stream` at the top.
    writeFileSync(join(work, 'linkd-http.conf'), servers)
    writeFileSync(join(work, 'linkd-stream.conf'), passThrough)
    nginxConf = join(work, 'nginx.conf')
    writeFileSync(
      nginxConf,
      [
        streamModule,
        'worker_processes 1;',
        `pid ${work}/nginx.pid;`,
        `error_log ${work}/error.log;`,
        'events { worker_connections 64; }',
        'http {',
        `  access_log ${work}/access.log;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (kind) => `  ${kind}_temp_path ${work}/${kind}_temp;`,
        ),
        `  include ${work}/linkd-http.conf;`,
        '}',
        `include ${work}/linkd-stream.conf;`,
      ].join('\n'),
    )
  }, 60_000)

  afterAll(async () => {
    for (const proxy of proxies) await proxy.stop()
    await cli?.close()
    if (work) rmSync(work, { recursive: true, force: true })
  })

  const nginxArgs = () => ['-p', work, '-e', join(work, 'error.log'), '-c', nginxConf]

  /** Two clients (own loopback addresses, one browser) follow a new link through `port`. */
  async function visitorsThrough(port: number): Promise<void> {
    const link = await client.links.create({ destinationUrl: 'https://example.com/through-a-proxy' })
    for (const from of ['127.0.0.2', '127.0.0.3']) {
      const r = await requestFrom(from, port, `/${link.shortCode}`, {
        host: SHARED_DOMAIN,
        'user-agent': BROWSER_UA,
      })
      expect(r.status).toBe(302)
      expect(r.headers.location).toBe('https://example.com/through-a-proxy')
    }
    // Clicks are recorded in batches: wait for the flush (two clicks), then count the visitors.
    let analytics = await client.analytics.link(link.id)
    for (let attempt = 0; analytics.totalClicks < 2 && attempt < 100; attempt++) {
      await sleep(100)
      analytics = await client.analytics.link(link.id)
    }
    expect(analytics).toMatchObject({ totalClicks: 2, uniqueVisitors: 2 })
  }

  /** A key allowed from 127.0.0.2 only answers that client through `port`, not another. */
  async function allowlistThrough(port: number): Promise<void> {
    const key = await client.keys.create({
      name: 'behind a proxy',
      preset: 'read-only',
      allowedIps: ['127.0.0.2'],
    })
    const headers = { host: SHARED_DOMAIN, authorization: `Bearer ${key.key}` }
    const allowed = await requestFrom('127.0.0.2', port, '/api/use/links', headers)
    expect(allowed.status, allowed.body).toBe(200)
    expect(JSON.parse(allowed.body)).toHaveProperty('data')
    // Another client naming the allowed address itself is refused: the proxy forwards the
    // address it sees, and linkd trusts only the proxy's.
    const spoofed = await requestFrom('127.0.0.3', port, '/api/use/links', {
      ...headers,
      'x-forwarded-for': '127.0.0.2',
    })
    expect(spoofed.status).toBe(403)
  }

  it('nginx -t accepts the nginx blocks', async () => {
    const r = await runProgram(findBinary('nginx')!, ['-t', ...nginxArgs()])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('test is successful')
  })

  const linkdHost = () => new URL(cli.daemon.url).host
  const caddyfilePath = () => join(work, 'Caddyfile')
  // Caddy keeps its state under $HOME (XDG_DATA_HOME): the test's directory, not the user's.
  const caddyEnv = () => ({
    HOME: work,
    XDG_DATA_HOME: join(work, 'caddy-data'),
    XDG_CONFIG_HOME: join(work, 'caddy-config'),
  })

  it('caddy validate accepts the Caddyfile (no certificate is asked for)', async () => {
    const [caddyfile, ...others] = fences('caddyfile')
    expect(others).toEqual([])
    writeFileSync(caddyfilePath(), substitute(caddyfile!, [[/127\.0\.0\.1:808[123]/, linkdHost()]]))
    const r = await runProgram(
      findBinary('caddy')!,
      ['validate', '--adapter', 'caddyfile', '--config', caddyfilePath()],
      caddyEnv(),
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout + r.stderr).toContain('Valid configuration')
    // As `caddy fmt` writes it (tabs), or Caddy warns at every start that it is not formatted.
    const formatted = await runProgram(findBinary('caddy')!, ['fmt', caddyfilePath()], caddyEnv())
    expect(formatted.stdout).toBe(readFileSync(caddyfilePath(), 'utf8'))
  })

  describe('nginx in front of linkd', () => {
    let port = 0
    beforeAll(async () => {
      port = ports.http
      const log = () => readFileSync(join(work, 'error.log'), 'utf8')
      proxies.push(
        await startProxy(findBinary('nginx')!, [...nginxArgs(), '-g', 'daemon off;'], port, {}, log),
      )
    }, 30_000)

    it('a short link redirects through nginx, each client counted as the visitor of its own address', () =>
      visitorsThrough(port))

    it("the API answers through nginx, a key's IP allowlist seeing the client's own address", () =>
      allowlistThrough(port))

    it("port 443 passes the shared domain's TLS to nginx's server, on to linkd", async () => {
      const r = await requestFrom(
        '127.0.0.2',
        ports.passThrough,
        '/health',
        { host: SHARED_DOMAIN },
        { servername: SHARED_DOMAIN, ca: certificate },
      )
      expect(r.status).toBe(200)
      expect(JSON.parse(r.body)).toMatchObject({ status: 'ok' })
    })
  })

  describe('Caddy in front of linkd (its plain-HTTP site, no certificates)', () => {
    let port = 0
    beforeAll(async () => {
      port = await freePort()
      // Run locally: no automatic HTTPS (no CA is reached), its ports on loopback, no admin API.
      const local = [
        'auto_https off',
        `http_port ${port}`,
        `https_port ${await freePort()}`,
        'default_bind 127.0.0.1',
        'admin off',
      ]
      const [caddyfile] = fences('caddyfile')
      const running = substitute(caddyfile!, [
        [/127\.0\.0\.1:808[123]/, linkdHost()],
        [/^\{\n/, `{\n${local.map((line) => `\t${line}\n`).join('')}`],
      ])
      const file = join(work, 'Caddyfile.local')
      writeFileSync(file, running)
      const args = ['run', '--adapter', 'caddyfile', '--config', file]
      proxies.push(await startProxy(findBinary('caddy')!, args, port, caddyEnv()))
    }, 30_000)

    it('a short link redirects through Caddy, each client counted as the visitor of its own address', () =>
      visitorsThrough(port))

    it("the API answers through Caddy, a key's IP allowlist seeing the client's own address", () =>
      allowlistThrough(port))
  })
})
