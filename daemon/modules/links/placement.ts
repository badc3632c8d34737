/**
 * Where a link lives and where it may point: the domain a new link goes on (a verified custom
 * domain or the shared short domain), the short URL on that domain, and the destination rules
 * that keep a link off this service's own short domains.
 */
import { DAY_MS } from '../../clock.js'
import { isUniqueViolation } from '../../db/errors.js'
import { AppError, validation } from '../../http/errors.js'
import type { CreateLinkBody } from '../../../src/contract/links.js'
import { LINK_LIMITS } from '../../../src/contract/limits.js'
import { plural } from '../../../src/contract/numbers.js'
import { checkDestination } from '../../urls.js'
import { codeTaken } from './codes.js'
import { ownHostOf, SHARED_DOMAIN_KEY, splitHostPort } from './rules.js'
import type { LinkPatch, LinkRecord } from './records.js'
import type { LinkServiceDeps } from './api.js'

/** QR codes of a short URL named in a refusal at most (the count says how many there are). */
const QR_CODES_NAMED = 5

export function createLinkPlacement(
  deps: Pick<LinkServiceDeps, 'publicUrl' | 'ownHosts' | 'domains' | 'clock' | 'shortUrlUse'> & {
    store: Pick<LinkServiceDeps['store'], 'takenCodes' | 'update'>
  },
) {
  const own = {
    shared: (deps.ownHosts ?? [new URL(deps.publicUrl).host]).map(splitHostPort),
    isCustomDomain: (host: string) => deps.domains?.knowsHost(host) ?? false,
  }

  /**
   * checkDestination, and never one of this service's short domains (a loop or a chain); the URL as
   * stored (a URI reference: checkDestination).
   */
  function destination(value: string, field = 'destinationUrl'): string {
    const stored = checkDestination(value, field)
    const host = ownHostOf(value, own)
    if (host !== undefined)
      throw validation(
        field,
        `must not point at ${host}, a short domain of this service: a short link to a short link would loop or chain`,
      )
    return stored
  }

  /**
   * The domain a new link lives on: the verified custom domain named by customDomainId or
   * domain, else the organization's default custom domain, else the shared short domain. The
   * domain key of a custom domain is its id.
   */
  async function linkDomain(
    organizationId: string,
    body: Pick<CreateLinkBody, 'customDomainId' | 'domain'>,
  ): Promise<{ domainKey: string; customDomainId: string | null }> {
    if (!deps.domains) {
      if (body.customDomainId === undefined || body.customDomainId === null)
        return { domainKey: SHARED_DOMAIN_KEY, customDomainId: null }
      throw new AppError('Unprocessable', `custom domain ${body.customDomainId} not found or not verified`, [
        { field: 'customDomainId', message: 'not found or not verified' },
      ])
    }
    const d = await deps.domains.forLink(organizationId, body)
    return d
      ? { domainKey: d.id, customDomainId: d.id }
      : { domainKey: SHARED_DOMAIN_KEY, customDomainId: null }
  }

  /**
   * Base URL of short links on a domain: the public URL for the shared domain, https://<domain>
   * for a custom domain (HTTP to it is redirected to HTTPS once its certificate is active).
   */
  function baseUrl(domainKey: string): string {
    if (domainKey === SHARED_DOMAIN_KEY) return deps.publicUrl
    const host = deps.domains?.hostOf(domainKey)
    return host ? `https://${host}` : deps.publicUrl
  }
  const shortUrlOf = (l: Pick<LinkRecord, 'domainKey' | 'shortCode'>) =>
    `${baseUrl(l.domainKey)}/${l.shortCode}`

  /**
   * 409 while the current short URL is in use and the PATCH does not say `force`: QR codes print
   * it (the link's own QR image included, once fetched) and clicks in the last inUseDays days show
   * people follow it; after a move it answers 404 (no alias is kept), so the refusal names them.
   */
  async function refuseWhileInUse(
    organizationId: string,
    l: Pick<LinkRecord, 'id' | 'kind' | 'domainKey' | 'shortCode' | 'qrCreatedAt'>,
  ): Promise<void> {
    const use = deps.shortUrlUse
    const since = deps.clock.now() - LINK_LIMITS.inUseDays * DAY_MS
    const [codes, clicks] = use
      ? await Promise.all([
          use.qrCodes(organizationId, { id: l.id, kind: l.kind }),
          use.clicksSince(l.id, since),
        ])
      : [{ total: 0, first: [] }, 0]
    const named = codes.first.slice(0, QR_CODES_NAMED).map((q) => (q.title ? `"${q.title}" ${q.id}` : q.id))
    if (l.qrCreatedAt !== null) named.unshift("the link's own QR image")
    const total = codes.total + (l.qrCreatedAt !== null ? 1 : 0)
    if (total === 0 && clicks === 0) return
    const more = total - named.length
    const uses = [
      ...(total > 0
        ? [`${plural(total, 'QR code')} (${named.join(', ')}${more > 0 ? `, ${more} more` : ''})`]
        : []),
      ...(clicks > 0 ? [`${plural(clicks, 'click')} in the last ${LINK_LIMITS.inUseDays} days`] : []),
    ]
    throw new AppError(
      'Conflict',
      `${shortUrlOf(l)} is in use: ${uses.join(' and ')}; after the change it would answer 404`,
      [{ field: 'force', message: 'true changes it anyway' }],
    )
  }

  /**
   * The new domain and short code when a PATCH moves a link or smart link (shortCode and/or
   * customDomainId), checked free on the target domain (the shared namespace: 409), and refused
   * while the current short URL is in use unless `force` (409). The caller has checked the code
   * (checkSlug) with the body's other fields.
   */
  async function newPlace(
    organizationId: string,
    l: Pick<LinkRecord, 'id' | 'kind' | 'domainKey' | 'customDomainId' | 'shortCode' | 'qrCreatedAt'>,
    body: {
      shortCode?: string | undefined
      customDomainId?: string | null | undefined
      force?: boolean | undefined
    },
  ): Promise<LinkPatch['place']> {
    if (body.shortCode === undefined && body.customDomainId === undefined) return undefined
    const domain =
      body.customDomainId === undefined
        ? { domainKey: l.domainKey, customDomainId: l.customDomainId }
        : body.customDomainId === null
          ? { domainKey: SHARED_DOMAIN_KEY, customDomainId: null }
          : await linkDomain(organizationId, { customDomainId: body.customDomainId })
    const shortCode = body.shortCode ?? l.shortCode
    if (domain.domainKey === l.domainKey && shortCode === l.shortCode) return undefined
    if ((await deps.store.takenCodes(domain.domainKey, [shortCode])).size) throw codeTaken(shortCode)
    if (body.force !== true) await refuseWhileInUse(organizationId, l)
    return { ...domain, shortCode }
  }

  /** Writes a PATCH; a place another writer took between newPlace's check and the write is 409. */
  async function writePatch(id: string, patch: LinkPatch): Promise<void> {
    try {
      await deps.store.update(id, patch)
    } catch (err) {
      if (patch.place && isUniqueViolation(err)) throw codeTaken(patch.place.shortCode)
      throw err
    }
  }

  return { destination, linkDomain, shortUrlOf, newPlace, writePatch }
}
