/**
 * Custom domains: adding (claims), reading, verifying, deleting. A domain's settings are in
 * settings.ts, the jobs' upkeep in upkeep.ts.
 */
import type { Clock } from '../../clock.js'
import { DAY_MS, iso, isoOrNull } from '../../clock.js'
import { newId, type SecretBox } from '../../crypto.js'
import type { EventBus } from '../../events.js'
import { AppError, notFound } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { PageOf } from '../../../src/contract/common.js'
import type {
  AddDomainBody,
  Domain,
  DomainStats,
  ListDomainsQuery,
  Propagation,
  SslDetails,
} from '../../../src/contract/domains.js'
import { DOMAINS_PER_PLAN, DOMAIN_LIMITS, type Plan } from '../../../src/contract/limits.js'
import type { OrgService } from '../orgs/index.js'
import type { Acme } from './acme.js'
import type { DomainDirectory, DomainService } from './api.js'
import { createDnsChecker, expectedRecords, isApex } from './dns.js'
import { checkDomainName } from './rules.js'
import type { DomainRecord } from './records.js'
import type { DomainStore } from './store.js'
import { isUniqueViolation } from '../../db/errors.js'
import { createCertificateOrders } from './certificates.js'
import type { GuardPolicy } from '../webhooks/index.js'
import { createFileChecker, resolverOf } from './file.js'
import { alreadyAdded, claimTokens, heldUnverified, verifiedElsewhere } from './claims.js'
import { announceDeleted, presentDomain } from './present.js'
import { createDomainSettings, type DomainSettingsDeps } from './settings.js'
import { createDomainUpkeep } from './upkeep.js'
import { createVerification, methodFor } from './verification.js'

export interface DomainServiceDeps {
  store: DomainStore
  clock: Clock
  events: EventBus
  orgs: Pick<OrgService, 'get'>
  secrets: SecretBox
  /** Derives the organizations' claim tokens of hosts (claims.ts). */
  masterKey: Buffer
  directory: DomainDirectory
  /** Moves an organization's links off a domain being deleted (the links service). */
  detachLinks(domainId: string): Promise<number>
  /** Clicks of the organization's links on custom domains (the links service). */
  customDomainClicks(organizationId: string): Promise<number>
  /** A root redirect's destination check (settings.ts). */
  checkDestination?: DomainSettingsDeps['checkDestination']
  resolvers: string[]
  cnameTarget: string
  aRecordIp: string | undefined
  /** The shared short domain (`host[:port]`): a port in it makes the derived CNAME target unusable. */
  shortDomain?: string | undefined
  /** Hosts that are the service's own (the shared short domain): never a custom domain. */
  ownHosts: string[]
  /** ACME, or undefined when certificates are off (LINKD_ACME_DIRECTORY=off). */
  acme: Acme | undefined
  dnsTimeoutMs?: number
  /** The SSRF guard of file verification: the webhooks' (LINKD_WEBHOOK_ALLOW_*). */
  guard: GuardPolicy
  /** File verification fetches port 80; tests pass the port of their loopback server. */
  filePort?: number | undefined
  fileTimeoutMs?: number | undefined
  onError?(err: unknown, what: string): void
  /** The directory changed here: tells the other linkd processes (db/notify.ts). */
  announce?(): void
}

