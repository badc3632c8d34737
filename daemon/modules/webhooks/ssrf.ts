/**
 * SSRF guard of webhook deliveries: every resolved address is checked as the address it is
 * (any spelling) against private, loopback and reserved ranges, per the LINKD_WEBHOOK_ALLOW_*
 * settings, and the connection is pinned to the vetted address so DNS rebinding cannot redirect it.
 */
import { lookup } from 'node:dns/promises'
import type { LookupAddress } from 'node:dns'
import { isLoopbackHost, parseAddress } from '../../addresses.js'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a: LookupAddress) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }))

export class SsrfError extends Error {
  override name = 'SsrfError'
}

/** What deliveries may reach besides public addresses (the LINKD_WEBHOOK_ALLOW_* settings). */
export interface GuardPolicy {
  allowPrivateNetworks: boolean
  allowLoopback: boolean
}

/** Ranges never connected to: no host (0.0.0.0 and :: reach loopback), broadcast, multicast, not an address. */
const NEVER = ['invalid', 'unspecified', 'broadcast', 'multicast']

/** Whether a delivery to `hostname` may connect to `address`. */
export function addressAllowed(address: string, hostname: string, policy: GuardPolicy): boolean {
  const range = parseAddress(address)?.range() ?? 'invalid'
  if (range === 'unicast') return true
  if (NEVER.includes(range)) return false
  if (range === 'loopback')
    return policy.allowLoopback && (policy.allowPrivateNetworks || isLoopbackHost(hostname))
  return policy.allowPrivateNetworks
}

/** The error a URL naming this machine gets while LINKD_WEBHOOK_ALLOW_LOOPBACK is false. */
const LOOPBACK_REFUSED =
  'loopback receivers (localhost, 127.0.0.0/8, ::1, in any spelling) are refused on this server (LINKD_WEBHOOK_ALLOW_LOOPBACK=false)'

/**
 * Why a URL host is refused whatever DNS answers (so at creation already), or undefined: a name
 * of this machine while loopback is off, or an address literal the guard refuses. Other host
 * names are vetted at each delivery only: their addresses can change.
 */
export function hostRefusal(hostname: string, policy: GuardPolicy): string | undefined {
  if (!policy.allowLoopback && isLoopbackHost(hostname)) return LOOPBACK_REFUSED
  const ip = parseAddress(hostname)
  if (!ip || addressAllowed(ip.toString(), hostname, policy)) return undefined
  const range = ip.range()
  // ipaddr.js names ranges in camelCase (linkLocal): written as words (link-local).
  const what = `${ip.toString()} is in the ${range.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} range`
  return NEVER.includes(range)
    ? `${what}, which linkd never connects to`
    : `${what}: set LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow`
}

/** Resolves the URL's host and returns the one address to connect to, or throws SsrfError. */
export async function vetTarget(
  url: URL,
  opts: GuardPolicy & { resolve: Resolver },
): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: ResolvedAddress[]
  if (parseAddress(host)) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }]
  else {
    try {
      addresses = await opts.resolve(host)
    } catch (err) {
      throw new SsrfError(`cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
    }
  }
  if (addresses.length === 0) throw new SsrfError(`cannot resolve ${host}: no address`)
  // One refused address refuses the host: it could be rebound to it between two deliveries.
  const refused = addresses.find((a) => !addressAllowed(a.address, url.hostname, opts))
  if (refused) {
    const ip = parseAddress(refused.address)
    const range = ip?.range() ?? 'invalid'
    const hint =
      range === 'loopback' && !opts.allowLoopback
        ? '; loopback is off: LINKD_WEBHOOK_ALLOW_LOOPBACK=false'
        : ''
    throw new SsrfError(
      `refused: ${host} resolves to ${ip?.toString() ?? refused.address}, a ${range} address (SSRF guard${hint})`,
    )
  }
  return addresses[0]!
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/** A `lookup` for net/tls.connect that answers every query with the vetted address. */
export function pinnedLookup(target: ResolvedAddress) {
  return (_hostname: string, options: { all?: boolean } | number | undefined, cb: LookupCallback): void => {
    if (typeof options === 'object' && options?.all)
      cb(null, [{ address: target.address, family: target.family }])
    else cb(null, target.address, target.family)
  }
}

/** Whether a failed outbound fetch ran out of time (undici's timeouts or an abort signal's). */
export function isFetchTimeout(err: unknown): boolean {
  const e = err as { name?: string; code?: string }
  return (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT' ||
    e.code === 'UND_ERR_CONNECT_TIMEOUT'
  )
}
