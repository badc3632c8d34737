import { expect } from 'vitest'
import type { Link } from '../../src/contract/links.js'
import type { TestApp } from './app.js'

export const LINK_FIELDS = [
  'id',
  'shortUrl',
  'shortCode',
  'destinationUrl',
  'title',
  'status',
  'clicks',
  'createdAt',
  'updatedAt',
  'tags',
  'metadata',
  'expiresAt',
  'customDomainId',
  'redirectType',
  'expiredUrl',
  'maxClicks',
  'startsAt',
  'forwardQuery',
  'rules',
  'passwordProtected',
  'og',
  'variants',
].sort()

/** Creates a link through the API and returns it (fails the test on anything but 201). */
export async function createLink(
  t: TestApp,
  body: Record<string, unknown> = {},
  key?: string,
): Promise<Link> {
  const res = await t.call('POST', '/api/use/links', {
    body: { destinationUrl: 'https://example.com/page', ...body },
    ...(key ? { key } : {}),
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<Link>()
}

export const iso = (ms: number) => new Date(ms).toISOString()
