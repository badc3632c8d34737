/**
 * Rules for URLs users give linkd to send visitors to (link destinations, a custom domain's root
 * redirect): shared by the links and domains modules.
 */
import { validation } from './http/errors.js'
import { isLoopbackHost } from './addresses.js'
import { LINK_LIMITS } from '../src/contract/limits.js'

/**
 * The authority of an http(s) URL as browsers read it (WHATWG): after the scheme and any run of
 * slashes or backslashes, up to the first slash, backslash, `?` or `#`.
 */
function authorityOf(value: string): string {
  const rest = value.replace(/^[A-Za-z]+:[/\\]*/, '')
  const end = rest.search(/[/\\?#]/)
  return end < 0 ? rest : rest.slice(0, end)
}

/**
 * http(s) URL with a host and without user-info; the schema already bounds the length and the
 * scheme prefix. `http://paypal.com@evil.example` opens evil.example: user-info only disguises
 * the real host, so any `@` before the host is refused. A loopback host is refused too: the
 * visitor's browser would open the visitor's own machine (a mistake, or an attack on a service
 * listening there).
 */
export function checkDestination(value: string, field = 'destinationUrl'): string {
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw validation(field, 'must be a valid http:// or https:// URL with a host')
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(value))
    throw validation(field, 'must not contain spaces or control characters')
  if (url.username !== '' || url.password !== '' || authorityOf(value).includes('@'))
    throw validation(
      field,
      'must not contain a user name or password before the host (as in https://name@host): the browser opens the host after the @',
    )
  if (isLoopbackHost(url.hostname))
    throw validation(
      field,
      `must not point at ${url.hostname}: a loopback host (localhost, 127.0.0.0/8, ::1, 0.0.0.0, in any spelling) is the visitor's own machine`,
    )
  const stored = uriReference(value, url)
  if (stored.length > LINK_LIMITS.destinationUrlMax)
    throw validation(
      field,
      `is ${stored.length} characters once percent-encoded (a URL cannot hold some of its characters as typed); at most ${LINK_LIMITS.destinationUrlMax}`,
    )
  return stored
}

/** What a path, query or fragment holds as is (RFC 3986 pchar, `/`, `?`); `%` only before two hex digits. */
const NOT_URI = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu
/** An authority as is: a host name, an IP literal and a port, in ASCII. */
const URI_AUTHORITY = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]%]*$/

const percentEncoded = (part: string) =>
  part.replace(NOT_URI, (ch) =>
    [...Buffer.from(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  )

/**
 * An http(s) URL (`parsed` by WHATWG) as a valid URI reference (RFC 3986), otherwise as typed:
 * each character a URI cannot hold (`"<>` `` ` `` `{|}^[]`, non-ASCII, a `%` not starting an escape,
 * a second `#`) percent-encoded as UTF-8, a host in non-ASCII in its ASCII form, a `\` in the path read as
 * `/` and the slashes after the scheme as `//`, as browsers read them (WHATWG). Case, port, dot
 * segments and everything else stay as typed.
 */
export function uriReference(value: string, parsed: URL = new URL(value)): string {
  const prefix = /^[A-Za-z]+:[/\\]*/.exec(value)?.[0] ?? ''
  const rest = value.slice(prefix.length)
  const end = rest.search(/[/\\?#]/)
  const typedAuthority = end < 0 ? rest : rest.slice(0, end)
  const authority = URI_AUTHORITY.test(typedAuthority) ? typedAuthority : parsed.host
  const tail = end < 0 ? '' : rest.slice(end)
  const hash = tail.indexOf('#')
  const beforeHash = hash < 0 ? tail : tail.slice(0, hash)
  const query = beforeHash.indexOf('?')
  const path = (query < 0 ? beforeHash : beforeHash.slice(0, query)).replace(/\\/g, '/')
  const out =
    `${prefix.replace(/[/\\]*$/, '')}//${authority}` +
    percentEncoded(path) +
    (query < 0 ? '' : percentEncoded(beforeHash.slice(query))) +
    (hash < 0 ? '' : `#${percentEncoded(tail.slice(hash + 1))}`)
  return out === value ? value : out
}

/**
 * A header-safe Location: a destination stored before destinations were stored as URI references
 * (uriReference), or with a visitor's query merged in. A redirect has no body, so this is all of its
 * answer: one regex test, cheaper than any cache.
 */
export function locationOf(url: string): string {
  if (!/[^\x21-\x7e]|["<>\\^`{|}[\]]/.test(url)) return url
  try {
    return uriReference(url)
  } catch {
    return encodeURI(url)
  }
}
