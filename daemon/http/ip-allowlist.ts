import ipaddr from 'ipaddr.js'

type Addr = ipaddr.IPv4 | ipaddr.IPv6
export interface AllowEntry {
  addr: Addr
  bits: number
}

/** Parses `1.2.3.4`, `10.0.0.0/8`, `2001:db8::/32`, `::1`; undefined when invalid. */
export function parseAllowEntry(text: string): AllowEntry | undefined {
  const t = text.trim()
  // Only dotted-quad IPv4 and standard IPv6 text: ipaddr.js would also read `10.1` or `0x7f.1`
  // (inet_aton forms), so that `192.168.1` meant as a subnet would allow 192.168.0.1.
  const addrText = t.split('/')[0] ?? ''
  if (
    !(addrText.includes(':') ? ipaddr.IPv6.isValid(addrText) : ipaddr.IPv4.isValidFourPartDecimal(addrText))
  )
    return undefined
  try {
    if (t.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(t)
      // An IPv4-mapped range is an IPv4 range only when its prefix lies within ::ffff:0:0/96;
      // a shorter prefix stays an IPv6 range (it would otherwise become a negative IPv4 prefix).
      const v4 = normalize(addr)
      if (v4.kind() === 'ipv4' && addr.kind() === 'ipv6')
        return bits >= 96 ? { addr: v4, bits: bits - 96 } : { addr, bits }
      return { addr, bits }
    }
    const addr = normalize(ipaddr.parse(t))
    return { addr, bits: addr.kind() === 'ipv4' ? 32 : 128 }
  } catch {
    return undefined
  }
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) is treated as the IPv4 address. */
function normalize(addr: Addr): Addr {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr
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
