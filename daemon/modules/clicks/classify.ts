import { createHmac, hash } from 'node:crypto'
import { deriveKey } from '../../crypto.js'
import { isbot } from 'isbot'
import UAParser from 'ua-parser-js'
import { utcDay, utcDayNumber } from '../../clock.js'
import { boundedMemo } from './memo.js'
import type { SmartLinkPlatform } from '../../../src/contract/limits.js'

/**
 * Why a redirect was counted as a bot rather than a human click (`blocked`: a visit of a link
 * flagged by a safety list, answered with the warning page).
 */
export type BotReason = 'link-preview' | 'head-request' | 'user-agent' | 'no-user-agent' | 'blocked'

/**
 * Link-preview fetchers of chat apps and social networks: they fetch every link a person pastes,
 * so each paste would otherwise count as a click (the most common complaint about shorteners).
 */
const LINK_PREVIEW =
  /slackbot|slack-imgproxy|facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|linkedinbot|discordbot|telegrambot|whatsapp|skypeuripreview|microsoftpreview|iframely|embedly|redditbot|pinterestbot|vkshare|google-pagerenderer|mastodon|cardyb|snapchat|viber|kakaotalk-scrap|zoominfobot|bitlybot/i

/** Bot or human: link-preview agents, HEAD requests, isbot's list, and requests without a user agent. */
export function botReason(method: string, userAgent: string): BotReason | null {
  const agentReason = parseAgent(userAgent).bot
  if (agentReason === 'link-preview') return agentReason
  if (method === 'HEAD') return 'head-request'
  return agentReason
}

export interface Agent {
  /** mobile, tablet, desktop (the default), or another ua-parser device type (console, smarttv…). */
  device: string
  browser: string | null
  os: string | null
  /** What the user agent alone says about being a bot. */
  bot: Exclude<BotReason, 'head-request'> | null
}

/** Distinct user agents (and destination URLs) remembered at most. */
export const AGENT_CACHE_MAX = 5000

function agentBot(userAgent: string): Agent['bot'] {
  if (LINK_PREVIEW.test(userAgent)) return 'link-preview'
  if (userAgent.trim() === '') return 'no-user-agent'
  if (isbot(userAgent)) return 'user-agent'
  return null
}

/** Device, browser, OS (ua-parser-js 1.x, MIT) and bot verdict of a user agent, worked out afresh. */
export function readAgent(userAgent: string): Agent {
  const r = new UAParser(userAgent).getResult()
  const type = r.device.type
  return {
    device: type === 'wearable' ? 'mobile' : (type ?? 'desktop'),
    browser: r.browser.name ? r.browser.name.slice(0, 60) : null,
    os: r.os.name ? r.os.name.slice(0, 60) : null,
    bot: agentBot(userAgent),
  }
}

/** `readAgent`, worked out once per distinct agent (real traffic repeats a few thousand agents). */
export const parseAgent = boundedMemo(readAgent, AGENT_CACHE_MAX)

/** ua-parser-js OS names → the rule values. Linux distributions are `linux`. */
const OS_OF: Record<string, string> = {
  iOS: 'ios',
  Android: 'android',
  Windows: 'windows',
  'Mac OS': 'macos',
  macOS: 'macos',
}
const LINUXES = new Set([
  'Linux',
  'Ubuntu',
  'Debian',
  'Fedora',
  'Mint',
  'Arch',
  'Gentoo',
  'CentOS',
  'RedHat',
  'SUSE',
  'openSUSE',
  'Slackware',
  'Mandriva',
  'Kubuntu',
  'Xubuntu',
  'Lubuntu',
  'Manjaro',
  'elementary OS',
])

/** The OS family of a ua-parser OS name (as link rules name them): ios, android, windows, macos, linux. */
export function osFamily(os: string | null): string | null {
  return os === null ? null : (OS_OF[os] ?? (LINUXES.has(os) ? 'linux' : null))
}

/** A smart link's platform for an OS name: iOS, Android, desktop (Windows, macOS, Linux), other. */
export function platformOf(os: string | null): SmartLinkPlatform {
  const f = osFamily(os)
  return f === 'ios' || f === 'android' ? f : f === null ? 'other' : 'desktop'
}

/** Host of a Referer header, lowercased, without `www.`; null when absent or not a URL. */
export function referrerDomain(referer: string | undefined): string | null {
  if (!referer) return null
  try {
    const host = new URL(referer).hostname.toLowerCase().replace(/^www\./, '')
    return host ? host.slice(0, 253) : null
  } catch {
    return null
  }
}

export interface Utm {
  source: string | null
  medium: string | null
  campaign: string | null
}
const UTM_MAX = 200

function first(v: unknown): string | null {
  const s = Array.isArray(v) ? (v as unknown[])[0] : v
  return typeof s === 'string' && s.trim() !== '' ? s.trim().slice(0, UTM_MAX) : null
}

/** UTM parameters of a destination URL (links repeat: remembered per URL). */
const utmOfUrl = boundedMemo((url: string): Utm => {
  try {
    const q = new URL(url).searchParams
    return {
      source: first(q.get('utm_source')),
      medium: first(q.get('utm_medium')),
      campaign: first(q.get('utm_campaign')),
    }
  } catch {
    return { source: null, medium: null, campaign: null }
  }
}, AGENT_CACHE_MAX)

/** UTM parameters of the request's query, each falling back to the destination URL's own. */
export function utmOf(query: Record<string, unknown> | undefined, destinationUrl: string): Utm {
  const q = query ?? {}
  const source = first(q.utm_source)
  const medium = first(q.utm_medium)
  const campaign = first(q.utm_campaign)
  if (source && medium && campaign) return { source, medium, campaign }
  const d = utmOfUrl(destinationUrl)
  return { source: source ?? d.source, medium: medium ?? d.medium, campaign: campaign ?? d.campaign }
}

/**
 * Visitor hashes: SHA-256 of (daily salt, IP, user agent), where the salt is an HMAC of the UTC day
 * under a secret derived from the master key. The same person gets a new hash every UTC day and
 * the IP cannot be recovered from the hash without the master key.
 */
export function createVisitorHasher(masterKey: Buffer) {
  const secret = deriveKey(masterKey, 'visitor-salt')
  const salts = new Map<number, string>()
  return (ts: number, ip: string, userAgent: string): string => {
    const dayNumber = utcDayNumber(ts)
    let salt = salts.get(dayNumber)
    if (salt === undefined) {
      salt = createHmac('sha256', secret).update(utcDay(ts)).digest('hex')
      if (salts.size >= 4) salts.clear()
      salts.set(dayNumber, salt)
    }
    const addr = ip.startsWith('::ffff:') ? ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1') : ip
    return hash('sha256', `${salt}\n${addr}\n${userAgent}`, 'hex')
  }
}
