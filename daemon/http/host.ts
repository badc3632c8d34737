/** A request's Host header read once, for every module that compares hosts (redirect, domains). */

/** A Host header's host (lowercase, without a trailing dot; IPv6 kept in brackets) and its port. */
export function splitHost(hostPort: string): { host: string; port: string | undefined } {
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
  return splitHost(hostPort).host
}
