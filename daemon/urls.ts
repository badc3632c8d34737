/**
 * Rules for URLs users give linkd to send visitors to (link destinations, a custom domain's root
 * redirect): shared by the links and domains modules.
 */
import { validation } from './http/errors.js'
import { isLoopbackHost } from './addresses.js'
import { LINK_LIMITS } from '../src/contract/limits.js'
import { uriReference } from '../src/contract/uri.js'

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
 * listening there). Returns the URL as stored: a URI reference (uriReference), so that Location is
 * always valid, within the length limit once encoded.
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
