/** Helpers of the gaming tests: a game, events, and a sender of signed / gzipped batches. */
import { createHmac, randomUUID } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import type { LightMyRequestResponse } from 'fastify'
import type { GameWithSecrets } from '../../src/contract/games.js'
import type { GameEventInput, IngestResult } from '../../src/contract/gaming.js'
import { expect } from 'vitest'
import { count, createTestApp, type TestApp } from './app.js'

export async function createGame(t: TestApp, body: Record<string, unknown> = {}): Promise<GameWithSecrets> {
  const res = await t.call('POST', '/api/v1/admin/games', {
    body: { name: `Game ${randomUUID().slice(0, 8)}`, platform: 'ios', ...body },
  })
  if (res.statusCode !== 201) throw new Error(`create game failed: ${res.statusCode} ${res.body}`)
  return res.json<GameWithSecrets>()
}

export function event(t: { clock: { now(): number } }, over: Partial<GameEventInput> = {}): GameEventInput {
  return {
    event_id: randomUUID(),
    event_type: 'level_start',
    timestamp: new Date(t.clock.now()).toISOString(),
    player_id: 'player-1',
    session_id: 'sess-1',
    platform: 'ios',
    data: { level: 1 },
    ...over,
  }
}

export function batch(
  t: { clock: { now(): number } },
  events: unknown[],
  over: Record<string, unknown> = {},
) {
  return {
    batch_id: randomUUID(),
    batch_timestamp: new Date(t.clock.now()).toISOString(),
    events,
    ...over,
  }
}

export interface SendOpts {
  game: GameWithSecrets
  orgId: string
  key?: string | null
  gameId?: string | null
  organizationId?: string | null
  gzip?: boolean
  /** Sign with this secret (the game's by default when `sign` is true). */
  sign?: boolean | { secret?: string; timestamp?: string; signature?: string }
  headers?: Record<string, string>
  /** Client address of the request (127.0.0.1 by default). */
  ip?: string
}

export function sign(secret: string, timestamp: string, wire: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(wire).digest('hex')}`
}

/**
 * The headers of an ingestion request as a game's SDK sends them (the e2e tests' real HTTP
 * requests): JSON, the SDK key, the game and its organization, and with `signed` the timestamp
 * and the signature of the wire bytes with `secret`.
 */
export function ingestionHeaders(
  game: Pick<GameWithSecrets, 'id' | 'organizationId' | 'sdkKey'>,
  signed?: { secret: string; timestamp: string; wire: Buffer },
): Record<string, string> {
  return {
    'content-type': 'application/json',
    authorization: `Bearer ${game.sdkKey}`,
    'x-game-id': game.id,
    'x-organization-id': game.organizationId,
    ...(signed
      ? {
          'x-timestamp': signed.timestamp,
          'x-signature': sign(signed.secret, signed.timestamp, signed.wire),
        }
      : {}),
  }
}

/** POSTs a batch (object or raw bytes) to the ingestion route. */
export function send(t: TestApp, body: unknown, o: SendOpts): Promise<LightMyRequestResponse> {
  let wire = Buffer.isBuffer(body)
    ? body
    : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(o.headers ?? {}) }
  if (o.gzip) {
    wire = gzipSync(wire)
    headers['content-encoding'] = 'gzip'
  }
  const key = o.key === undefined ? o.game.sdkKey : o.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  const gameId = o.gameId === undefined ? o.game.id : o.gameId
  if (gameId !== null) headers['x-game-id'] = gameId
  const org = o.organizationId === undefined ? o.orgId : o.organizationId
  if (org !== null) headers['x-organization-id'] = org
  if (o.sign) {
    const s = o.sign === true ? {} : o.sign
    const ts = s.timestamp ?? String(t.clock.now())
    headers['x-timestamp'] = ts
    headers['x-signature'] = s.signature ?? sign(s.secret ?? o.game.signingSecret, ts, wire)
  }
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/gaming/events',
    headers,
    payload: wire,
    ...(o.ip ? { remoteAddress: o.ip } : {}),
  })
}

/** The 202 answer of an ingestion request, failing the test with the body on any other status. */
export function accepted(res: LightMyRequestResponse): IngestResult {
  expect(res.statusCode, res.body).toBe(202)
  return res.json<IngestResult>()
}

/** Raw events stored for a game. */
export function storedEvents(t: TestApp, game: GameWithSecrets): Promise<number> {
  return count(t, 'game_events', 'game_id = (SELECT id FROM games WHERE slug = ?)', game.id)
}

/**
 * The latest time whose last `spanMs` fall on one UTC day, for events sent now: the real time, or
 * a minute before midnight in a run just after it (so that day figures stay whole).
 */
export function oneDayEnd(spanMs: number): number {
  const now = Date.now()
  const sinceMidnight = now % 86_400_000
  return sinceMidnight > spanMs ? now : now - sinceMidnight - 60_000
}

/** An app with one game whose ingestion window no test reaches, and how to send as that game. */
export async function ingestionApp(): Promise<{ t: TestApp; game: GameWithSecrets; o: SendOpts }> {
  const t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  const game = await createGame(t)
  return { t, game, o: { game, orgId: t.orgId } }
}
