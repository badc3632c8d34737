import { EventEmitter } from 'node:events'
import type { Link } from '../src/contract/links.js'
import type { SmartLink } from '../src/contract/smart-links.js'

/** link.created / link.updated of a smart link: the smart link, marked `kind: 'smart'`. */
export type SmartLinkEventData = SmartLink & { kind: 'smart' }

/** Visit details shared by link.clicked and qr_code.scanned (the payload fields webhooks deliver). */
export interface VisitData {
  country: string | null
  device: string | null
  browser: string | null
  os: string | null
}

/** Domain events. Each payload names its organization; `data` is what webhooks deliver. */
export interface DomainEvents {
  'api_key.created': {
    organizationId: string
    data: { id: string; name: string; permissions: string[]; createdAt: string }
  }
  'api_key.revoked': {
    organizationId: string
    data: { id: string; name: string; revokedAt: string; reason: 'revoked' | 'deleted' }
  }
  'link.created': { organizationId: string; data: Link | SmartLinkEventData }
  'link.updated': { organizationId: string; data: Link | SmartLinkEventData }
  /** `kind: 'smart'` for a smart link (a plain link's payload has no kind). */
  'link.deleted': {
    organizationId: string
    data: { id: string; shortUrl: string; shortCode: string; deletedAt: string; kind?: 'smart' }
  }
  /** A password link's wrong tries reached the per-link limit: every try is refused until lockedUntil. */
  'link.password_locked': {
    organizationId: string
    data: { linkId: string; shortUrl: string; shortCode: string; wrongTries: number; lockedUntil: string }
  }
  /**
   * A link's destination host (or a parent domain) was found on one of the organization's safety
   * lists after the link was written: it now answers a warning page instead of redirecting.
   */
  'link.flagged': {
    organizationId: string
    data: { linkId: string; shortUrl: string; host: string; list: string; flaggedAt: string; kind?: 'smart' }
  }
  /** Human clicks only (bots and link previews are counted, never announced). */
  'link.clicked': {
    organizationId: string
    data: VisitData & {
      linkId: string
      shortUrl: string
      clickedAt: string
      /** Present for a smart link ('smart'). */
      kind?: 'smart'
      countryCode: string | null
      city?: string
      referrer?: string
    }
  }
  /**
   * A QR code resource (`/api/use/qr-codes`), or the first image of a link's own QR code
   * (`/api/use/links/:id/qr`, the shape with shortUrl and format).
   */
  'qr_code.created': {
    organizationId: string
    data:
      | {
          qrCodeId: string
          linkId: string
          /** Present for a smart link's code ('smart'). */
          kind?: 'smart'
          encodedUrl: string
          title: string | null
          createdAt: string
        }
      | { qrCodeId: string; linkId: string; shortUrl: string; format: string; createdAt: string }
  }
  /** A human visit with `?qr=`: qrCodeId is the resource's id, or the link's own code id (`?qr=1`). */
  'qr_code.scanned': {
    organizationId: string
    data: VisitData & {
      qrCodeId: string
      linkId: string
      shortUrl: string
      scannedAt: string
      /** Present for a smart link ('smart'). */
      kind?: 'smart'
    }
  }
  'domain.created': {
    organizationId: string
    data: {
      id: string
      domain: string
      verificationStatus: string
      dnsRecords: Array<{ type: string; name: string; value: string; status: string }>
      createdAt: string
    }
  }
  /** The payload webhooks deliver: id, domain, verifiedAt, sslStatus, sslExpiresAt. */
  'domain.verified': {
    organizationId: string
    data: { id: string; domain: string; verifiedAt: string; sslStatus: string; sslExpiresAt: string | null }
  }
  /**
   * Why: `deleted` by its organization, `expired` (unverified 7 days after it was added), or
   * `taken_over` (unverified, it gave way to another organization that proved control of the host).
   */
  'domain.deleted': {
    organizationId: string
    data: { id: string; domain: string; deletedAt: string; reason: 'deleted' | 'expired' | 'taken_over' }
  }
  /** An invitation was accepted: the new member; `permissions` are the scopes its role allows. */
  'team.member_added': {
    organizationId: string
    data: {
      memberId: string
      name: string
      email: string | null
      role: string
      permissions: string[]
      invitedBy: string | null
      joinedAt: string
    }
  }
  /** A member was removed (its keys revoked); `removedBy` is the member who removed it. */
  'team.member_removed': {
    organizationId: string
    data: {
      memberId: string
      name: string
      email: string | null
      role: string
      removedBy: string | null
      removedAt: string
    }
  }
}
export type EventType = keyof DomainEvents
export type EventEnvelope<K extends EventType = EventType> = { type: K; at: number } & DomainEvents[K]

/**
 * Typed in-process event bus. Services emit after their transaction commits; listeners (webhook
 * outbox, metrics) must not throw into the emitter: a failing listener is logged and isolated.
 */
export class EventBus {
  private readonly emitter = new EventEmitter({ captureRejections: false })
  private readonly any = new Set<{
    listener: (event: EventEnvelope) => void | Promise<void>
    wants: (type: EventType) => boolean
  }>()
  constructor(private readonly onListenerError: (err: unknown, type: EventType) => void = () => {}) {
    this.emitter.setMaxListeners(100)
  }

  emit<K extends EventType>(type: K, payload: DomainEvents[K], at: number): void {
    const envelope = { type, at, ...payload } as EventEnvelope<K>
    for (const listener of this.emitter.listeners(type)) this.invoke(listener, envelope, type)
    for (const a of this.any) if (a.wants(type)) this.invoke(a.listener, envelope, type)
  }

  /** Whether anything listens to `type` (lets hot paths skip building payloads nobody reads). */
  listening(type: EventType): boolean {
    if (this.emitter.listenerCount(type) > 0) return true
    for (const a of this.any) if (a.wants(type)) return true
    return false
  }

  on<K extends EventType>(type: K, listener: (event: EventEnvelope<K>) => void | Promise<void>): () => void {
    this.emitter.on(type, listener)
    return () => this.emitter.off(type, listener)
  }

  /**
   * Every event whose type `wants` accepts (default: all). `wants` is asked at each emit, so a
   * listener whose interest changes (the webhook outbox follows its subscriptions) keeps hot
   * paths from building payloads nobody reads.
   */
  onAny(
    listener: (event: EventEnvelope) => void | Promise<void>,
    wants: (type: EventType) => boolean = () => true,
  ): () => void {
    const entry = { listener, wants }
    this.any.add(entry)
    return () => this.any.delete(entry)
  }

  private invoke(listener: unknown, event: EventEnvelope, type: EventType): void {
    try {
      const r: unknown = (listener as (e: EventEnvelope) => unknown)(event)
      if (r instanceof Promise) r.catch((err: unknown) => this.onListenerError(err, type))
    } catch (err) {
      this.onListenerError(err, type)
    }
  }
}
