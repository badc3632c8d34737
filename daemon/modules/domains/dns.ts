import { Resolver } from 'node:dns/promises'
import { isIP } from 'node:net'

/**
 * DNS ownership proof of custom domains: which records a domain needs (contract "Custom
 * domains") and checking them against every configured resolver (LINKD_DNS_RESOLVERS).
 */

export type DnsRecordType = 'TXT' | 'CNAME' | 'A'
export type RecordStatus = 'Verified' | 'Pending' | 'Failed'

export interface ExpectedRecord {
  type: DnsRecordType
  /** Fully qualified name, lowercase, no trailing dot. */
  name: string
  value: string
}

/** What one resolver said about one record. */
export interface ResolverAnswer {
  resolver: string
  status: RecordStatus
  /** Values found (lowercased names for CNAME). */
  found: string[]
  /** false when the resolver could not be reached (no answer in time, connection refused). */
  reachable: boolean
  /** Why the answer is inconclusive (the DNS error code: ETIMEOUT, ECONNREFUSED, ESERVFAIL, …). */
  error?: string
}

export interface RecordCheck extends ExpectedRecord {
  /** Verified when every resolver has it, Failed when none has it right, else Pending. */
  status: RecordStatus
  resolvers: ResolverAnswer[]
}

/** Prefix of the TXT challenge name: `_linkd-challenge.<domain>`. */
export const CHALLENGE_PREFIX = '_linkd-challenge'

/**
 * Second-level public suffixes under which a three-label name is still a registrable (apex)
 * domain. Not the full public suffix list: the common ones; others count as subdomains.
 */
const TWO_PART_SUFFIXES = new Set([
  'co.uk',
  'org.uk',
  'me.uk',
  'ltd.uk',
  'ac.uk',
  'gov.uk',
  'com.au',
  'net.au',
  'org.au',
  'co.nz',
  'org.nz',
  'co.jp',
  'ne.jp',
  'or.jp',
  'com.br',
  'net.br',
  'com.cn',
  'com.mx',
  'com.ar',
  'com.tr',
  'co.in',
  'co.za',
  'co.kr',
  'com.sg',
  'com.hk',
  'com.tw',
])

/** Whether a (valid, lowercase) domain is an apex domain: it needs an A record, not a CNAME. */
export function isApex(domain: string): boolean {
  const labels = domain.split('.')
  if (labels.length <= 2) return true
  return labels.length === 3 && TWO_PART_SUFFIXES.has(labels.slice(1).join('.'))
}

/** The records a domain needs: the TXT challenge, then CNAME (subdomain) or A (apex). */
export function expectedRecords(
  domain: string,
  token: string,
  targets: { cnameTarget: string; aRecordIp: string | undefined },
): ExpectedRecord[] {
  const txt: ExpectedRecord = { type: 'TXT', name: `${CHALLENGE_PREFIX}.${domain}`, value: token }
  if (isApex(domain)) return [txt, { type: 'A', name: domain, value: targets.aRecordIp ?? '' }]
  return [txt, { type: 'CNAME', name: domain, value: targets.cnameTarget }]
}

/** A host DNS records cannot usefully point at: an IP address, loopback, localhost. */
function unusableHost(host: string): string | undefined {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (bare === 'localhost' || bare.endsWith('.localhost')) return 'is localhost'
  if (isIP(bare)) return 'is an IP address'
  return undefined
}

function loopbackIp(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1' || ip === '0.0.0.0'
}

/**
 * Why the records of `domain` cannot work in this set-up, naming the setting to change: a CNAME
 * target that is an IP address, localhost, or the short domain with a port (DNS has no ports); an
 * apex domain without a usable LINKD_A_RECORD_IP. Empty when the records can work.
 */
