/** A domain's settings: the default flag, the root redirect and its safety flag, app links, the verification method. */
import type { Clock } from '../../clock.js'
import { AppError, validation } from '../../http/errors.js'
import { checkDestination } from '../../urls.js'
import type { AppLinks, Domain, UpdateDomainBody } from '../../../src/contract/domains.js'
import type { DomainService, RootRedirect } from './api.js'
import { normalizeAppLinks } from './app-links.js'
import type { DomainRecord } from './records.js'
import type { DomainStore } from './store.js'
import { methodFor } from './verification.js'

export interface DomainSettingsDeps {
  store: DomainStore
  clock: Clock
  /**
   * The link destination rules and safety lists for a root redirect (the links service);
   * absent: checkDestination only. Returns the URL as stored.
   */
  checkDestination?(organizationId: string, url: string, field: string): Promise<string>
  /** The organization's domain; 404 otherwise. */
  load(organizationId: string, id: string): Promise<DomainRecord>
  /** The directory changed: refresh it and tell the other processes. */
  changed(): Promise<void>
  present(d: DomainRecord): Domain
}

export type DomainSettings = Pick<
  DomainService,
  'setDefault' | 'update' | 'rootRedirects' | 'setRootRedirectFlag' | 'appLinks' | 'setAppLinks'
>

export function createDomainSettings(deps: DomainSettingsDeps): DomainSettings {
  const { store, load, changed, present } = deps
  const now = () => deps.clock.now()

  /**
   * A destination like a link's (the same rules and safety lists), and never the domain itself:
   * its root would redirect to itself. The URL as stored.
   */
  async function checkRootRedirect(organizationId: string, domain: string, url: string): Promise<string> {
    const field = 'rootRedirectUrl'
    const stored = checkDestination(url, field)
    if (new URL(url).hostname.replace(/\.$/, '') === domain)
      throw validation(field, `points at ${domain} itself: its root would redirect to itself`)
    return deps.checkDestination ? deps.checkDestination(organizationId, stored, field) : stored
  }

  const notVerified = (d: DomainRecord) =>
    new AppError(
      'Unprocessable',
      `domain ${d.domain} is not verified; verify it before making it the default`,
    )

  return {
    async setDefault(organizationId: string, id: string): Promise<Domain> {
      const d = await load(organizationId, id)
      if (d.verificationStatus !== 'verified') throw notVerified(d)
      await store.setDefault(organizationId, d.id, now())
      await changed()
      return present(await load(organizationId, id))
    },

    async update(organizationId: string, id: string, body: UpdateDomainBody): Promise<Domain> {
      const d = await load(organizationId, id)
      // Checked before any change is written: a refused PATCH changes nothing.
      const rootRedirectUrl = body.rootRedirectUrl
        ? await checkRootRedirect(organizationId, d.domain, body.rootRedirectUrl)
        : body.rootRedirectUrl
      const method =
        body.verificationMethod === undefined || body.verificationMethod === d.verificationMethod
          ? undefined
          : methodFor(d.domain, body.verificationMethod)
      if (method && d.verificationStatus === 'verified')
        throw new AppError(
          'Unprocessable',
          `domain ${d.domain} is already verified; its verification method no longer changes`,
          [{ field: 'verificationMethod', message: 'the domain is already verified' }],
        )
      if (body.isDefault === true && !d.isDefault) {
        if (d.verificationStatus !== 'verified') throw notVerified(d)
        await store.setDefault(organizationId, d.id, now())
      } else if (body.isDefault === false && d.isDefault) await store.setDefault(organizationId, null, now())
      // Checked above against the safety lists: a new root redirect (or none) is not flagged.
      if (rootRedirectUrl !== undefined)
        await store.update(d.id, { rootRedirectUrl, rootFlag: null, updatedAt: now() })
      if (method)
        // The other method's last checks say nothing about this one.
        await store.update(d.id, {
          verificationMethod: method,
          recordChecks: null,
          fileCheck: null,
          updatedAt: now(),
        })
      await changed()
      return present(await load(organizationId, id))
    },

    async rootRedirects(organizationId?: string): Promise<RootRedirect[]> {
      return (await store.rootRedirects(organizationId)).map((d) => ({
        id: d.id,
        organizationId: d.organizationId,
        url: d.rootRedirectUrl!,
        flag: d.rootFlag && { host: d.rootFlag.host, list: d.rootFlag.list },
      }))
    },

    async setRootRedirectFlag(root: RootRedirect, flag: { host: string; list: string } | null) {
      if (!(await store.setRootFlag(root.id, root.url, flag && { ...flag, at: now() }))) return false
      await changed()
      return true
    },

    async appLinks(organizationId: string, id: string): Promise<AppLinks> {
      return (await load(organizationId, id)).appLinks ?? { ios: null, android: null }
    },

    async setAppLinks(organizationId: string, id: string, body: AppLinks): Promise<AppLinks> {
      const d = await load(organizationId, id)
      const appLinks = normalizeAppLinks(body)
      const stored = appLinks.ios || appLinks.android ? appLinks : null
      await store.update(d.id, { appLinks: stored, updatedAt: now() })
      await changed()
      return appLinks
    },
  }
}
