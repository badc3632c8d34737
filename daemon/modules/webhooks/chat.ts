/**
 * The body a webhook endpoint is posted, by its format: `json`, the event envelope; `slack`,
 * `{text, blocks}` as Slack's incoming webhooks take it (Block Kit: a section with the summary,
 * one with the event's key figures as fields, a context line); `discord`, `{content, embeds}` as
 * Discord's Execute Webhook takes it (one embed: title, link, fields, footer, timestamp). Texts
 * are cut to those services' limits, and nothing in the data can mention or ping anyone.
 */
import type { WebhookFormat } from '../../../src/contract/limits.js'

/** The delivered envelope (what a `json` endpoint gets). */
export interface Envelope {
  id: string
  event: string
  timestamp: string
  organizationId: string
  organization?: { id: string; name: string }
  data: Record<string, unknown>
}

/** What the services accept (Slack Block Kit and Discord's documented limits). */
export const CHAT_LIMITS = {
  slackText: 40_000,
  slackSectionText: 3000,
  slackFields: 10,
  slackFieldText: 2000,
  discordContent: 2000,
  discordTitle: 256,
  discordFields: 25,
} as const

/** Fields shown at most: the key figures, not the whole payload. */
const FIELDS_SHOWN = 8
/**
 * A Discord embed holds 6,000 characters in all: the parts are cut shorter than their own limits
 * so that the title, the link, eight fields and the footer always fit (256 + 1000 + 8 × (64 + 480)
 * + 256 = 5,864).
 */
const EMBED = { link: 1000, fieldName: 64, fieldValue: 480, footer: 256 } as const

const TITLES: Record<string, string> = {
  'link.created': 'Link created',
  'link.updated': 'Link updated',
  'link.deleted': 'Link deleted',
  'link.clicked': 'Link clicked',
  'link.password_locked': 'Link locked after wrong passwords',
  'link.flagged': 'Link flagged by a safety list',
  'qr_code.created': 'QR code created',
  'qr_code.scanned': 'QR code scanned',
  'domain.created': 'Custom domain added',
  'domain.verified': 'Custom domain verified',
  'domain.deleted': 'Custom domain removed',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'team.member_added': 'Team member added',
  'team.member_removed': 'Team member removed',
}

/** The data fields worth a line, most telling first (others follow in payload order). */
const FIRST = [
  'destinationUrl',
  'fallbackUrl',
  'host',
  'list',
  'domain',
  'name',
  'email',
  'role',
  'title',
  'country',
  'device',
  'browser',
  'os',
  'referrer',
  'clicks',
  'wrongTries',
  'status',
  'sslStatus',
  'reason',
]
/** Ids and times the message shows elsewhere (the link, the timestamp) or that say little in chat. */
const HIDDEN = new Set(['shortUrl', 'test', 'metadata', 'og', 'rules', 'dnsRecords', 'kind'])

/**
 * `escape(s)` in at most `max` UTF-16 units, ending with `…` when cut. The text is cut before it
 * is escaped, so never inside an escape (`&amp;`, `\*`), and between characters, never inside
 * one made of two units (an emoji).
 */
function cut(s: string, max: number, escape: (s: string) => string = (x) => x): string {
  const whole = escape(s)
  if (whole.length <= max) return whole
  const chars = [...s]
  const fits = (n: number) => escape(chars.slice(0, n).join('')).length <= max - 1
  // The longest start of the text that fits, escaped, with room for the `…`.
  let [lo, hi] = [0, chars.length]
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (fits(mid)) lo = mid
    else hi = mid - 1
  }
  return `${escape(chars.slice(0, lo).join(''))}…`
}

function text(v: unknown): string | undefined {
  if (v === null || v === undefined || v === '') return undefined
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'))
    return v.length ? v.join(', ') : undefined
  return undefined
}

