/** Validator issues in words: ajv's errors → the `{field, message}` details of a 400. */
import { DATE_TIME_WORDS, DATE_WORDS, patternMessage } from '../../src/contract/text.js'
import { plural } from '../../src/contract/numbers.js'

/** One problem of a 400's `details`: the field (a dotted path) and what is wrong with it. */
export interface ErrorDetail {
  field: string
  message: string
}

/** One ajv validation error, as fastify passes it. */
export interface AjvIssue {
  instancePath?: string
  schemaPath?: string
  keyword?: string
  message?: string
  params?: Record<string, unknown>
  /** Appended to the message in words (the one-value alternatives of an anyOf). */
  suffix?: string
}

/** The value at a JSON pointer (`/links/0/destinationUrl`) in what was validated. */
function valueAt(root: unknown, pointer: string): unknown {
  let value = root
  for (const part of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return value
}

/** The schema of the value at a JSON pointer, walking `properties` and `items`; undefined when unknown. */
function schemaAt(schema: unknown, pointer: string): Record<string, unknown> | undefined {
  let s = schema as Record<string, unknown> | undefined
  for (const part of pointer.split('/').slice(1)) {
    if (!s || typeof s !== 'object') return undefined
    const props = s.properties as Record<string, unknown> | undefined
    s = (props?.[part.replaceAll('~1', '/').replaceAll('~0', '~')] ?? s.items) as
      Record<string, unknown> | undefined
  }
  return s && typeof s === 'object' ? s : undefined
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
}

const FORMAT_WORDS: Record<string, string> = {
  'date-time': DATE_TIME_WORDS,
  date: DATE_WORDS,
  uri: 'a URL',
  url: 'a URL',
  email: 'an email address',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
}

/**
 * The validator's wording ("must NOT have fewer than 3 characters", "must be >= 1") in words
 * ("must be at least 3 characters"); undefined for keywords put in words elsewhere or unknown.
 */
function keywordMessage(keyword: string | undefined, p: Record<string, unknown>): string | undefined {
  switch (keyword) {
    case 'minLength':
      return `must be at least ${plural(Number(p.limit), 'character')}`
    case 'maxLength':
      return `must be at most ${plural(Number(p.limit), 'character')}`
    case 'minItems':
      return `must have at least ${plural(Number(p.limit), 'item')}`
    case 'maxItems':
      return `must have at most ${plural(Number(p.limit), 'item')}`
    case 'minProperties':
      return `must have at least ${plural(Number(p.limit), 'field')}`
    case 'maxProperties':
      return `must have at most ${plural(Number(p.limit), 'field')}`
    case 'minimum':
      return `must be at least ${String(p.limit)}`
    case 'maximum':
      return `must be at most ${String(p.limit)}`
    case 'exclusiveMinimum':
      return `must be greater than ${String(p.limit)}`
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`
    case 'uniqueItems':
      return 'must not repeat an item'
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`
    case 'format':
      return typeof p.format === 'string'
        ? `must be ${FORMAT_WORDS[p.format] ?? `a valid ${p.format}`}`
        : undefined
    case 'type': {
      // Without params.type the message is already in words (see lazy-compilers.ts).
      const types = Array.isArray(p.type) ? p.type : typeof p.type === 'string' ? p.type.split(',') : []
      if (!types.length) return undefined
      return `must be ${types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ')}`
    }
  }
  return undefined
}

/** What a one-value alternative of an anyOf accepts, in words: `null`, `empty`. */
function trivialAlternative(branch: AjvIssue[]): string | undefined {
  if (branch.length !== 1) return undefined
  const [e] = branch
  if (e?.keyword === 'type' && e.params?.type === 'null') return 'null'
  if (e?.keyword === 'const')
    return e.params?.allowedValue === '' ? 'empty' : JSON.stringify(e.params?.allowedValue)
  return undefined
}

/**
 * An anyOf/oneOf failure reported as one problem: ajv lists every alternative's errors plus "must
 * match a schema in anyOf". The errors of the real alternatives are kept, a one-value alternative
 * (null, '') is appended to them in words (`must be at least 3 characters, or empty`), and
 * alternatives that failed only on their type become one `must be a string or a whole number`,
 * those that failed only on their format one `must be a date and time such as … or a date such as …`.
 */
function collapseAlternatives(issues: AjvIssue[]): AjvIssue[] {
  let out = issues
  for (const alt of issues.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')) {
    const prefix = `${alt.schemaPath ?? ''}/`
    const branches = new Map<string, AjvIssue[]>()
    for (const e of out)
      if (e.schemaPath?.startsWith(prefix)) {
        const i = e.schemaPath.slice(prefix.length).split('/')[0] ?? ''
        branches.set(i, [...(branches.get(i) ?? []), e])
      }
    if (branches.size === 0) continue
    const trivial: string[] = []
    const real: AjvIssue[][] = []
    for (const branch of branches.values()) {
      const words = trivialAlternative(branch)
      if (words) trivial.push(words)
      else real.push(branch)
    }
    const typeOnly = real.every((b) => b.every((e) => e.keyword === 'type' && e.params?.type))
    // Each alternative's one format in words, `must be ` dropped (undefined: not only formats).
    const formats = real.map((b) =>
      b.length === 1 && b[0]!.keyword === 'format'
        ? keywordMessage('format', b[0]!.params ?? {})?.replace(/^must be /, '')
        : undefined,
    )
    let kept: AjvIssue[] = real.flat()
    if (typeOnly && real.length > 0)
      kept = [{ ...alt, keyword: 'type', params: { type: real.flat().map((e) => String(e.params!.type)) } }]
    else if (real.length > 1 && formats.every((w) => w !== undefined))
      kept = [{ ...alt, keyword: 'alternatives', message: `must be ${formats.join(' or ')}` }]
    const or = trivial.length ? `, or ${trivial.join(' or ')}` : ''
    const merged = kept.length
      ? kept.map((e) => ({ ...e, suffix: or }))
      : [{ ...alt, keyword: 'alternatives', message: `must be ${trivial.join(' or ')}` }]
    const drop = new Set([alt, ...[...branches.values()].flat()])
    const at = out.indexOf(alt)
    out = [
      ...out.slice(0, at).filter((e) => !drop.has(e)),
      ...merged,
      ...out.slice(at + 1).filter((e) => !drop.has(e)),
    ]
  }
  return out
}

/**
 * ajv issues → `{field, message}` with the field as a dotted path (`permissions.0`), every
 * message in words (the one place the validator's wording is replaced). `root` is what was
 * validated (the body, the query): a failed pattern is put in words, with a suggestion drawn from
 * the value when there is one, never as the regular expression. `schema`, the schema it was
 * validated against: a missing field with a set of values names them.
 */
export function validationDetails(
  issues: AjvIssue[],
  context: string | undefined,
  root?: unknown,
  schema?: unknown,
): ErrorDetail[] {
  const seen = new Set<string>()
  const out: ErrorDetail[] = []
  const query = context === 'querystring'
  const all = collapseAlternatives(issues)
  // A value outside a set of values gets that set; its type problem ("must be a whole number")
  // would only repeat less of it.
  const listed = new Set(all.filter((e) => e.keyword === 'enum').map((e) => e.instancePath ?? ''))
  for (const e of all) {
    const path = e.instancePath ?? ''
    const repeated =
      query &&
      (e.keyword === 'type' || e.keyword === 'enum') &&
      Array.isArray(valueAt(root, path)) &&
      schemaAt(schema, path)?.type !== 'array'
    if (e.keyword === 'type' && listed.has(path) && !repeated) continue
    let field = path.replace(/^\//, '').replaceAll('/', '.')
    const params = e.params ?? {}
    let message = e.message ?? 'is invalid'
    if (repeated) {
      // `?limit=1&limit=2` reaches the schema as an array: every problem it has is this one.
      message = 'is given more than once: give it once'
    } else if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
      field = field ? `${field}.${params.missingProperty}` : params.missingProperty
      const values = schemaAt(schema, `${e.instancePath ?? ''}/${params.missingProperty}`)?.enum
      message = Array.isArray(values) ? `is required: one of ${values.join(', ')}` : 'is required'
    } else if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      field = field ? `${field}.${params.additionalProperty}` : params.additionalProperty
      message = query ? 'is not a known query parameter' : 'is not a known field'
    } else if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      message = `must be one of: ${params.allowedValues.join(', ')}`
    } else if (e.keyword === 'pattern' && typeof params.pattern === 'string') {
      // Else the field's own description says what it takes (`S3 bucket name: 3-63 lower-case …`).
      const described = schemaAt(schema, e.instancePath ?? '')?.description
      message =
        patternMessage(params.pattern, valueAt(root, e.instancePath ?? '')) ??
        `has an invalid format${typeof described === 'string' ? ` (${described})` : ''}`
    } else {
      message = keywordMessage(e.keyword, params) ?? message
    }
    message += e.suffix ?? ''
    if (!field) field = context === 'body' ? 'body' : (context ?? 'request')
    const key = `${field}\u0000${message}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ field, message })
  }
  return out
}
