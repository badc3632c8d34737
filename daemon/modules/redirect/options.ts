/**
 * The per-visit part of link options: rules compiled once per cached link, and the visitor's
 * query merged into the destination. Both redirect paths (fast path and route) call `targetOf`,
 * so they answer the same bytes.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { QR_MARKER } from '../../../src/contract/limits.js'
import type { LinkRule } from '../../../src/contract/links.js'
import { osFamily, parseAgent } from '../clicks/index.js'
import type { ResolvedLink } from '../links/index.js'

/** What rules look at: the request, read lazily (most rules need one or two facts). */
export interface Visit {
  headers: IncomingHttpHeaders
  ip: string
  /** The raw query string after `?` ('' when none). */
  rawQuery: string
}

/** Country (ISO alpha-2, upper case) of an address, or null: the clicks' own geolocation. */
export type CountryOf = (ip: string) => string | null

type Test = (v: Facts) => boolean
interface Facts {
  device(): string
  os(): string | null
  country(): string | null
  language(): string | null
  query(): Map<string, string[]>
  /** Whether the query has nothing to decode and no empty pair (PLAIN_QUERY). */
  plainQuery(): boolean
  /** The raw query between `&`s: `&a=1&b=2&`. */
  ampersanded(): string
}

/** Device and OS of a user agent as rules name them (ua-parser, as click analytics reads them). */
export function ruleAgent(userAgent: string): { device: string; os: string | null } {
  const a = parseAgent(userAgent)
  return { device: a.device, os: osFamily(a.os) }
}

/** Primary tag of the first Accept-Language entry, lower case (`de-CH, en;q=0.8` → `de`). */
export function primaryLanguage(header: string | undefined): string | null {
  if (!header) return null
  const first = header.split(',')[0]!.split(';')[0]!.trim()
  const tag = first.split('-')[0]!.toLowerCase()
  return /^[a-z]{2,3}$/.test(tag) ? tag : null
}

function decode(s: string): string {
  // Most names and values have nothing to decode: skip the regex and decodeURIComponent.
  if (s.indexOf('%') === -1 && s.indexOf('+') === -1) return s
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '))
  } catch {
    return s
  }
}

/** One `name=value` of a query: the name decoded, the pair as sent. */
interface Pair {
  name: string
  raw: string
}

/** A query whose pairs need no decoding and none is empty (`a=1&b=2`, not `a=1&&b`, `%61=1` or `a+b`). */
const PLAIN_QUERY = /^[^&%+]+(?:&[^&%+]+)*$/

/** `name=value` pairs of a raw query, names and values as sent (not decoded). */
function pairs(raw: string): Pair[] {
  const out: Pair[] = []
  for (const part of raw.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    out.push({ name: decode(eq === -1 ? part : part.slice(0, eq)), raw: part })
  }
  return out
}

function compileRule(rule: LinkRule): Test {
  const tests: Test[] = rule.conditions.map((c) => {
    const value = c.value
    switch (c.type) {
      case 'device':
        return (f) => f.device() === value
      case 'os':
        return (f) => f.os() === value
      case 'country':
        return (f) => f.country() === value
      case 'language':
        return (f) => f.language() === value
      case 'query': {
        const eq = value.indexOf('=')
        const name = decode(value.slice(0, eq))
        const want = decode(value.slice(eq + 1))
        // In a query with nothing to decode, the pair is found as written, without parsing (a
        // name or value that splits into other pairs, or an empty value, takes the parse).
        const written =
          want === '' || /[&=]/.test(name) || want.includes('&') ? undefined : `&${name}=${want}&`
        return (f) =>
          written !== undefined && f.plainQuery()
            ? f.ampersanded().includes(written)
            : (f.query().get(name)?.includes(want) ?? false)
      }
    }
  })
  if (tests.length === 1) return tests[0]!
  return (f) => {
    for (const t of tests) if (!t(f)) return false
    return true
  }
}

export interface Plan {
  rules: Array<{ test: Test; destinationUrl: string }>
}

const plans = new WeakMap<ResolvedLink, Plan>()

/** Compiles a link's rules (the hot-link cache does it once when it stores the link). */
export function planOf(link: ResolvedLink): Plan {
  let p = plans.get(link)
  if (!p) {
    p = { rules: link.rules.map((r) => ({ test: compileRule(r), destinationUrl: r.destinationUrl })) }
    plans.set(link, p)
  }
  return p
}

