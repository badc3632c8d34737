/**
 * SSRF guard of webhook deliveries: the target host is resolved and every address checked
 * before connecting; private, loopback, link-local, CGNAT, unique-local and other reserved
 * addresses are refused (loopback is allowed for the hosts localhost and 127.0.0.1, which the URL
 * rules name explicitly; LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS lifts the rest for receivers on a
 * LAN). The connection is then pinned to the vetted address (undici `connect.lookup`), so a DNS
 * answer that changes between the check and the connect (rebinding) cannot redirect it.
 */
import { lookup } from 'node:dns/promises'
import type { LookupAddress } from 'node:dns'
import ipaddr from 'ipaddr.js'
import { isPublicIp, unmap } from '../../geo.js'
import { isLocalHost } from './url-rules.js'

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

function range(address: string): string {
  try {
    return ipaddr.process(address).range()
  } catch {
    return 'invalid'
  }
}

/** Whether a delivery to `hostname` may connect to `address`. */
export function addressAllowed(address: string, hostname: string, allowPrivateNetworks: boolean): boolean {
  if (isPublicIp(address)) return true
  const r = range(address)
  if (r === 'loopback' && isLocalHost(hostname)) return true
  // Never: no host, broadcast, multicast, or something that is not an address.
  if (['invalid', 'unspecified', 'broadcast', 'multicast'].includes(r)) return false
  return allowPrivateNetworks
}

/** Resolves the URL's host and returns the one address to connect to, or throws SsrfError. */
export async function vetTarget(
  url: URL,
  opts: { resolve: Resolver; allowPrivateNetworks: boolean },
): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: ResolvedAddress[]
  if (ipaddr.isValid(host)) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }]
  else {
    try {
      addresses = await opts.resolve(host)
    } catch (err) {
      throw new SsrfError(`cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)
    }
  }
  if (addresses.length === 0) throw new SsrfError(`cannot resolve ${host}: no address`)
  // One refused address refuses the host: it could be rebound to it between two deliveries.
  const refused = addresses.find((a) => !addressAllowed(a.address, url.hostname, opts.allowPrivateNetworks))
  if (refused)
    throw new SsrfError(
      `refused: ${host} resolves to ${unmap(refused.address)}, a ${range(refused.address)} address (SSRF guard)`,
    )
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
