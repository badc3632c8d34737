/**
 * Link options beyond the destination: rules and variants (checked and normalized here, used by
 * the redirect), startsAt, and the stored form of the rules and variants.
 */
import { collectProblems, validation } from '../../http/errors.js'
import { checkDestination } from '../../urls.js'
import type { LinkOg, LinkOgInput, LinkRule } from '../../../src/contract/links.js'
import { LINK_VARIANT_LIMITS, RULE_DEVICES, RULE_OSES } from '../../../src/contract/limits.js'
import type { LinkVariant } from '../../../src/contract/variants.js'

const DEVICES = new Set<string>(RULE_DEVICES)
const OSES = new Set<string>(RULE_OSES)

/** A condition's value checked for its type and normalized (device, os and language lower case, country upper case). */
function checkCondition(c: LinkRule['conditions'][number], field: string): LinkRule['conditions'][number] {
  const v = c.value.trim()
  switch (c.type) {
    case 'device':
      if (!DEVICES.has(v.toLowerCase())) throw validation(field, `must be one of ${RULE_DEVICES.join(', ')}`)
      return { type: c.type, value: v.toLowerCase() }
    case 'os':
      if (!OSES.has(v.toLowerCase())) throw validation(field, `must be one of ${RULE_OSES.join(', ')}`)
      return { type: c.type, value: v.toLowerCase() }
    case 'country':
      if (!/^[A-Za-z]{2}$/.test(v))
        throw validation(field, 'must be a two-letter ISO 3166-1 country code, such as DE or US')
      return { type: c.type, value: v.toUpperCase() }
    case 'language':
      if (!/^[A-Za-z]{2,3}$/.test(v))
        throw validation(field, 'must be a primary language tag (2-3 letters), such as en or de')
      return { type: c.type, value: v.toLowerCase() }
    case 'query':
      if (!/^[^=&#\s]+=[^&#\s]*$/.test(c.value))
        throw validation(field, 'must be name=value (no &, # or spaces), such as ref=twitter')
      return { type: c.type, value: c.value }
  }
}

/**
 * Each condition checked and normalized (checkCondition); every rule's destination passes
 * `destination`; one 400 names every bad value. The schema already bounds the counts
 * (LINK_RULE_LIMITS). null clears them ([]), undefined leaves them.
 */
export function checkRules(
  rules: LinkRule[] | null | undefined,
  destination: (url: string, field: string) => string,
): LinkRule[] | undefined {
  if (rules === undefined) return undefined
  if (rules === null) return []
  const problems = collectProblems()
  const out = rules.map((rule, i) => ({
    conditions: rule.conditions.map(
      (c, j) => problems.check(() => checkCondition(c, `rules.${i}.conditions.${j}.value`)) ?? c,
    ),
    destinationUrl: problems.check(() => destination(rule.destinationUrl, `rules.${i}.destinationUrl`)) ?? '',
  }))
  problems.done()
  return out
}

/**
 * Split destinations of a body: each URL passes `destination` (as the link's own), none twice,
 * the weights add up to 100 (the schema bounds each weight); null or [] clears (none),
 * undefined leaves them. One 400 names every problem.
 */
export function checkVariants(
  variants: LinkVariant[] | null | undefined,
  destination: (url: string, field: string) => string,
): LinkVariant[] | undefined {
  if (variants === undefined) return undefined
  if (variants === null || variants.length === 0) return []
  if (variants.length < LINK_VARIANT_LIMITS.variantsMin)
    throw validation(
      'variants',
      `must have at least ${LINK_VARIANT_LIMITS.variantsMin} items (or [] for none)`,
    )
  const problems = collectProblems()
  const seen = new Set<string>()
  const out = variants.map((v, i) => {
    const url = problems.check(() => destination(v.destinationUrl, `variants.${i}.destinationUrl`)) ?? ''
    if (url !== '' && seen.has(url))
      problems.add(`variants.${i}.destinationUrl`, 'is already another variant; give each URL once')
    seen.add(url)
    return { destinationUrl: url, weight: v.weight }
  })
  const total = variants.reduce((n, v) => n + v.weight, 0)
  if (total !== LINK_VARIANT_LIMITS.weightTotal)
    problems.add(
      'variants',
      `weights add up to ${total}; they must add up to ${LINK_VARIANT_LIMITS.weightTotal}`,
    )
  problems.done()
  return out
}

/** Variants as stored (links.variants): JSON, or null for none. */
export function storedVariants(variants: LinkVariant[]): string | null {
  return variants.length ? JSON.stringify(variants) : null
}

export function parseVariants(value: string | null): LinkVariant[] {
  return value ? (JSON.parse(value) as LinkVariant[]) : []
}

/** `startsAt` of a body: an ISO 8601 date-time (past or future); null clears it. */
export function parseStartsAt(value: string | null | undefined): number | null | undefined {
  if (value === undefined || value === null) return value
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) throw validation('startsAt', 'must be an ISO 8601 date-time')
  return ms
}

/** Rules as stored (links.rules): JSON, or null for none. */
export function storedRules(rules: LinkRule[]): string | null {
  return rules.length ? JSON.stringify(rules) : null
}

export function parseRules(value: string | null): LinkRule[] {
  return value ? (JSON.parse(value) as LinkRule[]) : []
}

/**
 * An `og` body normalized: every field present (null when absent or blank); null when all are.
 * The image is fetched by the crawlers' servers: a URL they can reach (checkDestination).
 */
export function checkOg(og: LinkOgInput | null | undefined): LinkOg | null | undefined {
  if (og === undefined || og === null) return og
  const text = (v: string | null | undefined) => (v?.trim() ? v.trim() : null)
  const imageUrl = text(og.imageUrl)
  const out: LinkOg = {
    title: text(og.title),
    description: text(og.description),
    imageUrl: imageUrl === null ? null : checkDestination(imageUrl, 'og.imageUrl'),
  }
  return out.title === null && out.description === null && out.imageUrl === null ? null : out
}
