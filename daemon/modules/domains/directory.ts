import { createSecureContext, type SecureContext } from 'node:tls'
import type { SecretBox } from '../../crypto.js'
import { AppError } from '../../http/errors.js'
import { wellKnownFiles } from './app-links.js'
import type { DomainRecord } from './records.js'
import type { DomainStore } from './store.js'
import type { DomainDirectory, RootOfHost } from './api.js'

interface Entry {
  id: string
  organizationId: string
  host: string
  verified: boolean
  /** A certificate is being served (SSL active or renewing). */
  https: boolean
  rootRedirectUrl: string | null
  rootFlag: { host: string; list: string } | null
  serial: string | null
  /** The app-link files the domain serves, by path. */
  files: Map<string, Buffer>
}

/**
 * The in-memory view of custom domains the hot paths need without a query: which host is which
 * verified domain (redirects), a domain id's host (short URLs), whether HTTP goes to HTTPS, and
 * the TLS context per host (SNI). A cache of the database: reloaded after every change this
 * process makes and periodically (other instances' changes).
 */
export function createDomainDirectory(deps: {
  store: Pick<DomainStore, 'all' | 'byId' | 'byName' | 'defaultOf'>
  secrets: SecretBox
}): DomainDirectory {
  const { store } = deps
  let byId = new Map<string, Entry>()
  let byHost = new Map<string, Entry>()
  let contexts = new Map<string, { serial: string; context: SecureContext }>()

  function serving(r: DomainRecord): boolean {
    return r.sslStatus === 'active' || r.sslStatus === 'renewing'
  }

  return {
    /** Reloads every domain; TLS contexts are rebuilt only for certificates that changed. */
    async refresh(): Promise<void> {
      const rows = await store.all()
      const nextId = new Map<string, Entry>()
      const nextHost = new Map<string, Entry>()
      const nextCtx = new Map<string, { serial: string; context: SecureContext }>()
      for (const r of rows) {
        const e: Entry = {
          id: r.id,
          organizationId: r.organizationId,
          host: r.domain,
          verified: r.verificationStatus === 'verified',
          https: serving(r) && r.certPem !== null,
          rootRedirectUrl: r.rootRedirectUrl,
          rootFlag: r.rootFlag && { host: r.rootFlag.host, list: r.rootFlag.list },
          serial: r.certSerial,
          files: wellKnownFiles(r.appLinks),
        }
        nextId.set(r.id, e)
        // Several organizations may claim a host; the verified one (at most one) is the host's.
        if (e.verified || !nextHost.has(r.domain)) nextHost.set(r.domain, e)
        if (e.https && r.certPem && r.certKeyEnc && r.certSerial) {
          const known = contexts.get(r.domain)
          if (known && known.serial === r.certSerial) nextCtx.set(r.domain, known)
          else
            nextCtx.set(r.domain, {
              serial: r.certSerial,
              context: createSecureContext({ cert: r.certPem, key: deps.secrets.decrypt(r.certKeyEnc) }),
            })
        }
      }
      byId = nextId
      byHost = nextHost
      contexts = nextCtx
    },

    /** Host of a domain id (links keep their domain id as domain key). */
    hostOf(id: string): string | undefined {
      return byId.get(id)?.host
    },

    /**
     * Whether a host is a custom domain known to linkd, whatever its organization and status
     * (pending ones serve links once verified): links never point at one (redirect loops).
     */
    knowsHost(host: string): boolean {
      return byHost.has(host.toLowerCase())
    },

    /** The domain key (id) of a verified custom domain named by a request's host; else undefined. */
    keyOfHost(host: string): string | undefined {
      const e = byHost.get(host)
      return e?.verified ? e.id : undefined
    },

    /** The organization of a verified custom domain named by a request's host; else undefined. */
    organizationOfHost(host: string): string | undefined {
      const e = byHost.get(host.toLowerCase())
      return e?.verified ? e.organizationId : undefined
    },

    /** Whether plain HTTP requests to this host go to HTTPS (a certificate is served). */
    httpsOnly(host: string): boolean {
      return byHost.get(host)?.https ?? false
    },

    rootRedirectOf(host: string): RootOfHost | undefined {
      const e = byHost.get(host)
      return e?.verified && e.rootRedirectUrl !== null
        ? { url: e.rootRedirectUrl, flag: e.rootFlag }
        : undefined
    },

    appLinkFile(host: string, path: string): Buffer | undefined {
      const e = byHost.get(host)
      return e?.verified ? e.files.get(path) : undefined
    },

    /** TLS context of a host for SNI (only domains with an active certificate). */
    context(servername: string): SecureContext | undefined {
      return contexts.get(servername.toLowerCase())?.context
    },

    /**
     * The domain a new link goes on: the verified domain named by id or name (422 when it is not
     * one of the organization's verified domains), else the organization's default, else shared.
     */
    async forLink(
      organizationId: string,
      ref: { customDomainId?: string | null | undefined; domain?: string | undefined },
    ): Promise<DomainRecord | undefined> {
      const named = ref.customDomainId ?? ref.domain
      if (named === undefined || named === null) {
        const d = await store.defaultOf(organizationId)
        return d?.verificationStatus === 'verified' ? d : undefined
      }
      const field = ref.customDomainId ? 'customDomainId' : 'domain'
      const d = ref.customDomainId
        ? await store.byId(organizationId, ref.customDomainId)
        : await store.byName(organizationId, ref.domain!.trim().toLowerCase())
      if (!d || d.verificationStatus !== 'verified')
        throw new AppError('Unprocessable', `custom domain ${named} not found or not verified`, [
          { field, message: 'not found or not verified' },
        ])
      if (ref.customDomainId && ref.domain && ref.domain.trim().toLowerCase() !== d.domain)
        throw new AppError('Unprocessable', `customDomainId ${d.id} is ${d.domain}, not ${ref.domain}`, [
          { field: 'domain', message: 'does not match customDomainId' },
        ])
      return d
    },
  }
}
