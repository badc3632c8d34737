import { spawn, type ChildProcess } from 'node:child_process'
import { Resolver } from 'node:dns/promises'
import { findBinary } from './binaries.js'
import { freePort } from './processes.js'

/** Records a test DNS server answers (names without a trailing dot). */
export interface DnsRecords {
  txt?: Array<[name: string, value: string]>
  /** alias → target; the target needs an A record (in `a`) for dnsmasq to answer the CNAME. */
  cname?: Array<[alias: string, target: string]>
  a?: Array<[name: string, ip: string]>
}

export interface DnsServer {
  /** `127.0.0.1:<port>`, the form LINKD_DNS_RESOLVERS takes. */
  address: string
  port: number
  /** Restarts the server on the same port with new records. */
  restart(records: DnsRecords): Promise<void>
  stop(): Promise<void>
}

function args(port: number, r: DnsRecords): string[] {
  return [
    '--no-daemon',
    `--port=${port}`,
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    '--no-resolv',
    '--no-hosts',
    '--no-poll',
    '--conf-file=/dev/null',
    '--pid-file=',
    '--user=' + (process.getuid?.() === 0 ? 'root' : ''),
    // Authoritative for *.test: unknown names get NXDOMAIN (as from a real zone), not REFUSED.
    '--local=/test/',
    `--host-record=${PROBE},127.0.0.1`,
    ...(r.a ?? []).map(([name, ip]) => `--host-record=${name},${ip}`),
    ...(r.cname ?? []).map(([alias, target]) => `--cname=${alias},${target}`),
    ...(r.txt ?? []).map(([name, value]) => `--txt-record=${name},${value}`),
  ].filter((a) => a !== '--user=')
}

/** A name every test server answers, to know it is up. */
const PROBE = 'linkd-dns-ready.test'

/** Waits until the server answers the probe name. */
async function ready(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const resolver = new Resolver({ timeout: 200, tries: 1 })
  resolver.setServers([`127.0.0.1:${port}`])
  const until = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dnsmasq exited (${child.exitCode}):\n${log()}`)
    try {
      await resolver.resolve4(PROBE)
      return
    } catch {
      // not answering yet
    }
    if (Date.now() > until) throw new Error(`dnsmasq not answering on ${port}:\n${log()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A real dnsmasq on 127.0.0.1 at a free port, answering only the given records. */
export async function startDnsServer(records: DnsRecords): Promise<DnsServer> {
  const bin = findBinary('dnsmasq')
  if (!bin) throw new Error('dnsmasq is not installed (Debian package dnsmasq-base)')
  const port = await freePort()
  let child: ChildProcess | undefined
  let out = ''

  async function start(r: DnsRecords): Promise<void> {
    out = ''
    const c = spawn(bin!, args(port, r), { stdio: ['ignore', 'pipe', 'pipe'] })
    c.stdout?.on('data', (d: Buffer) => (out += d.toString()))
    c.stderr?.on('data', (d: Buffer) => (out += d.toString()))
    child = c
    await ready(port, c, () => out)
  }
  async function stop(): Promise<void> {
    const c = child
    child = undefined
    if (!c || c.exitCode !== null) return
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve())
      c.kill('SIGTERM')
    })
  }
  await start(records)
  return {
    address: `127.0.0.1:${port}`,
    port,
    async restart(r) {
      await stop()
      await start(r)
    },
    stop,
  }
}
