import { splitHost } from '../../http/host.js'
import { SHARED_DOMAIN_KEY } from '../links/index.js'

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
  const shared = splitHost(shortDomain)
  const decide = (host: string): string | undefined => {
    const h = splitHost(host)
    if (h.host !== shared.host) return undefined
    if (h.port !== undefined && shared.port !== undefined && h.port !== shared.port) return undefined
    return SHARED_DOMAIN_KEY
  }
  // Requests name a handful of hosts: remember the answers (bounded against junk Host headers).
  const known = new Map<string, string | undefined>()
  return (host) => {
    if (!host) return undefined
    if (known.has(host)) return known.get(host) ?? (custom ? custom(splitHost(host).host) : undefined)
    const key = decide(host)
    if (known.size >= 1000) known.clear()
    known.set(host, key)
    return key ?? (custom ? custom(splitHost(host).host) : undefined)
  }
}