export function recordWarnings(
  domain: string,
  targets: { cnameTarget: string; aRecordIp: string | undefined; shortDomain?: string | undefined },
): string[] {
  if (isApex(domain)) {
    const ip = targets.aRecordIp
    if (!ip)
      return [
        "LINKD_A_RECORD_IP is not set: an apex domain needs an A record to this server's public IPv4 address; set LINKD_A_RECORD_IP and restart linkd",
      ]
    if (loopbackIp(ip))
      return [
        `LINKD_A_RECORD_IP is ${ip}, a loopback address: set it to this server's public IPv4 address and restart linkd`,
      ]
    return []
  }
  const target = targets.cnameTarget
  const problem = unusableHost(target)
  const short = targets.shortDomain
  const withPort =
    short !== undefined &&
    /:\d+$/.test(short) &&
    short
      .replace(/:\d+$/, '')
      .replace(/^\[|\]$/g, '')
      .toLowerCase() === target
  if (!problem && !withPort) return []
  const why = problem
    ? `the CNAME target ${target} ${problem}`
    : `the CNAME target ${target} comes from the short domain ${short}, and DNS cannot point at a port`
  return [
    `${why}: no DNS provider can point ${domain} at it. Set LINKD_CNAME_TARGET to a public host name of this server (e.g. links.example.com) and restart linkd`,
  ]
}

/** Parses LINKD_DNS_RESOLVERS (`ip[:port]`, comma separated; IPv6 with a port as `[ip]:port`). */
export function parseResolvers(list: string): string[] {
  const out = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const r of out) {
    const v6 = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(r)
    const v4 = /^([^:]+)(?::(\d{1,5}))?$/.exec(r)
    const ip = v6?.[1] ?? (isIP(r) === 6 ? r : v4?.[1])
    const port = v6 ? v6[2] : isIP(r) === 6 ? undefined : v4?.[2]
    if (!ip || !isIP(ip) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535)))
      throw new Error(`not a resolver address (ip[:port]): ${r}`)
  }
  if (!out.length) throw new Error('at least one DNS resolver is needed')
  return out
}

const norm = (name: string) => name.toLowerCase().replace(/\.$/, '')

/** DNS answers meaning "this record does not exist" (as opposed to a resolver problem). */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA'])
/** DNS errors meaning the resolver itself was not reached (as opposed to it answering an error). */
const UNREACHED = new Set(['ETIMEOUT', 'ECONNREFUSED'])

async function lookup(resolver: Resolver, record: ExpectedRecord): Promise<string[]> {
  switch (record.type) {
    case 'TXT':
      return (await resolver.resolveTxt(record.name)).map((chunks) => chunks.join(''))
    case 'CNAME':
      return (await resolver.resolveCname(record.name)).map(norm)
    case 'A':
      return await resolver.resolve4(record.name)
  }
}

function combine(answers: ResolverAnswer[]): RecordStatus {
  if (answers.every((a) => a.status === 'Verified')) return 'Verified'
  if (answers.every((a) => a.status === 'Failed')) return 'Failed'
  return 'Pending'
}

export interface DnsChecker {
  resolvers: readonly string[]
  /** Asks every resolver for every record (all in parallel). */
  check(records: readonly ExpectedRecord[]): Promise<RecordCheck[]>
}

export function createDnsChecker(opts: { resolvers: string[]; timeoutMs?: number }): DnsChecker {
  const resolvers = opts.resolvers.map((server) => {
    const r = new Resolver({ timeout: opts.timeoutMs ?? 2000, tries: 2 })
    r.setServers([server])
    return { server, r }
  })

  async function ask(server: string, r: Resolver, record: ExpectedRecord): Promise<ResolverAnswer> {
    try {
      const found = await lookup(r, record)
      const want = record.type === 'TXT' ? record.value : norm(record.value)
      const status = found.includes(want) ? 'Verified' : 'Failed'
      return { resolver: server, status, found, reachable: true }
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'ERROR'
      if (ABSENT.has(code)) return { resolver: server, status: 'Failed', found: [], reachable: true }
      return { resolver: server, status: 'Pending', found: [], reachable: !UNREACHED.has(code), error: code }
    }
  }

  return {
    resolvers: resolvers.map((r) => r.server),
    async check(records) {
      return Promise.all(
        records.map(async (record) => {
          const answers = await Promise.all(resolvers.map(({ server, r }) => ask(server, r, record)))
          return { ...record, status: combine(answers), resolvers: answers }
        }),
      )
    },
  }
}
