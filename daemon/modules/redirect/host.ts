import { SHARED_DOMAIN_KEY } from '../links/index.js'

function split(hostPort: string): { host: string; port: string | undefined } {
  const h = hostPort.trim().toLowerCase()
  const v6 = /^(\[[^\]]+\])(?::(\d+))?$/.exec(h)
  if (v6) return { host: v6[1]!, port: v6[2] }
  const i = h.lastIndexOf(':')
  if (i > 0 && /^\d+$/.test(h.slice(i + 1)))
    return { host: h.slice(0, i).replace(/\.$/, ''), port: h.slice(i + 1) }
  return { host: h.replace(/\.$/, ''), port: undefined }
}

/** A request host without port, lowercase, without a trailing dot. */
export function hostName(hostPort: string): string {
  return split(hostPort).host
}

/**
 * The one mapping from a request's Host to the domain key its short codes live under: '' for the
 * shared short domain (LINKD_SHORT_DOMAIN), a verified custom domain's id (`custom`, asked on
 * every request: its answers change), undefined for a host that is not ours (404).
 * Case-insensitive; a port is compared only when both sides name one (custom domains ignore it).
 */
export function createDomainResolver(
  shortDomain: string,
  custom?: (host: string) => string | undefined,
): (host: string | undefined) => string | undefined {
  const shared = split(shortDomain)
  const decide = (host: string): string | undefined => {
    const h = split(host)
    if (h.host !== shared.host) return undefined
    if (h.port !== undefined && shared.port !== undefined && h.port !== shared.port) return undefined
    return SHARED_DOMAIN_KEY
  }
  // Requests name a handful of hosts: remember the answers (bounded against junk Host headers).
  const known = new Map<string, string | undefined>()
  return (host) => {
    if (!host) return undefined
    if (known.has(host)) return known.get(host) ?? (custom ? custom(split(host).host) : undefined)
    const key = decide(host)
    if (known.size >= 1000) known.clear()
    known.set(host, key)
    return key ?? (custom ? custom(split(host).host) : undefined)
  }
}
