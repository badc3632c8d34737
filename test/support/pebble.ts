import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findBinary } from './binaries.js'
import { selfSignedCertificate } from './certificates.js'
import { freePort } from './processes.js'

export interface PebbleOptions {
  /** Port pebble connects to for HTTP-01 validation (the daemon's HTTP listener). */
  httpPort: number
  /** `ip:port` of the DNS server pebble resolves challenge domains with (the test dnsmasq). */
  dnsServer: string
  /** Validity of issued certificates in seconds (pebble's default is 5 years). */
  certificateValidityPeriod?: number
}

export interface Pebble {
  /** ACME directory URL (https on loopback). */
  directoryUrl: string
  /** File holding the CA that signs pebble's own HTTPS endpoint (trust it to talk ACME). */
  endpointCaFile: string
  endpointCa: string
  /** GET the root that signs issued certificates (it changes on every pebble start). */
  issuingRoot(): Promise<string>
  /** Certificate orders pebble has received so far (its log's "Added order" lines). */
  orders(): number
  stop(): Promise<void>
}

function get(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: new Agent({ ca }), timeout: 2000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end()
  })
}

/** A real pebble ACME server on loopback with a generated config; resolves once it answers. */
export async function startPebble(opts: PebbleOptions): Promise<Pebble> {
  const bin = findBinary('pebble')
  if (!bin) throw new Error('pebble is not installed (Debian package pebble)')
  const dir = mkdtempSync(join(tmpdir(), 'linkd-pebble-'))
  // Debian's pebble does not ship pebble.minica.pem: each run makes its listener's certificate.
  const { cert, key } = selfSignedCertificate(dir, {
    name: 'endpoint',
    cn: 'pebble test endpoint',
    san: 'DNS:localhost,IP:127.0.0.1',
    days: 2,
  })
  const [port, mgmtPort, tlsPort] = [await freePort(), await freePort(), await freePort()]
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${port}`,
      managementListenAddress: `127.0.0.1:${mgmtPort}`,
      certificate: cert,
      privateKey: key,
      httpPort: opts.httpPort,
      tlsPort,
      ocspResponderURL: '',
      externalAccountBindingRequired: false,
      ...(opts.certificateValidityPeriod
        ? { certificateValidityPeriod: opts.certificateValidityPeriod }
        : {}),
    },
  }
  writeFileSync(join(dir, 'pebble.json'), JSON.stringify(config))
  let out = ''
  const child: ChildProcess = spawn(
    bin,
    ['-config', join(dir, 'pebble.json'), '-dnsserver', opts.dnsServer],
    {
      // PEBBLE_AUTHZREUSE=0 is not "never": pebble 2.4 reuses an account's valid authorization for
      // a name unless rand.Intn(100) > percent, i.e. in 1% of orders. A test that needs a fresh
      // validation must use an account without one for that name.
      env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()))
  const endpointCa = readFileSync(cert, 'utf8')
  const directoryUrl = `https://127.0.0.1:${port}/dir`
  const until = Date.now() + 15_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pebble exited (${child.exitCode}):\n${out}`)
    try {
      if ((await get(directoryUrl, endpointCa)).status === 200) break
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`pebble not ready after 15 s:\n${out}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    directoryUrl,
    endpointCaFile: cert,
    endpointCa,
    orders: () => out.match(/Added order /g)?.length ?? 0,
    async issuingRoot() {
      const r = await get(`https://127.0.0.1:${mgmtPort}/roots/0`, endpointCa)
      if (r.status !== 200) throw new Error(`pebble /roots/0: ${r.status}`)
      return r.body
    },
    async stop() {
      if (child.exitCode === null)
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve())
          child.kill('SIGTERM')
        })
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * A test app's configuration for certificates from `pebble`: it listens on `port` (where pebble
 * validates HTTP-01) and verifies domains against the test DNS server at `dnsServer`.
 */
export function pebbleAppConfig(
  pebble: Pebble,
  opts: { port: number; dnsServer: string; cnameTarget: string },
): Record<string, unknown> {
  return {
    port: opts.port,
    publicUrl: `http://127.0.0.1:${opts.port}`,
    cnameTarget: opts.cnameTarget,
    dnsResolvers: opts.dnsServer,
    acmeDirectory: pebble.directoryUrl,
    acmeCaFile: pebble.endpointCaFile,
    acmePrecheck: false,
  }
}
