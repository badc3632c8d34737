import type { FastifyInstance } from 'fastify'
import { BODY_NESTING_MAX } from '../../src/contract/limits.js'
import { AppError } from './errors.js'

/**
 * Whether a JSON value nests objects and arrays more than `max` levels deep (the value itself is
 * level 1 when it is an object or array). Iterative, and it stops at the first level too many:
 * JSON.parse accepts any depth, but every recursive walk after it (JSON.stringify, canonical JSON
 * for idempotency, response serialization) overflows the stack somewhere past ~10,000 levels.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false
  if (max < 1) return true
  const stack: Array<{ v: object; depth: number }> = [{ v: value, depth: 1 }]
  for (let top = stack.pop(); top; top = stack.pop()) {
    const children: unknown[] = Array.isArray(top.v) ? top.v : Object.values(top.v)
    for (const child of children) {
      if (child === null || typeof child !== 'object') continue
      if (top.depth + 1 > max) return true
      stack.push({ v: child, depth: top.depth + 1 })
    }
  }
  return false
}

/** The human message of a value nested too deeply. */
export const nestingMessage = (max: number) => `must not be nested more than ${max} levels deep`

/**
 * The field of a parsed request body that nests more than BODY_NESTING_MAX levels: a top-level
 * key, or `body` when the body itself is an array too deep; undefined when the body is fine.
 */
export function tooDeepField(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined
  if (Array.isArray(body)) return nestedDeeperThan(body, BODY_NESTING_MAX) ? 'body' : undefined
  for (const [key, value] of Object.entries(body)) if (nestedDeeperThan(value, BODY_NESTING_MAX)) return key
  return undefined
}

/**
 * Replaces the app's JSON body parser by Fastify's own followed by the nesting check, so that a
 * body too deep is a 400 naming its field before any hook (idempotency hashing) or validation
 * walks it. An empty body is no body (clients send the header on a DELETE too); a route that
 * needs one says so. Encapsulated plugins with their own parser (ingestion) check their bodies
 * themselves.
 */
export function installBodyNestingLimit(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined)
    parse(request, body as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined)
      const field = tooDeepField(value)
      if (field === undefined) return done(null, value)
      const message = nestingMessage(BODY_NESTING_MAX)
      done(new AppError('ValidationError', `${field} ${message}`, [{ field, message }]), undefined)
    })
  })
}

/** A value that validated but cannot be stored as given: where it is, and why. */
export interface UnstorableValue {
  /** JSON pointer (`/requestLimit`, `/metadata/n/1`). */
  path: string
  message: string
  /** The type the schema takes there, when the value is a refused null. */
  type?: unknown
}

const NOT_FINITE = 'must be a finite number'
const HOLDS_NUL = 'must not contain the NUL character (\\u0000)'

/**
 * Validated input no store can take as given: non-finite numbers (`1e400`, or querystring text
 * ajv coerces to Infinity, which skip minimum/maximum) and text holding NUL (PostgreSQL refuses it; refused on
 * both engines alike). Iterative, so deep input cannot exhaust the stack.
 */
export function unstorableValues(data: unknown): UnstorableValue[] {
  const found: UnstorableValue[] = []
  const stack: Array<[unknown, string]> = [[data, '']]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, path] = next
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) found.push({ path, message: NOT_FINITE })
    } else if (typeof v === 'string') {
      if (v.includes('\u0000')) found.push({ path, message: HOLDS_NUL })
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}/${i}`])
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const child = `${path}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`
        if (k.includes('\u0000')) found.push({ path: child, message: HOLDS_NUL })
        else stack.push([x, child])
      }
    }
  }
  return found
}

/** A JSON schema, as the routes give them (TypeBox objects, plain JSON). */
type SchemaNode = Record<string, unknown>

/** Whether `schema` accepts null: a `null` type, `nullable`, an alternative that does, or no type. */
function takesNull(schema: SchemaNode): boolean {
  if (schema.nullable === true) return true
  const type = schema.type
  if (type !== undefined) return type === 'null' || (Array.isArray(type) && type.includes('null'))
  if (Array.isArray(schema.enum)) return schema.enum.includes(null)
  if ('const' in schema) return schema.const === null
  for (const k of ['anyOf', 'oneOf'] as const) {
    const alternatives = schema[k]
    if (Array.isArray(alternatives)) return alternatives.some((s) => !isSchema(s) || takesNull(s))
  }
  return true
}

const isSchema = (s: unknown): s is SchemaNode => s !== null && typeof s === 'object' && !Array.isArray(s)

/**
 * A body's `null` values where its schema takes none (type coercion once turned them into "", 0,
 * false or [""]: `forwardQuery: null` read as false). An optional field given as null is left out (deleted from `data`: null means not
 * given, as an absent field); any other such null is returned, refused with the type its place
 * takes (`params.type`, put in words by validation-details.ts). Follows `properties` and `items`;
 * iterative.
 */
export function settleNulls(schema: unknown, data: unknown): UnstorableValue[] {
  const found: UnstorableValue[] = []
  const refuse = (s: SchemaNode, path: string) =>
    found.push({ path, message: 'must not be null', type: s.type })
  if (data === null && isSchema(schema) && !takesNull(schema)) refuse(schema, '')
  const stack: Array<[unknown, unknown, string]> = [[schema, data, '']]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [s, v, path] = next
    if (!isSchema(s) || v === null || typeof v !== 'object') continue
    const children: Array<[SchemaNode, string | number, unknown]> = []
    if (Array.isArray(v)) {
      if (isSchema(s.items)) for (const [i, x] of v.entries()) children.push([s.items, i, x])
    } else if (isSchema(s.properties)) {
      const properties = s.properties
      const required = Array.isArray(s.required) ? s.required : []
      for (const [k, x] of Object.entries(v as object)) {
        const p = properties[k]
        if (!Object.hasOwn(properties, k) || !isSchema(p)) continue
        if (x === null && !takesNull(p) && !required.includes(k)) delete (v as Record<string, unknown>)[k]
        else children.push([p, k, x])
      }
    }
    for (const [c, key, x] of children.reverse()) {
      const at = `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`
      if (x === null) {
        if (!takesNull(c)) refuse(c, at)
      } else stack.push([c, x, at])
    }
  }
  return found.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0))
}
