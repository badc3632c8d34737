/** IP address literals read as what they are, whatever their spelling: webhooks' SSRF guard, click geolocation. */
import ipaddr from 'ipaddr.js'

const IPV4_CHARS = /^[0-9a-fx.]+$/i

/**
 * The address a literal stands for, or undefined when it is not one. Every IPv4 spelling
 * (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) is that IPv4 address, and so are its IPv6
 * spellings the kernel routes to it: IPv4-mapped `::ffff:a.b.c.d` and IPv4-compatible
 * `::a.b.c.d` (not `::` nor `::1`). Brackets are ignored.
 */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const host = text.replace(/^\[|\]$/g, '')
  // A host name is not parsed: ipaddr.js throws (and builds a stack) for each non-address it is
  // given, ~80 µs for a link's checks. Every IPv4 spelling is digits, hex digits, x and dots.
  if (!host.includes(':') && !IPV4_CHARS.test(host)) return undefined
  if (!ipaddr.isValid(host)) return undefined
  const ip = ipaddr.parse(host)
  if (ip.kind() === 'ipv4') return ip
  const p = (ip as ipaddr.IPv6).parts
  const low = (i: number) => p[i] ?? 0
  const v4 =
    p.slice(0, 5).every((x) => x === 0) &&
    (low(5) === 0xffff || (low(5) === 0 && (low(6) !== 0 || low(7) > 1)))
  return v4 ? new ipaddr.IPv4([low(6) >> 8, low(6) & 255, low(7) >> 8, low(7) & 255]) : ip
}

/**
 * What one client's requests count under in per-address limits: an IPv4 address as it is (and
 * IPv4-mapped `::ffff:a.b.c.d` as `a.b.c.d`); an IPv6 address by its /64, `2001:db8:1:2::/64`,
 * since one host or subscriber line holds a whole /64 and may use any address of it. Anything
 * that is not an address stays as it came.
 */
export function clientKey(address: string): string {
  if (!address.includes(':')) return address
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7)
  const ip = parseAddress(address)
  if (!ip) return address
  if (ip.kind() === 'ipv4') return ip.toString()
  return `${ip.toNormalizedString().split(':').slice(0, 4).join(':')}::/64`
}

/** The ipaddr.js range of an address literal (`unicast` is public), `invalid` when not one. */
export function addressRange(text: string): string {
  return parseAddress(text)?.range() ?? 'invalid'
}

/**
 * Whether a URL host names this machine: `localhost` and its subdomains (RFC 6761), or an address
 * literal in the loopback range or unspecified (`0.0.0.0`, `::` reach loopback), in any spelling.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '')
  if (h === 'localhost' || h.endsWith('.localhost')) return true
  const range = addressRange(h)
  return range === 'loopback' || range === 'unspecified'
}
