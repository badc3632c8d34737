import { expect } from 'vitest'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { TestApp } from './app.js'

export interface ErrorBodyShape {
  error: string
  message: string
  statusCode: number
  timestamp: string
  path: string
  details?: Array<{ field: string; message: string }>
}

const ERROR_FIELDS = ['error', 'message', 'statusCode', 'timestamp', 'path', 'details']

/** Asserts the error body (ErrorBody: nothing else, never a stack) and returns it. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  type: string,
  path?: string,
): ErrorBodyShape {
  expect(res.statusCode, res.body).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  const body = res.json<ErrorBodyShape>()
  expect(body.error).toBe(type)
  expect(body.statusCode).toBe(status)
  expect(typeof body.message).toBe('string')
  expect(body.message.length).toBeGreaterThan(0)
  expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  expect(typeof body.path).toBe('string')
  if (path !== undefined) expect(body.path).toBe(path)
  for (const k of Object.keys(body)) expect(ERROR_FIELDS).toContain(k)
  expectNoStack(res)
  if (status === 400) {
    expect(Array.isArray(body.details)).toBe(true)
    expect(body.details!.length).toBeGreaterThan(0)
    for (const d of body.details!) {
      expect(typeof d.field).toBe('string')
      expect(typeof d.message).toBe('string')
    }
  }
  return body
}

/** No stack trace or source path in a response body. */
export function expectNoStack(res: LightMyRequestResponse): void {
  expect(res.body).not.toMatch(/\n\s+at\s/)
  expect(res.body).not.toMatch(/"stack"/)
  expect(res.body).not.toMatch(/\.(ts|js):\d+/)
}

/** The fields named by a 400's details. */
export function detailFields(res: LightMyRequestResponse): string[] {
  return (res.json<ErrorBodyShape>().details ?? []).map((d) => d.field)
}

/** Inject with full control (remote address, raw headers, no default key). */
export function raw(t: TestApp, opts: InjectOptions): Promise<LightMyRequestResponse> {
  return t.app.inject(opts)
}

/** Asserts the three X-RateLimit-* headers and returns them as numbers. */
export function rateHeaders(res: LightMyRequestResponse): {
  limit: number
  remaining: number
  reset: number
} {
  const limit = res.headers['x-ratelimit-limit']
  const remaining = res.headers['x-ratelimit-remaining']
  const reset = res.headers['x-ratelimit-reset']
  expect(String(limit), `X-RateLimit-Limit on ${res.statusCode}`).toMatch(/^\d+$/)
  expect(String(remaining), `X-RateLimit-Remaining on ${res.statusCode}`).toMatch(/^\d+$/)
  expect(String(reset), `X-RateLimit-Reset on ${res.statusCode}`).toMatch(/^\d+$/)
  return { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) }
}

/** Reads an api_keys row straight from storage. */
export async function storedKey(t: TestApp, id: string) {
  return t.db.kysely.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst()
}
