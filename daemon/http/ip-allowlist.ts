import ipaddr from 'ipaddr.js'

type Addr = ipaddr.IPv4 | ipaddr.IPv6
export interface AllowEntry {
  addr: Addr
  bits: number
}

/** Parses `1.2.3.4`, `10.0.0.0/8`, `2001:db8::/32`, `::1`; undefined when invalid. */
export function parseAllowEntry(text: string): AllowEntry | undefined {
  const t = text.trim()
  try {
    if (t.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(t)
      return { addr: normalize(addr), bits: addr.kind() === 'ipv6' && normalize(addr).kind() === 'ipv4' ? bits - 96 : bits }
    }
    const addr = normalize(ipaddr.parse(t))
    return { addr, bits: addr.kind() === 'ipv4' ? 32 : 128 }
  } catch {
    return undefined
  }
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) is treated as the IPv4 address. */
function normalize(addr: Addr): Addr {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr
}

/** Canonical text of an entry, e.g. `10.0.0.0/8`, `2001:db8::/32`, `1.2.3.4`. */
export function formatAllowEntry(e: AllowEntry): string {
  const full = e.addr.kind() === 'ipv4' ? 32 : 128
  return e.bits === full ? e.addr.toString() : `${e.addr.toString()}/${e.bits}`
}

export function ipAllowed(ip: string, entries: readonly AllowEntry[]): boolean {
  if (entries.length === 0) return true
  let addr: Addr
  try {
    addr = normalize(ipaddr.parse(ip))
  } catch {
    return false
  }
  return entries.some((e) => e.addr.kind() === addr.kind() && addr.match(e.addr, e.bits))
}
