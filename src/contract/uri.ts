/**
 * A URL as a valid URI reference (RFC 3986): how linkd stores a destination (daemon/urls.ts), and
 * how `linkctl links import --skip-existing` compares a row's destination with stored ones.
 */
/** What a path, query or fragment holds as is (RFC 3986 pchar, `/`, `?`); `%` only before two hex digits. */
const NOT_URI = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu
/** An authority as is: a host name, an IP literal and a port, in ASCII. */
const URI_AUTHORITY = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]%]*$/

const percentEncoded = (part: string) =>
  part.replace(NOT_URI, (ch) =>
    [...Buffer.from(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  )

/**
 * An http(s) URL (`parsed`: its WHATWG parse, when the caller has it) as a valid URI reference (RFC 3986), otherwise as typed:
 * each character a URI cannot hold (`"<>` `` ` `` `{|}^[]`, non-ASCII, a `%` not starting an escape,
 * a second `#`) percent-encoded as UTF-8, a host in non-ASCII in its ASCII form, a `\` in the path read as
 * `/` and the slashes after the scheme as `//`, as browsers read them (WHATWG). Case, port, dot
 * segments and everything else stay as typed.
 */
export function uriReference(value: string, parsed?: URL): string {
  const prefix = /^[A-Za-z]+:[/\\]*/.exec(value)?.[0] ?? ''
  const rest = value.slice(prefix.length)
  const end = rest.search(/[/\\?#]/)
  const typedAuthority = end < 0 ? rest : rest.slice(0, end)
  const authority = URI_AUTHORITY.test(typedAuthority) ? typedAuthority : (parsed ?? new URL(value)).host
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