export function createDomainService(deps: DomainServiceDeps): DomainService {
  const { store } = deps
  const dns = createDnsChecker({
    resolvers: deps.resolvers,
    ...(deps.dnsTimeoutMs ? { timeoutMs: deps.dnsTimeoutMs } : {}),
  })
  const now = () => deps.clock.now()
  const claimToken = claimTokens(deps.masterKey)
  const targets = { cnameTarget: deps.cnameTarget, aRecordIp: deps.aRecordIp }
  const orders = createCertificateOrders({ ...deps, changed })
  const files = createFileChecker({
    guard: deps.guard,
    resolve: resolverOf(deps.resolvers, deps.dnsTimeoutMs),
    ...(deps.filePort ? { port: deps.filePort } : {}),
    ...(deps.fileTimeoutMs ? { timeoutMs: deps.fileTimeoutMs } : {}),
  })
  const { provision } = orders
  const { check, attempt } = createVerification({ ...deps, dns, files, targets, changed, provision })
  const present = (d: DomainRecord) => presentDomain(d, { targets, shortDomain: deps.shortDomain })

  async function load(organizationId: string, id: string): Promise<DomainRecord> {
    const d = await store.byId(organizationId, id)
    if (!d) throw notFound(`domain ${id}`)
    return d
  }

  async function changed(): Promise<void> {
    await deps.directory.refresh()
    deps.announce?.()
  }

  return {
    ...createDomainSettings({ ...deps, load, changed, present }),
    ...createDomainUpkeep({ ...deps, attempt, provision, running: orders.running, changed }),

    async add(organizationId: string, body: AddDomainBody): Promise<Domain> {
      const domain = checkDomainName(body.domain)
      const own = deps.ownHosts.map((h) => h.replace(/:\d+$/, '').toLowerCase())
      if (own.includes(domain) || domain === deps.cnameTarget)
        throw new AppError('Unprocessable', `${domain} is this service's own domain`, [
          { field: 'domain', message: "is the service's own domain" },
        ])
      const apex = isApex(domain)
      if (apex && !deps.aRecordIp)
        throw new AppError(
          'Unprocessable',
          `${domain} is an apex domain, which needs an A record, but this server has no LINKD_A_RECORD_IP; use a subdomain (CNAME) such as go.${domain}`,
          [{ field: 'domain', message: 'apex domains need LINKD_A_RECORD_IP on the server' }],
        )
      const org = await deps.orgs.get(organizationId)
      const max = DOMAINS_PER_PLAN[org.plan as Plan]
      if (max !== null && max !== undefined && (await store.count(organizationId)) >= max)
        throw new AppError(
          'Forbidden',
          max === 0
            ? `the ${org.plan} plan does not include custom domains; upgrade the plan`
            : `the ${org.plan} plan allows ${max} custom domain${max === 1 ? '' : 's'}; delete one or upgrade the plan`,
        )
      const verificationMethod = methodFor(domain, body.verificationMethod)
      const claims = await store.byHost(domain)
      if (claims.some((c) => c.organizationId === organizationId)) throw alreadyAdded(domain)
      const others = claims.filter((c) => c.organizationId !== organizationId)
      if (others.some((c) => c.verificationStatus === 'verified')) throw verifiedElsewhere(domain)
      const token = claimToken(organizationId, domain)
      // Another organization's unverified claim gives way only to proof of control: this
      // organization's claim token in the TXT challenge record, on every resolver.
      if (others.length) {
        const [txt] = await dns.check(expectedRecords(domain, token, targets).filter((r) => r.type === 'TXT'))
        if (txt!.status !== 'Verified') throw heldUnverified(domain, txt!)
      }
      const t = now()
      const record: DomainRecord = {
        id: newId('dom'),
        organizationId,
        domain,
        verificationStatus: 'pending',
        verificationMethod,
        challengeToken: token,
        recordChecks: null,
        fileCheck: null,
        lastCheckedAt: null,
        verifiedAt: null,
        isDefault: false,
        rootRedirectUrl: null,
        rootFlag: null,
        sslStatus: null,
        sslError: null,
        certPem: null,
        certKeyEnc: null,
        certIssuer: null,
        certSerial: null,
        certNotBefore: null,
        sslExpiresAt: null,
        sslRenewedAt: null,
        appLinks: null,
        claimLostAt: null,
        createdAt: t,
        updatedAt: t,
      }
      let gone: DomainRecord[] = []
      try {
        if (others.length) {
          const replaced = await store.replaceClaims(record)
          if (!replaced) throw verifiedElsewhere(domain)
          gone = replaced
        } else await store.insert(record)
      } catch (err) {
        if (isUniqueViolation(err)) throw alreadyAdded(domain)
        throw err
      }
      await changed()
      // The organizations whose claims gave way learn it from domain.deleted.
      announceDeleted(deps.events, gone, t, 'taken_over')
      const out = present(record)
      deps.events.emit(
        'domain.created',
        {
          organizationId,
          data: {
            id: out.id,
            domain,
            verificationStatus: 'pending',
            dnsRecords: out.dnsRecords,
            createdAt: out.createdAt,
          },
        },
        t,
      )
      return out
    },

    async list(organizationId: string, q: ListDomainsQuery): Promise<PageOf<Domain>> {
      const p = pageParams(q)
      const { rows, total } = await store.list(organizationId, {
        verificationStatus: q.verificationStatus,
        limit: p.perPage,
        offset: p.offset,
      })
      return pageOf(rows.map(present), total, p)
    },

    async stats(organizationId: string): Promise<DomainStats> {
      const all = (await store.list(organizationId, { limit: 1_000_000, offset: 0 })).rows
      const serving = (d: DomainRecord) => d.sslStatus === 'active' || d.sslStatus === 'renewing'
      return {
        totalDomains: all.length,
        activeDomains: all.filter((d) => d.verificationStatus === 'verified' && d.sslStatus === 'active')
          .length,
        totalClicks: await deps.customDomainClicks(organizationId),
        domainsWithSsl: all.filter(serving).length,
      }
    },

    async get(organizationId: string, id: string): Promise<Domain> {
      return present(await load(organizationId, id))
    },

    async verify(organizationId: string, id: string): Promise<Domain> {
      return present(await attempt(await load(organizationId, id), true))
    },

    async checkPropagation(organizationId: string, id: string): Promise<Propagation> {
      const d = await load(organizationId, id)
      const { checks, status } = await check(d)
      const t = now()
      await store.update(d.id, { recordChecks: checks, lastCheckedAt: t, updatedAt: t })
      return {
        domain: d.domain,
        propagated: status === 'Verified',
        checkedAt: iso(t),
        resolvers: [...dns.resolvers],
        records: checks.map((c) => ({
          type: c.type,
          name: c.name,
          value: c.value,
          status: c.status,
          resolvers: c.resolvers,
        })),
      }
    },

    async ssl(organizationId: string, id: string): Promise<SslDetails> {
      const d = await load(organizationId, id)
      const t = now()
      const renewAt = d.sslExpiresAt === null ? null : d.sslExpiresAt - DOMAIN_LIMITS.renewBeforeMs
      return {
        domainId: d.id,
        domain: d.domain,
        sslStatus: d.sslStatus,
        issuer: d.certIssuer,
        serialNumber: d.certSerial,
        validFrom: isoOrNull(d.certNotBefore),
        validTo: isoOrNull(d.sslExpiresAt),
        daysRemaining: d.sslExpiresAt === null ? null : Math.floor((d.sslExpiresAt - t) / DAY_MS),
        // The daily job renews from 30 days before expiry; a due renewal is the next run.
        nextRenewalAt: renewAt === null ? null : iso(Math.max(renewAt, t)),
        renewedAt: isoOrNull(d.sslRenewedAt),
        error: d.sslError,
      }
    },

    async delete(organizationId: string, id: string): Promise<void> {
      const d = await load(organizationId, id)
      if (d.isDefault)
        throw new AppError(
          'Unprocessable',
          `domain ${d.domain} is the default domain; set another default (or isDefault false) first`,
        )
      await orders.running(d.id)
      await deps.detachLinks(d.id)
      await store.delete(d.id)
      await changed()
      announceDeleted(deps.events, [d], now(), 'deleted')
    },

    /** Resolves when no certificate order is running (tests, shutdown). */
    certificateExpiries: () => deps.store.certificateExpiries(),
    async settled(): Promise<void> {
      await orders.settled()
    },

    /** The HTTP-01 answer for a token (served at /.well-known/acme-challenge/:token). */
    async challengeResponse(token: string): Promise<string | undefined> {
      return deps.acme?.challengeResponse(token)
    },
  }
}