/** The event's key figures: [label, value] of its scalar data fields. */
function figures(data: Record<string, unknown>): Array<[string, string]> {
  const keys = Object.keys(data).filter((k) => !HIDDEN.has(k))
  const ordered = [...FIRST.filter((k) => keys.includes(k)), ...keys.filter((k) => !FIRST.includes(k))]
  const out: Array<[string, string]> = []
  for (const k of ordered) {
    const v = text(data[k])
    if (v !== undefined) out.push([k, v])
    if (out.length === FIELDS_SHOWN) break
  }
  return out
}

const titleOf = (e: Envelope) => `${TITLES[e.event] ?? e.event}${e.data.test === true ? ' (test)' : ''}`
const linkOf = (e: Envelope) => (typeof e.data.shortUrl === 'string' ? e.data.shortUrl : undefined)

/** Slack mrkdwn: &, < and > escaped (so no text becomes a mention or a link). */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function slack(e: Envelope): Record<string, unknown> {
  const title = titleOf(e)
  const link = linkOf(e)
  const org = e.organization?.name
  const summary = `*${slackEscape(title)}*${link ? `: <${slackEscape(link)}>` : ''}`
  const figs = figures(e.data).slice(0, CHAT_LIMITS.slackFields)
  const blocks: Array<Record<string, unknown>> = [
    { type: 'section', text: { type: 'mrkdwn', text: cut(summary, CHAT_LIMITS.slackSectionText) } },
  ]
  if (figs.length)
    blocks.push({
      type: 'section',
      fields: figs.map(([k, v]) => ({
        type: 'mrkdwn',
        text: `*${slackEscape(k)}*\n${cut(v, CHAT_LIMITS.slackFieldText - slackEscape(k).length - 3, slackEscape)}`,
      })),
    })
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: cut(
          `\`${slackEscape(e.event)}\` · ${slackEscape(e.timestamp)}${org ? ` · ${slackEscape(org)}` : ''}`,
          CHAT_LIMITS.slackSectionText,
        ),
      },
    ],
  })
  const plain = `${title}${link ? `: ${link}` : ''}${figs.length ? ` (${figs.map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}`
  return { text: cut(plain, CHAT_LIMITS.slackText, slackEscape), blocks }
}

/**
 * Discord markdown escaped with backslashes (a title's `[text](url)` would show as a disguised
 * link, `*x*` in bold); a value that is one URL stays as it is, so that it shows as a link.
 */
const discordEscape = (s: string) =>
  /^https?:\/\/\S+$/.test(s) ? s : s.replace(/[\\*_~`|[\]()]/g, '\\$&').replace(/^([#>-])/gm, '\\$1')

function discord(e: Envelope): Record<string, unknown> {
  const title = titleOf(e)
  const link = linkOf(e)
  const org = e.organization?.name
  const embed: Record<string, unknown> = {
    title: cut(title, CHAT_LIMITS.discordTitle),
    ...(link && /^https?:\/\//.test(link) && { url: link }),
    ...(link && { description: cut(link, EMBED.link) }),
    fields: figures(e.data)
      .slice(0, CHAT_LIMITS.discordFields)
      .map(([k, v]) => ({
        name: cut(k, EMBED.fieldName),
        value: cut(v, EMBED.fieldValue, discordEscape),
        inline: v.length <= 40,
      })),
    footer: { text: cut(`${e.event}${org ? ` · ${org}` : ''}`, EMBED.footer) },
    timestamp: e.timestamp,
  }
  return {
    content: cut(`${title}${link ? `: ${link}` : ''}`, CHAT_LIMITS.discordContent),
    embeds: [embed],
    // Data (a title, a member's name) never pings @everyone, a role or a user.
    allowed_mentions: { parse: [] },
  }
}

/** The exact bytes an endpoint of `format` is sent for the envelope (what the signature covers). */
export function deliveryBody(format: WebhookFormat, e: Envelope): string {
  if (format === 'slack') return JSON.stringify(slack(e))
  if (format === 'discord') return JSON.stringify(discord(e))
  return JSON.stringify(e)
}
