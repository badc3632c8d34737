import { Resolver as DnsResolver } from 'node:dns/promises'
import { VERIFICATION_FILE_PREFIX, type VerificationFile } from '../../../src/contract/domains.js'
import { DOMAIN_LIMITS } from '../../../src/contract/limits.js'
import {
  isFetchTimeout,
  pinnedLookup,
  SsrfError,
  vetTarget,
  type GuardPolicy,
  type Resolver,
} from '../webhooks/index.js'
import type { RecordStatus } from './dns.js'

/**
 * File verification of custom domains (decision domain-file-verification): the owner publishes
 * the challenge value at `http://<domain>/.well-known/linkd-verification/<token>`; linkd fetches
 * it under the webhooks' SSRF guard (addresses resolved by LINKD_DNS_RESOLVERS, the connection
 * pinned to the vetted one), plain HTTP, no redirect followed, a short timeout, a small body.
 */

/** The last file check, stored with the domain. */
export interface FileCheck {
  status: RecordStatus
  reason: string | null
}

/** What to publish: the path carries the token, the body is the challenge value (`linkd-verify=<token>`). */
export function verificationFile(
  domain: string,
  challengeToken: string,
  last: FileCheck | null,
): VerificationFile {
  const path = `${VERIFICATION_FILE_PREFIX}${challengeToken.replace(/^linkd-verify=/, '')}`
  return {
    url: `http://${domain}${path}`,
    path,
    body: challengeToken,
    status: last?.status ?? 'Pending',
    reason: last?.reason ?? null,
  }
}

/** Addresses of a host from the configured resolvers (A and AAAA), as the DNS checks see it. */
export function resolverOf(servers: string[], timeoutMs = 2000): Resolver {
  const r = new DnsResolver({ timeout: timeoutMs, tries: 2 })
  r.setServers(servers)
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([r.resolve4(host), r.resolve6(host)])
    const out = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ]
    if (out.length === 0 && v4.status === 'rejected') throw v4.reason
    return out
  }
}

export interface FileChecker {
  check(domain: string, challengeToken: string): Promise<FileCheck>
}

export function createFileChecker(opts: {
  guard: GuardPolicy
  resolve: Resolver
  timeoutMs?: number
  /** The port fetched (80; tests serve the file elsewhere on the loopback). */
  port?: number
}): FileChecker {
  const timeoutMs = opts.timeoutMs ?? DOMAIN_LIMITS.fileTimeoutMs
  const max = DOMAIN_LIMITS.fileMaxBytes
  const failed = (reason: string): FileCheck => ({ status: 'Failed', reason })

  return {
    async check(domain, challengeToken) {
      const file = verificationFile(domain, challengeToken, null)
      const url = new URL(opts.port ? `http://${domain}:${opts.port}${file.path}` : file.url)
      let agent: import('undici').Agent | undefined
      try {
        const target = await vetTarget(url, { resolve: opts.resolve, ...opts.guard })
        // undici is loaded on the first check: most daemons never verify a domain by file.
        const { Agent, request } = (await import('undici')).default as unknown as typeof import('undici')
        agent = new Agent({
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          connect: { timeout: timeoutMs, lookup: pinnedLookup(target) },
        })
        const res = await request(url, {
          method: 'GET',
          headers: { 'user-agent': 'linkd-domain-verification', accept: 'text/plain' },
          dispatcher: agent,
          signal: AbortSignal.timeout(timeoutMs),
        })
        if (res.statusCode >= 300 && res.statusCode < 400) {
          await res.body.dump()
          const to = res.headers.location ? ` to ${String(res.headers.location).slice(0, 300)}` : ''
          return failed(
            `${file.url} answered HTTP ${res.statusCode}${to}: redirects are not followed; serve the file at this URL over plain HTTP`,
          )
        }
        if (res.statusCode !== 200) {
          await res.body.dump()
          return failed(`${file.url} answered HTTP ${res.statusCode}, not 200 with the file`)
        }
        const chunks: Buffer[] = []
        let size = 0
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          size += chunk.length
          if (size > max) {
            res.body.destroy()
            return failed(`${file.url} answered more than ${max} bytes: the file holds only ${file.body}`)
          }
          chunks.push(chunk)
        }
        const got = Buffer.concat(chunks).toString('utf8').trim()
        if (got === challengeToken) return { status: 'Verified', reason: null }
        const shown = JSON.stringify(got.length > 80 ? `${got.slice(0, 80)}…` : got)
        return failed(`${file.url} holds ${shown}, not ${file.body}`)
      } catch (err) {
        return failed(describe(err, file.url, timeoutMs))
      } finally {
        void agent?.close().catch(() => {})
      }
    },
  }
}

function describe(err: unknown, url: string, timeoutMs: number): string {
  if (err instanceof SsrfError) return `${url} not fetched: ${err.message}`
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } }
  if (isFetchTimeout(err)) return `${url} did not answer within ${timeoutMs / 1000} s`
  return `${url} could not be fetched: ${e.cause?.code ?? e.code ?? e.name ?? 'error'}`.slice(0, 500)
}
