/**
 * The link create and edit forms: their fields and the request bodies they make. Rules are
 * written as linkctl's `--rule` takes them; a value the form cannot read throws an Error naming
 * the field, which the form shows under it.
 */
import type { CreateLinkBody, Link, LinkOgInput, UpdateLinkBody } from '../../contract/links.js'
import { LINK_RULE_LIMITS, RULE_CONDITION_TYPES } from '../../contract/limits.js'
import { parseRule, ruleText } from '../../format/link-rules.js'
import { parseVariant, variantText } from '../../format/link-variants.js'
import type { LinkRule } from '../../contract/links.js'
import type { LinkVariant } from '../../contract/variants.js'
import type { FormField } from '../components/form.js'

const tagsOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')

/** A parser's refusal as a form error: "field: what it expected". */
function parsed<T>(field: string, parse: () => T): T {
  try {
    return parse()
  } catch (err) {
    throw new Error(`${field}: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
}

const RULE_START = new RegExp(`^(${RULE_CONDITION_TYPES.join('|')})\\s*:`, 'i')

/**
 * Rules written as `--rule` takes them, separated by `;`. A piece that does not start with a
 * condition type belongs to the URL before it (a `;` inside a URL).
 */
export function rulesOf(text: string): LinkRule[] {
  const pieces: string[] = []
  for (const piece of text.split(';')) {
    const last = pieces.length - 1
    if (last >= 0 && !RULE_START.test(piece.trim()) && piece.trim() !== '') pieces[last] += `;${piece}`
    else pieces.push(piece)
  }
  return pieces
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .reduce<LinkRule[]>((rules, p) => parsed('rules', () => parseRule(p, rules)), [])
}

export const rulesText = (rules: readonly LinkRule[]) => rules.map(ruleText).join('; ')

/** Variants written as `--variant` takes them (`https://…/a=70`), separated by spaces. */
export function variantsOf(text: string): LinkVariant[] {
  return text
    .split(/\s+/)
    .filter((p) => p !== '')
    .reduce<LinkVariant[]>((variants, p) => parsed('variants', () => parseVariant(p, variants)), [])
}

export const variantsText = (variants: readonly LinkVariant[]) => variants.map(variantText).join(' ')

function maxClicksOf(text: string): number | null {
  const t = text.trim()
  if (t === '') return null
  const { maxClicksMin: min, maxClicksMax: max } = LINK_RULE_LIMITS
  const n = Number(t)
  if (!/^\d+$/.test(t) || n < min || n > max)
    throw new Error(`maxClicks: a whole number from ${min} to ${max}, or empty for no limit`)
  return n
}

/** An ISO date (midnight UTC) or date-time, as the daemon's time. */
function startsAtOf(text: string): string | null {
  const t = text.trim()
  if (t === '') return null
  const at = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)
    ? Date.parse(t.length === 10 ? `${t}T00:00:00Z` : t)
    : NaN
  if (!Number.isFinite(at))
    throw new Error('startsAt: an ISO date or time (2026-12-31 or 2026-12-31T12:00:00Z), or empty for now')
  return new Date(at).toISOString()
}

function yesNo(field: string, text: string): boolean {
  const t = text.trim().toLowerCase()
  if (t === 'y' || t === 'yes') return true
  if (t === 'n' || t === 'no') return false
  throw new Error(`${field}: answer y or n`)
}

/** A new password, checked here so that the daemon never has to say anything about it. */
function passwordOf(text: string): string | undefined {
  if (text === '') return undefined
  const { passwordMin, passwordMax } = LINK_RULE_LIMITS
  if (text.length < passwordMin || text.length > passwordMax)
    throw new Error(`password: ${passwordMin}-${passwordMax} characters (got ${text.length})`)
  return text
}

export function createFields(): FormField[] {
  return [
    { name: 'destinationUrl', label: 'Destination URL' },
    { name: 'title', label: 'Title (optional)' },
    { name: 'customSlug', label: 'Custom short code (optional)' },
    { name: 'tags', label: 'Tags, comma-separated (optional)' },
    { name: 'expiredUrl', label: 'Once expired, redirect to (optional)' },
    { name: 'maxClicks', label: 'Expire after N clicks (optional)' },
    { name: 'password', label: 'Password (optional)', secret: true },
  ]
}

export function createBody(values: Record<string, string>): CreateLinkBody {
  const body: CreateLinkBody = { destinationUrl: (values.destinationUrl ?? '').trim() }
  if (values.title?.trim()) body.title = values.title.trim()
  if (values.customSlug?.trim()) body.customSlug = values.customSlug.trim()
  const tags = tagsOf(values.tags ?? '')
  if (tags.length > 0) body.tags = tags
  if (values.expiredUrl?.trim()) body.expiredUrl = values.expiredUrl.trim()
  const maxClicks = maxClicksOf(values.maxClicks ?? '')
  if (maxClicks !== null) body.maxClicks = maxClicks
  const password = passwordOf(values.password ?? '')
  if (password !== undefined) body.password = password
  return body
}

export function editFields(link: Link): FormField[] {
  return [
    { name: 'destinationUrl', label: 'Destination URL', value: link.destinationUrl },
    { name: 'title', label: 'Title (empty: none)', value: link.title ?? '' },
    { name: 'tags', label: 'Tags, comma-separated', value: link.tags.join(', ') },
    { name: 'shortCode', label: 'Short code', value: link.shortCode },
    { name: 'expiredUrl', label: 'Once expired, redirect to (empty: 410)', value: link.expiredUrl ?? '' },
    {
      name: 'maxClicks',
      label: 'Expire after N clicks (empty: no limit)',
      value: String(link.maxClicks ?? ''),
    },
    { name: 'startsAt', label: 'Live from, ISO time (empty: now)', value: link.startsAt ?? '' },
    { name: 'forwardQuery', label: 'Forward the query string (y/n)', value: link.forwardQuery ? 'y' : 'n' },
    { name: 'rules', label: "Rules, ';'-separated (os:ios=>https://…)", value: rulesText(link.rules) },
    {
      name: 'password',
      label: link.passwordProtected ? 'New password (empty: unchanged)' : 'Password (empty: none)',
      secret: true,
    },
    ...(link.passwordProtected
      ? [{ name: 'removePassword', label: 'Remove the password (y/n)', value: 'n' }]
      : []),
    { name: 'ogTitle', label: 'Preview title', value: link.og?.title ?? '' },
    { name: 'ogDescription', label: 'Preview description', value: link.og?.description ?? '' },
    { name: 'ogImage', label: 'Preview image URL', value: link.og?.imageUrl ?? '' },
    {
      name: 'variants',
      label: 'Split destinations, space-separated (https://…/a=70 https://…/b=30; empty: none)',
      value: variantsText(link.variants),
    },
  ]
}

/** The preview as the form has it: null when every field is empty. */
function ogOf(values: Record<string, string>): LinkOgInput | null {
  const text = (v: string | undefined) => (v?.trim() ? v.trim() : null)
  const og = {
    title: text(values.ogTitle),
    description: text(values.ogDescription),
    imageUrl: text(values.ogImage),
  }
  return og.title === null && og.description === null && og.imageUrl === null ? null : og
}

/** Only what changed; null when nothing did. Throws an Error naming a field the form cannot read. */
export function editBody(link: Link, values: Record<string, string>): UpdateLinkBody | null {
  const body: UpdateLinkBody = {}
  const url = (values.destinationUrl ?? '').trim()
  if (url !== link.destinationUrl) body.destinationUrl = url
  const title = (values.title ?? '').trim()
  if (title !== (link.title ?? '')) body.title = title === '' ? null : title
  const tags = tagsOf(values.tags ?? '')
  if (tags.join('\n') !== link.tags.join('\n')) body.tags = tags
  const shortCode = (values.shortCode ?? link.shortCode).trim()
  if (shortCode !== link.shortCode) body.shortCode = shortCode
  const expiredUrl = (values.expiredUrl ?? '').trim()
  if (expiredUrl !== (link.expiredUrl ?? '')) body.expiredUrl = expiredUrl === '' ? null : expiredUrl
  const maxClicks = maxClicksOf(values.maxClicks ?? '')
  if (maxClicks !== link.maxClicks) body.maxClicks = maxClicks
  // An unchanged field keeps the daemon's own spelling of the time.
  if ((values.startsAt ?? '').trim() !== (link.startsAt ?? ''))
    body.startsAt = startsAtOf(values.startsAt ?? '')
  const forwardQuery = yesNo('forwardQuery', values.forwardQuery ?? 'y')
  if (forwardQuery !== link.forwardQuery) body.forwardQuery = forwardQuery
  if ((values.rules ?? '').trim() !== rulesText(link.rules)) {
    const rules = rulesOf(values.rules ?? '')
    if (rulesText(rules) !== rulesText(link.rules)) body.rules = rules
  }
  if ((values.variants ?? '').trim() !== variantsText(link.variants)) {
    const variants = variantsOf(values.variants ?? '')
    if (variantsText(variants) !== variantsText(link.variants))
      body.variants = variants.length === 0 ? null : variants
  }
  const password = passwordOf(values.password ?? '')
  const remove = link.passwordProtected && yesNo('removePassword', values.removePassword ?? 'n')
  if (remove && password !== undefined)
    throw new Error('password: either a new password or remove it, not both')
  if (remove) body.password = null
  else if (password !== undefined) body.password = password
  const og = ogOf(values)
  const was = link.og && {
    title: link.og.title,
    description: link.og.description,
    imageUrl: link.og.imageUrl,
  }
  if (JSON.stringify(og) !== JSON.stringify(was ?? null)) body.og = og
  return Object.keys(body).length === 0 ? null : body
}
