/**
 * The shapes Apple and Google document for a domain's app-link files, checked field by field:
 * apple-app-site-association (`{"applinks": {"details": [{"appIDs": [...], "components":
 * [{"/": "/*"}]}]}}`, `apps` empty when present, at most 128 KB) and assetlinks.json (`[{"relation":
 * ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app",
 * "package_name": …, "sha256_cert_fingerprints": ["14:6D:E9:…"]}}]`, fingerprints as 32 upper-case
 * hex pairs joined by colons). Each returns the problems found (empty: valid).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const onlyKeys = (o: Record<string, unknown>, keys: string[], at: string, out: string[]) => {
  for (const k of Object.keys(o)) if (!keys.includes(k)) out.push(`${at}: unknown key ${k}`)
}

export function aasaProblems(text: string): string[] {
  const out: string[] = []
  if (Buffer.byteLength(text) > 128 * 1024) out.push('larger than 128 KB')
  const doc: unknown = JSON.parse(text)
  if (!isObject(doc) || !isObject(doc.applinks)) return ['no applinks object']
  const applinks = doc.applinks
  onlyKeys(applinks, ['apps', 'details'], 'applinks', out)
  if ('apps' in applinks && !(Array.isArray(applinks.apps) && applinks.apps.length === 0))
    out.push('applinks.apps must be an empty array')
  if (!Array.isArray(applinks.details) || applinks.details.length === 0) return [...out, 'no details']
  applinks.details.forEach((d: unknown, i) => {
    const at = `details[${i}]`
    if (!isObject(d)) return out.push(`${at}: not an object`)
    onlyKeys(d, ['appIDs', 'components'], at, out)
    if (!Array.isArray(d.appIDs) || d.appIDs.length === 0) out.push(`${at}.appIDs: not a non-empty array`)
    else
      for (const id of d.appIDs)
        if (typeof id !== 'string' || !/^[A-Z0-9]{10}\.[A-Za-z0-9.-]+$/.test(id))
          out.push(`${at}.appIDs: ${String(id)} is not Team ID + bundle ID`)
    if (!Array.isArray(d.components) || d.components.length === 0)
      out.push(`${at}.components: not a non-empty array`)
    else
      for (const c of d.components as unknown[]) {
        if (!isObject(c) || typeof c['/'] !== 'string') out.push(`${at}.components: ${JSON.stringify(c)}`)
        else {
          onlyKeys(c, ['/', '?', '#', 'exclude', 'comment'], `${at}.components`, out)
          if ('exclude' in c && typeof c.exclude !== 'boolean')
            out.push(`${at}.components: exclude not boolean`)
        }
      }
  })
  return out
}

export function assetLinksProblems(text: string): string[] {
  const out: string[] = []
  const doc: unknown = JSON.parse(text)
  if (!Array.isArray(doc) || doc.length === 0) return ['not a non-empty array of statements']
  doc.forEach((s: unknown, i) => {
    const at = `[${i}]`
    if (!isObject(s)) return out.push(`${at}: not an object`)
    onlyKeys(s, ['relation', 'target'], at, out)
    if (JSON.stringify(s.relation) !== '["delegate_permission/common.handle_all_urls"]')
      out.push(`${at}.relation: ${JSON.stringify(s.relation)}`)
    const t = s.target
    if (!isObject(t)) return out.push(`${at}.target: not an object`)
    onlyKeys(t, ['namespace', 'package_name', 'sha256_cert_fingerprints'], `${at}.target`, out)
    if (t.namespace !== 'android_app') out.push(`${at}.target.namespace: ${String(t.namespace)}`)
    if (typeof t.package_name !== 'string' || !/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(t.package_name))
      out.push(`${at}.target.package_name: ${String(t.package_name)}`)
    const fps = t.sha256_cert_fingerprints
    if (!Array.isArray(fps) || fps.length === 0) out.push(`${at}.target.sha256_cert_fingerprints: empty`)
    else
      for (const f of fps)
        if (typeof f !== 'string' || !/^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/.test(f))
          out.push(`${at}.target.sha256_cert_fingerprints: ${String(f)}`)
  })
  return out
}

/** A valid SHA-256 fingerprint: `byte` repeated 32 times (two hex digits, any case). */
export const fingerprint = (byte = 'AB') => Array(32).fill(byte).join(':')

export interface FetchedFile {
  status: number
  type: string | undefined
  location: string | undefined
  body: string
}

/**
 * GET `path` of `host` on a loopback listener: over TLS with SNI = host, the chain checked against
 * `ca` alone, when `ca` is given; else plain HTTP.
 */
export function fetchFile(port: number, host: string, path: string, ca?: string): Promise<FetchedFile> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path, headers: { host }, agent: false, timeout: 10_000 }
    const onResponse = (res: IncomingMessage) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers['content-type'],
          location: res.headers.location,
          body,
        }),
      )
    }
    const req = ca
      ? httpsRequest({ ...options, servername: host, ca, rejectUnauthorized: true }, onResponse)
      : httpRequest(options, onResponse)
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)))
    req.on('error', reject)
    req.end()
  })
}
