/**
 * QR codes as resources: one styled code per flyer or poster, for a link or a smart link. The
 * encoded URL is the link's short URL (as it is now: a new short code or domain is followed)
 * with `?qr=<id>`, so the click recorder can count each code's scans apart.
 */
import { iso, type Clock } from '../../clock.js'
import { newId } from '../../crypto.js'
import type { EventBus } from '../../events.js'
import { AppError, notFound } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import {
  checkLogoDraws,
  publicQrStyle,
  renderQrCode,
  resolveQrStyle,
  type QrImage,
  type StoredQrStyle,
} from '../../qr/index.js'
import type { PageOf } from '../../../src/contract/common.js'
import { QR_LIMITS, QR_MARKER } from '../../../src/contract/limits.js'
import type {
  CreateQrCodeBody,
  ListQrCodesQuery,
  QrCode,
  QrImageQuery,
  QrStyleInput,
  UpdateQrCodeBody,
} from '../../../src/contract/qr-codes.js'
import type { QrCodeRecord, QrCodeStore } from './store.js'

type LinkKind = 'link' | 'smart'

/** What QR codes need of the links module: a link or smart link of the organization (404 otherwise). */
export interface QrLinkLookup {
  owned(organizationId: string, id: string): Promise<{ id: string; kind: LinkKind; shortUrl: string }>
}

export interface QrCodeServiceDeps {
  store: QrCodeStore
  links: QrLinkLookup
  clock: Clock
  events: EventBus
}

const what = (kind: LinkKind) => (kind === 'smart' ? 'smart link' : 'link')

/** The URL a code encodes: the short URL with `?qr=<id>`. */
export const encodedUrlOf = (shortUrl: string, id: string) => `${shortUrl}?${QR_MARKER}=${id}`

const titleOf = (t: string | null | undefined) => (t === undefined ? undefined : t?.trim() || null)

/** `input` over `base`, checked; a new logo is also drawn once, within the renderer's bounds. */
async function styleOf(input: QrStyleInput | undefined, base?: StoredQrStyle): Promise<StoredQrStyle> {
  const style = resolveQrStyle(input, base)
  if (input?.logo) await checkLogoDraws(input.logo)
  return style
}

export function createQrCodeService(deps: QrCodeServiceDeps) {
  const { store } = deps

  /** The link or smart link, of the kind asked for: another kind is as unknown as another organization's. */
  async function linkOf(organizationId: string, id: string, kind: LinkKind) {
    const l = await deps.links.owned(organizationId, id).catch((err: unknown) => {
      throw err instanceof AppError && err.type === 'NotFound' ? notFound(`${what(kind)} ${id}`) : err
    })
    if (l.kind !== kind) throw notFound(`${what(kind)} ${id}`)
    return l
  }

  function present(r: QrCodeRecord, shortUrl: string): QrCode {
    return {
      id: r.id,
      linkId: r.linkKind === 'link' ? r.linkId : null,
      smartLinkId: r.linkKind === 'smart' ? r.linkId : null,
      encodedUrl: encodedUrlOf(shortUrl, r.id),
      title: r.title,
      style: publicQrStyle(r.style),
      scans: r.scans,
      createdAt: iso(r.createdAt),
      updatedAt: iso(r.updatedAt),
    }
  }

  async function load(organizationId: string, id: string) {
    const r = await store.byId(organizationId, id)
    if (!r) throw notFound(`QR code ${id}`)
    const link = await deps.links.owned(organizationId, r.linkId)
    return { record: r, link }
  }

  return {
    async create(organizationId: string, body: CreateQrCodeBody): Promise<QrCode> {
      const given = [body.linkId, body.smartLinkId].filter((v) => v !== undefined)
      if (given.length !== 1) {
        const message = given.length
          ? 'give only one of linkId and smartLinkId'
          : 'linkId or smartLinkId is required'
        throw new AppError('ValidationError', message, [
          { field: 'linkId', message },
          { field: 'smartLinkId', message },
        ])
      }
      const kind: LinkKind = body.linkId !== undefined ? 'link' : 'smart'
      const link = await linkOf(organizationId, (body.linkId ?? body.smartLinkId)!, kind)
      const style = await styleOf(body.style)
      const t = deps.clock.now()
      const record: QrCodeRecord = {
        id: newId('qr'),
        organizationId,
        linkId: link.id,
        linkKind: kind,
        title: titleOf(body.title) ?? null,
        style,
        scans: 0,
        createdAt: t,
        updatedAt: t,
      }
      await store.insert(record)
      const qr = present(record, link.shortUrl)
      deps.events.emit(
        'qr_code.created',
        {
          organizationId,
          data: {
            qrCodeId: qr.id,
            linkId: link.id,
            ...(kind === 'smart' ? { kind: 'smart' as const } : {}),
            encodedUrl: qr.encodedUrl,
            title: qr.title,
            createdAt: qr.createdAt,
          },
        },
        t,
      )
      return qr
    },

    async list(organizationId: string, q: ListQrCodesQuery): Promise<PageOf<QrCode>> {
      const p = pageParams(q)
      // Both filters name one row as a link and as a smart link, which no row is.
      if (q.linkId !== undefined && q.smartLinkId !== undefined) return pageOf([], 0, p)
      const link =
        q.linkId !== undefined
          ? { id: q.linkId, kind: 'link' as const }
          : q.smartLinkId !== undefined
            ? { id: q.smartLinkId, kind: 'smart' as const }
            : undefined
      const { rows, total } = await store.list(organizationId, { link, limit: p.perPage, offset: p.offset })
      // The page's links, each asked once (a link's codes usually share a page).
      const shortUrls = new Map<string, Promise<string>>()
      const shortUrlOf = (id: string) => {
        let u = shortUrls.get(id)
        if (!u) shortUrls.set(id, (u = deps.links.owned(organizationId, id).then((l) => l.shortUrl)))
        return u
      }
      const data = await Promise.all(rows.map(async (r) => present(r, await shortUrlOf(r.linkId))))
      return pageOf(data, total, p)
    },

    async get(organizationId: string, id: string): Promise<QrCode> {
      const { record, link } = await load(organizationId, id)
      return present(record, link.shortUrl)
    },

    async update(organizationId: string, id: string, body: UpdateQrCodeBody): Promise<QrCode> {
      const { record, link } = await load(organizationId, id)
      const style = body.style === undefined ? undefined : await styleOf(body.style, record.style)
      const title = titleOf(body.title)
      const t = deps.clock.now()
      await store.update(record.id, {
        ...(title !== undefined && { title }),
        ...(style !== undefined && { style }),
        updatedAt: t,
      })
      return present(
        { ...record, ...(title !== undefined && { title }), ...(style && { style }), updatedAt: t },
        link.shortUrl,
      )
    },

    async delete(organizationId: string, id: string): Promise<void> {
      const { record } = await load(organizationId, id)
      await store.delete(record.id)
    },

    /** The code's image: it decodes to its encodedUrl. */
    async image(organizationId: string, id: string, q: QrImageQuery): Promise<QrImage> {
      const { record, link } = await load(organizationId, id)
      return renderQrCode(
        encodedUrlOf(link.shortUrl, record.id),
        record.style,
        q.format ?? 'svg',
        q.size ?? QR_LIMITS.sizeDefault,
      )
    },

    /** For the click recorder: scans per code, counted inside its flush (see QrCodeStore.addScans). */
    addScans: store.addScans,
  }
}
export type QrCodeService = ReturnType<typeof createQrCodeService>
