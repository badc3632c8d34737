import { expect } from 'vitest'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Link } from '../../src/contract/links.js'
import type { LinkAnalytics } from '../../src/contract/click-analytics.js'
import type { EventEnvelope, EventType } from '../../daemon/events.js'
import type { TestApp } from './app.js'

export const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
export const SAFARI_IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
export const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0'
export const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
export const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'

export const HOUR = 3_600_000
export const DAY = 86_400_000

export async function makeLink(t: TestApp, body: Record<string, unknown> = {}, key?: string): Promise<Link> {
  const res = await t.call('POST', '/api/use/links', {
    body: { destinationUrl: 'https://example.com/landing', ...body },
    ...(key ? { key } : {}),
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<Link>()
}

export interface VisitOptions {
  method?: 'GET' | 'HEAD'
  /** User agent (a desktop Chrome by default; '' sends an empty one). */
  ua?: string
  ip?: string
  query?: string
  headers?: Record<string, string>
  host?: string
}

/** A visitor following a short link on the shared short domain (a desktop Chrome by default). */
export function visit(t: TestApp, code: string, o: VisitOptions = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { host: o.host ?? t.config.shortDomain, ...(o.headers ?? {}) }
  headers['user-agent'] = o.ua ?? CHROME_WINDOWS
  const opts: InjectOptions = {
    method: o.method ?? 'GET',
    url: `/${code}${o.query ? `?${o.query}` : ''}`,
    headers,
    remoteAddress: o.ip ?? '127.0.0.1',
  }
  return t.app.inject(opts)
}

export async function analytics(t: TestApp, id: string, query = ''): Promise<LinkAnalytics> {
  const res = await t.call('GET', `/api/use/analytics/links/${id}${query ? `?${query}` : ''}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<LinkAnalytics>()
}

/** Records every event of the given types from now on. */
export function captureEvents<K extends EventType>(t: TestApp, ...types: K[]): Array<EventEnvelope<K>> {
  const seen: Array<EventEnvelope<K>> = []
  for (const type of types) t.app.linkd.services.events.on(type, (e) => void seen.push(e))
  return seen
}

/** Writes buffered clicks now (what the 1 s timer does in the daemon). */
export const flush = (t: TestApp) => t.app.linkd.services.clicks.recorder.flush()
