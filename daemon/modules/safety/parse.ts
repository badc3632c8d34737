/**
 * Feed files, read line by line as they stream in (never held whole): hosts format
 * (`0.0.0.0 host [host…]`, as StevenBlack's), one domain a line (phishing.army's), or URLhaus'
 * CSV (the host of each URL). And the hosts a destination matches: its own and its parent domains.
 */
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { SAFETY_LIMITS, type SafetyFormat } from '../../../src/contract/safety.js'

/** Names hosts files map for the machine itself: never a blocked destination. */
const LOCAL_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'local',
  'broadcasthost',
  'ip6-localhost',
  'ip6-loopback',
  'ip6-localnet',
  'ip6-mcastprefix',
  'ip6-allnodes',
  'ip6-allrouters',
  'ip6-allhosts',
  '0.0.0.0',
])
const PLAIN_HOST = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/
/** The address column of a hosts line (IPv4 or IPv6). */
const ADDRESS = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)$/i
const BARE_IPV6 = /^[0-9a-f]*:[0-9a-f:.]*$/

/**
 * A host as URLs spell it (lowercase, punycode, no trailing dot; a leading `*.` dropped), or
 * undefined when `raw` names no host.
 */
export function normalizeHost(raw: string): string | undefined {
  let h = raw.trim().toLowerCase()
  // A URL (OpenPhish's feed is one a line): its host, never its scheme.
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(h)) h = hostOfUrl(h) ?? ''
  h = h.replace(/\.$/, '')
  if (h.startsWith('*.')) h = h.slice(2)
  if (h === '' || h.length > 253 || LOCAL_NAMES.has(h)) return undefined
  if (PLAIN_HOST.test(h)) return h
  // A bare IPv6 address, bracketed as URLs carry it.
  if (BARE_IPV6.test(h)) h = `[${h}]`
  try {
    // Unicode names (IDN) in the punycode URLs carry.
    const parsed = new URL(`http://${h}/`).hostname.replace(/\.$/, '')
    return parsed !== '' && (PLAIN_HOST.test(parsed) || parsed.startsWith('[')) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** The host of a URL, or undefined. */
export function hostOfUrl(url: string): string | undefined {
  try {
    const h = new URL(url).hostname.replace(/\.$/, '')
    return h === '' ? undefined : h
  } catch {
    return undefined
  }
}

/**
 * The hosts a list entry may name to block `host`: the host itself and each parent domain
 * (evil.example.com: itself, example.com, com); an IP address only itself.
 */
export function candidateHosts(host: string): string[] {
  if (IPV4.test(host) || host.startsWith('[')) return [host]
  const labels = host.split('.')
  return labels.map((_, i) => labels.slice(i).join('.'))
}

/** The fields of one CSV line (RFC 4180 quotes; no field spans lines in URLhaus' files). */
function csvFields(line: string): string[] {
  const out: string[] = []
  let i = 0
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = ''
      i++
      for (;;) {
        const q = line.indexOf('"', i)
        if (q < 0) return [...out, v + line.slice(i)]
        v += line.slice(i, q)
        if (line[q + 1] === '"') {
          v += '"'
          i = q + 2
        } else {
          i = q + 1
          break
        }
      }
      out.push(v)
      const comma = line.indexOf(',', i)
      if (comma < 0) return out
      i = comma + 1
    } else {
      const comma = line.indexOf(',', i)
      if (comma < 0) return [...out, line.slice(i)]
      out.push(line.slice(i, comma))
      i = comma + 1
    }
  }
  return out
}

/** The format of a file whose first meaningful line is `line` (URLhaus: a record or its header). */
export function guessFormat(line: string): SafetyFormat {
  const t = line.trim()
  if (t.startsWith('"') || /^\d+,/.test(t) || /^id,dateadded,url\b/i.test(t)) return 'urlhaus'
  const [first, second] = t.split(/\s+/)
  if (second !== undefined && first !== undefined && ADDRESS.test(first)) return 'hosts'
  return 'domains'
}

/** The hosts of one line in `format` (none for a line without one); `bad` when it held text but no host. */
function hostsOfLine(line: string, format: SafetyFormat): { hosts: string[]; bad: boolean } {
  if (format === 'urlhaus') {
    // id, dateadded, url, url_status, …; a header line ("id", …) names no URL.
    const url = csvFields(line)[2]
    const host = url === undefined ? undefined : hostOfUrl(url)
    const ok = host === undefined ? undefined : normalizeHost(host)
    return ok ? { hosts: [ok], bad: false } : { hosts: [], bad: !/^"?id"?,/.test(line) }
  }
  const tokens = line.split(/\s+/).filter((t) => t !== '')
  const names = format === 'hosts' ? tokens.slice(1) : tokens.slice(0, 1)
  if (format === 'hosts' && !ADDRESS.test(tokens[0] ?? '')) return { hosts: [], bad: true }
  const hosts: string[] = []
  let bad = false
  for (const n of names) {
    const h = normalizeHost(n)
    if (h !== undefined) hosts.push(h)
    else if (!LOCAL_NAMES.has(n.toLowerCase())) bad = true
  }
  return { hosts, bad: bad && hosts.length === 0 }
}

export interface ParsedFeed {
  format: SafetyFormat
  /** Lines with text but no host. */
  skipped: number
}

/**
 * Reads `input` line by line and hands its hosts to `take` in batches of `batch` (awaited: a
 * slow database slows the read, so at most one batch is held). Comments (`#`, `!`) and blank
 * lines are skipped silently; a hosts line may name several hosts. `format` undefined: guessed
 * from the first line that is not a comment.
 */
export async function readFeed(
  input: Readable,
  format: SafetyFormat | undefined,
  take: (hosts: string[]) => Promise<void>,
  batch = 10_000,
): Promise<ParsedFeed> {
  const lines = createInterface({ input, crlfDelay: Infinity })
  let fmt = format
  let skipped = 0
  let pending: string[] = []
  try {
    for await (const raw of lines) {
      if (raw.length > SAFETY_LIMITS.lineMax) {
        skipped++
        continue
      }
      const trimmed = raw.trim()
      if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('!')) continue
      fmt ??= guessFormat(trimmed)
      // A URL may hold a '#': only hosts and domains lines end at one.
      const line = fmt === 'urlhaus' ? trimmed : trimmed.replace(/#.*$/, '').trim()
      if (line === '') continue
      const { hosts, bad } = hostsOfLine(line, fmt)
      if (bad) skipped++
      for (const h of hosts) pending.push(h)
      if (pending.length >= batch) {
        const full = pending
        pending = []
        await take(full)
      }
    }
    if (pending.length > 0) await take(pending)
  } finally {
    // readline leaves its input open when reading stops early (a batch refused): a later error of
    // that input (the rest of a bad gzip body) would then have no listener and stop the process.
    input.destroy()
  }
  return { format: fmt ?? 'domains', skipped }
}
