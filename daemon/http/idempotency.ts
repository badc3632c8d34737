import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import type { Database } from '../db/schema.js'
import { sha256Hex, type SecretBox } from '../crypto.js'
import { IDEMPOTENCY_TTL_MS } from '../../src/contract/limits.js'
import { AppError } from './errors.js'
import { addRouteHook } from './route-hooks.js'

export interface IdempotencyRecord {
  requestHash: string
  statusCode: number
  contentType: string | null
  /** The response body; undefined when the stored one does not open (the master key changed). */
  body: string | undefined
  createdAt: number
  /** Top-level `id` of the response, kept in the clear to find the record by what it names. */
  resourceId: string | null
}

/**
 * Store of first responses by (owner, idempotency key). Bodies are sealed with the master key:
 * they hold full API keys, webhook secrets and header values, SDK keys and signing secrets.
 */
export function createIdempotencyStore(db: Kysely<Database>, secrets: SecretBox) {
  const open = (sealed: string): string | undefined => {
    try {
      return secrets.decrypt(sealed)
    } catch {
      return undefined
    }
  }
  return {
    async find(owner: string, key: string, since: number): Promise<IdempotencyRecord | undefined> {
      const r = await db
        .selectFrom('idempotency_records')
        .selectAll()
        .where('owner', '=', owner)
        .where('idem_key', '=', key)
        .where('created_at', '>', since)
        .executeTakeFirst()
      return (
        r && {
          requestHash: r.request_hash,
          statusCode: r.status_code,
          contentType: r.content_type,
          body: open(r.body),
          createdAt: r.created_at,
          resourceId: r.resource_id,
        }
      )
    },
    async save(owner: string, key: string, rec: IdempotencyRecord & { body: string }): Promise<void> {
      const row = {
        request_hash: rec.requestHash,
        status_code: rec.statusCode,
        content_type: rec.contentType,
        body: secrets.encrypt(rec.body),
        created_at: rec.createdAt,
        resource_id: rec.resourceId,
      }
      await db
        .insertInto('idempotency_records')
        .values({ owner, idem_key: key, ...row })
        .onConflict((oc) => oc.columns(['owner', 'idem_key']).doUpdateSet(row))
        .execute()
    },
    async prune(before: number): Promise<number> {
      const r = await db
        .deleteFrom('idempotency_records')
        .where('created_at', '<=', before)
        .executeTakeFirst()
      return Number(r.numDeletedRows)
    },

    /**
     * Forgets the stored responses whose top-level `id` is `id` (such as the gdpr_… of a deletion
     * request): a GDPR purge must not leave the player's id in a replayable response, sealed or not.
     */
    async forgetResponsesNaming(id: string): Promise<number> {
      const r = await db.deleteFrom('idempotency_records').where('resource_id', '=', id).executeTakeFirst()
      return Number(r.numDeletedRows)
    },
  }
}
export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { owner: string; key: string; hash: string }
  }
}

/** JSON with object keys sorted, so that field order does not make two equal bodies differ. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  )
}

const METHODS = new Set(['POST', 'PATCH', 'DELETE', 'PUT'])

/** The top-level string `id` of a JSON response body, if any. */
function idOf(body: string): string | null {
  try {
    const v: unknown = JSON.parse(body)
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const id = (v as { id?: unknown }).id
      if (typeof id === 'string' && id.length <= 255) return id
    }
  } catch {
    // not JSON after all
  }
  return null
}

/**
 * `X-Idempotency-Key` on POST/PATCH/DELETE of an authenticated caller: the first response (status
 * and body) is stored for 24 h and replayed with `Idempotent-Replayed: true`; the same key with a
 * different request is 422; a repeat while the first is still running is 409.
 */
export function installIdempotency(
  app: FastifyInstance,
  deps: { store: IdempotencyStore; clock: Clock },
): void {
  const inFlight = new Set<string>()
  app.decorateRequest('idempotency', undefined)

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!METHODS.has(request.method) || !request.principal) return
    const header = request.headers['x-idempotency-key']
    if (header === undefined) return
    const key = Array.isArray(header) ? header[0] : header
    if (!key || key.length > 255)
      throw new AppError('ValidationError', 'X-Idempotency-Key must be 1-255 characters', [
        { field: 'X-Idempotency-Key', message: 'must be 1-255 characters' },
      ])
    const owner = request.principal.keyId
    const hash = sha256Hex(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`)
    const now = deps.clock.now()
    const prior = await deps.store.find(owner, key, now - IDEMPOTENCY_TTL_MS)
    if (prior) {
      if (prior.requestHash !== hash)
        throw new AppError(
          'Unprocessable',
          'this X-Idempotency-Key was already used with a different request',
        )
      if (prior.body === undefined)
        throw new AppError(
          'Conflict',
          'the stored response of this X-Idempotency-Key cannot be read (the master key changed); ' +
            'the request is not run twice: send it with a new X-Idempotency-Key',
        )
      reply.header('idempotent-replayed', 'true')
      if (prior.contentType) reply.type(prior.contentType)
      return reply.code(prior.statusCode).send(prior.body === '' ? undefined : prior.body)
    }
    const slot = `${owner}\u0000${key}`
    if (inFlight.has(slot))
      throw new AppError('Conflict', 'a request with this X-Idempotency-Key is still in progress')
    inFlight.add(slot)
    request.idempotency = { owner, key, hash }
  }

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const idem = request.idempotency
    if (!idem || reply.statusCode >= 500 || reply.getHeader('idempotent-replayed')) return payload
    if (payload !== null && payload !== undefined && typeof payload !== 'string') return payload
    const ct = reply.getHeader('content-type')
    const contentType = typeof ct === 'string' ? ct : null
    const body = payload ?? ''
    await deps.store.save(idem.owner, idem.key, {
      requestHash: idem.hash,
      statusCode: reply.statusCode,
      contentType,
      body,
      createdAt: deps.clock.now(),
      resourceId: contentType?.startsWith('application/json') ? idOf(body) : null,
    })
    return payload
  }

  const release = async (request: { idempotency?: { owner: string; key: string } | undefined }) => {
    if (request.idempotency) inFlight.delete(`${request.idempotency.owner}\u0000${request.idempotency.key}`)
  }
  // Only writes that authenticate can be replayed: the hooks go on those routes alone.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (route.config?.auth === undefined || !methods.some((m) => METHODS.has(m))) return
    addRouteHook(route, 'preHandler', preHandler)
    addRouteHook(route, 'onSend', onSend)
    addRouteHook(route, 'onResponse', release)
    addRouteHook(route, 'onRequestAbort', release)
  })
}