/** Whether a visit of the link needs more than its cached answer (rules, variants, or a query to forward). */
export function needsVisit(link: ResolvedLink, rawQuery: string): boolean {
  return link.rules.length > 0 || link.variants.length > 0 || (link.forwardQuery && rawQuery !== '')
}

/** The facts rules read about one visit, each worked out on first use (one object, no closures). */
class VisitFacts implements Facts {
  private agent?: { device: string; os: string | null }
  private place?: string | null
  private byName?: Map<string, string[]>
  private plain?: boolean
  private wrapped?: string
  /** The visitor's pairs, parsed once for query rules and the forwarded query alike. */
  visitor?: Pair[]
  constructor(
    private readonly visit: Visit,
    private readonly countryOf: CountryOf,
  ) {}
  private ua() {
    const ua = this.visit.headers['user-agent']
    return (this.agent ??= ruleAgent(typeof ua === 'string' ? ua : ''))
  }
  device() {
    return this.ua().device
  }
  os() {
    return this.ua().os
  }
  country() {
    return this.place === undefined ? (this.place = this.countryOf(this.visit.ip)) : this.place
  }
  language() {
    return primaryLanguage(this.visit.headers['accept-language'])
  }
  plainQuery() {
    return (this.plain ??= PLAIN_QUERY.test(this.visit.rawQuery))
  }
  ampersanded() {
    return (this.wrapped ??= `&${this.visit.rawQuery}&`)
  }
  query() {
    if (!this.byName) {
      this.byName = new Map()
      for (const p of (this.visitor ??= pairs(this.visit.rawQuery))) {
        const eq = p.raw.indexOf('=')
        const v = eq === -1 ? '' : decode(p.raw.slice(eq + 1))
        const values = this.byName.get(p.name)
        if (values) values.push(v)
        else this.byName.set(p.name, [v])
      }
    }
    return this.byName
  }
}

/**
 * The URL this visit goes to: the first matching rule's destination, else `otherwise()` (the
 * visit's variant) or the link's destination; the visitor's query merged.
 */
export function targetOf(
  link: ResolvedLink,
  visit: Visit,
  countryOf: CountryOf,
  otherwise?: () => string,
): string {
  let destination: string | undefined
  const plan = planOf(link)
  let facts: VisitFacts | undefined
  if (plan.rules.length) {
    facts = new VisitFacts(visit, countryOf)
    for (const r of plan.rules)
      if (r.test(facts)) {
        destination = r.destinationUrl
        break
      }
  }
  destination ??= otherwise ? otherwise() : link.destinationUrl
  return link.forwardQuery && visit.rawQuery !== ''
    ? forwardQuery(destination, visit.rawQuery, facts?.visitor)
    : destination
}

/**
 * The destination with the visitor's query merged in: every pair of a name the visitor sends
 * replaces all of the destination's pairs of that name, the visitor's pairs keep their encoding
 * and come after the destination's, `qr` is never forwarded, the fragment stays at the end.
 */
export function forwardQuery(destination: string, rawQuery: string, parsed?: Pair[]): string {
  // The common case: a destination without query or fragment, a visitor query with nothing
  // encoded, no empty pair and no `qr` anywhere: the result is the two joined as they are.
  if (PLAIN_QUERY.test(rawQuery) && !rawQuery.includes(QR_MARKER) && !/[?#]/.test(destination))
    return `${destination}?${rawQuery}`
  const visitor = (parsed ?? pairs(rawQuery)).filter((p) => p.name !== QR_MARKER)
  if (!visitor.length) return destination
  const hashAt = destination.indexOf('#')
  const fragment = hashAt === -1 ? '' : destination.slice(hashAt)
  const beforeFragment = hashAt === -1 ? destination : destination.slice(0, hashAt)
  const q = beforeFragment.indexOf('?')
  const base = q === -1 ? beforeFragment : beforeFragment.slice(0, q)
  const names = new Set(visitor.map((p) => p.name))
  const kept = q === -1 ? [] : pairs(beforeFragment.slice(q + 1)).filter((p) => !names.has(p.name))
  return `${base}?${[...kept, ...visitor].map((p) => p.raw).join('&')}${fragment}`
}
