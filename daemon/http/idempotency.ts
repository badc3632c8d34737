import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../clock.js'
import { sha256Hex } from '../crypto.js'
import { IDEMPOTENCY_TTL_MS } from '../../src/contract/limits.js'
import { AppError } from './errors.js'
import { addRouteHook } from './route-hooks.js'
import { IN_PROGRESS, type IdempotencyStore } from './idempotency-store.js'

/**
 * A claim older than this is taken as abandoned (its process died mid-request): the key may be
 * used again. Longer than any request runs (a bulk import of 1,000 links takes seconds).
 */
const STALE_CLAIM_MS = 10 * 60_000

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { owner: string; key: string; hash: string; saved: boolean }
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
 * different request is 422; a repeat while the first is still running is 409, whichever linkd
 * process on the database runs the first (the claim is a row: idempotency-store.ts `claim`).
 */
export function installIdempotency(
  app: FastifyInstance,
  deps: { store: IdempotencyStore; clock: Clock },
): void {
  app.decorateRequest('idempotency', undefined)
  const inProgress = () =>
    new AppError('Conflict', 'a request with this X-Idempotency-Key is still in progress')

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
      if (prior.statusCode === IN_PROGRESS) {
        if (prior.createdAt > now - STALE_CLAIM_MS) throw inProgress()
      } else if (prior.body === undefined) {
        throw new AppError(
          'Conflict',
          'the stored response of this X-Idempotency-Key cannot be read (the master key changed); ' +
            'the request is not run twice: send it with a new X-Idempotency-Key',
        )
      } else {
        reply.header('idempotent-replayed', 'true')
        if (prior.contentType) reply.type(prior.contentType)
        return reply.code(prior.statusCode).send(prior.body === '' ? undefined : prior.body)
      }
    }
    // The claim is a row in the database: a request with the same key reaching another linkd
    // process meanwhile gets 409 there, not a second run.
    const claimed = await deps.store.claim(owner, key, hash, now, {
      staleBefore: now - STALE_CLAIM_MS,
      expiredBefore: now - IDEMPOTENCY_TTL_MS,
    })
    if (!claimed) throw inProgress()
    request.idempotency = { owner, key, hash, saved: false }
  }

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const idem = request.idempotency
    if (!idem || reply.statusCode >= 500 || reply.getHeader('idempotent-replayed')) return payload
    if (payload !== null && payload !== undefined && typeof payload !== 'string') return payload
    const ct = reply.getHeader('content-type')
    const contentType = typeof ct === 'string' ? ct : null
    const body = payload ?? ''
    idem.saved = true
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

  /** A request that stored no response (5xx, aborted) gives its claim back: it may be retried. */
  const release = async (request: FastifyRequest) => {
    const idem = request.idempotency
    if (!idem || idem.saved) return
    idem.saved = true
    await deps.store.release(idem.owner, idem.key)
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
