/**
 * OpenAPI-driven fuzzing: the operations of an OpenAPI 3.0 document, a valid-looking baseline
 * request for each (from its schemas and the caller's hints), and hostile variants of it derived
 * from the same schemas. Pure and seeded: the same seed and hints give the same requests.
 */
import { prng } from './prng.js'

/** A JSON token written verbatim (values JSON.stringify cannot produce: 1e999, lone surrogates…). */
export class RawJson {
  constructor(readonly text: string) {}
}
export type Val = null | boolean | number | string | RawJson | Val[] | { [k: string]: Val }

export interface Schema {
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  additionalProperties?: boolean | Schema
  enum?: unknown[]
  const?: unknown
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number | boolean
  exclusiveMaximum?: number | boolean
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  pattern?: string
  format?: string
  nullable?: boolean
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  $ref?: string
  example?: unknown
  default?: unknown
}
interface ParamObject {
  name: string
  in: string
  required?: boolean
  schema?: Schema
}
interface OpObject {
  parameters?: ParamObject[]
  requestBody?: { content?: Record<string, { schema?: Schema }> }
  security?: Array<Record<string, string[]>>
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, unknown> }
}

export interface Operation {
  /** `METHOD /path/{param}`: how the fuzz test names an operation (no operationId needed). */
  name: string
  method: string
  path: string
  params: ParamObject[]
  body?: Schema
  /** Names of the security schemes the operation accepts (empty: public). */
  security: string[]
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']

export function operations(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = (item.parameters as ParamObject[] | undefined) ?? []
    for (const [m, raw] of Object.entries(item)) {
      if (!METHODS.includes(m)) continue
      const op = raw as OpObject
      const params = [...shared, ...(op.parameters ?? [])]
      const body = op.requestBody?.content?.['application/json']?.schema
      const security = (op.security ?? []).flatMap((s) => Object.keys(s))
      const method = m.toUpperCase()
      out.push({ name: `${method} ${path}`, method, path, params, ...(body ? { body } : {}), security })
    }
  }
  return out
}

/** Resolves `$ref` (`#/components/schemas/X` or fastify-swagger's `X#`) and merges `allOf`. */
export function resolve(doc: OpenApiDoc, s: Schema | undefined): Schema {
  let cur: Schema = s ?? {}
  for (let i = 0; cur.$ref && i < 20; i++) {
    const name = cur.$ref.replace(/^#\/components\/schemas\//, '').replace(/#$/, '')
    cur = doc.components?.schemas?.[name] ?? {}
  }
  if (cur.allOf) {
    const merged: Schema = { ...cur, allOf: undefined }
    for (const part of cur.allOf.map((p) => resolve(doc, p))) {
      Object.assign(merged, part, {
        properties: { ...merged.properties, ...part.properties },
        required: [...(merged.required ?? []), ...(part.required ?? [])],
      })
    }
    return merged
  }
  return cur
}

/** The first alternative of anyOf/oneOf that is not just null (what a baseline sends). */
export function primary(doc: OpenApiDoc, s: Schema | undefined): Schema {
  const r = resolve(doc, s)
  const alts = r.anyOf ?? r.oneOf
  if (!alts) return r
  return resolve(doc, alts.find((a) => resolve(doc, a).type !== 'null') ?? alts[0])
}

export function typeOf(s: Schema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null')
  if (s.type) return s.type
  if (s.properties) return 'object'
  if (s.items) return 'array'
  if (s.enum?.length) return typeof s.enum.find((e) => e !== null)
  return undefined
}

function matches(s: Schema, v: string): boolean {
  if (s.minLength !== undefined && v.length < s.minLength) return false
  if (s.maxLength !== undefined && v.length > s.maxLength) return false
  if (!s.pattern) return true
  try {
    return new RegExp(s.pattern, 'u').test(v)
  } catch {
    return new RegExp(s.pattern).test(v)
  }
}

const STRING_CANDIDATES = [
  'fuzz',
  'Fuzz value',
  'fuzz-1',
  'abc',
  'https://example.com/fuzz',
  'DELETE',
  '2026-11-01',
  `sha256=${'0'.repeat(64)}`,
  'a',
]
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2027-06-01T00:00:00.000Z',
  date: '2026-11-01',
  uri: 'https://example.com/fuzz',
  url: 'https://example.com/fuzz',
  email: 'fuzz@example.com',
}

/** Values the caller knows better than the schema (real ids, a receiver URL), by field name. */
export type Hints = (field: string, path: string[]) => Val | undefined

/** A value the schema accepts, as far as a schema can tell (hints first). */
export function sample(doc: OpenApiDoc, schema: Schema | undefined, hints: Hints, path: string[] = []): Val {
  const field = path[path.length - 1]
  const hinted = field === undefined ? undefined : hints(field, path)
  if (hinted !== undefined) return hinted
  const s = primary(doc, schema)
  if (s.const !== undefined) return s.const as Val
  const e = s.enum?.find((v) => v !== null)
  if (e !== undefined) return e as Val
  switch (typeOf(s)) {
    case 'object': {
      const o: Record<string, Val> = {}
      // An update body with no required field still needs one (its first) to mean something.
      const first = Object.keys(s.properties ?? {})[0]
      const keys = s.required?.length ? [...s.required] : first !== undefined ? [first] : []
      // Optional fields the caller has a value for (a webhook's events) make a useful baseline.
      for (const k of Object.keys(s.properties ?? {}))
        if (!keys.includes(k) && hints(k, [...path, k]) !== undefined) keys.push(k)
      for (const k of keys) o[k] = sample(doc, s.properties?.[k], hints, [...path, k])
      return o
    }
    case 'array': {
      const n = Math.max(s.minItems ?? 0, 1)
      return Array.from({ length: n }, (_, i) => sample(doc, s.items, hints, [...path, String(i)]))
    }
    case 'integer':
    case 'number': {
      const min = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : (s.minimum ?? 1)
      return typeof s.default === 'number' ? s.default : Math.min(min, s.maximum ?? min)
    }
    case 'boolean':
      return true
    case 'string': {
      const fmt = s.format ? FORMAT_SAMPLES[s.format] : undefined
      const candidates = [s.example, s.default, fmt, ...STRING_CANDIDATES].filter(
        (c): c is string => typeof c === 'string',
      )
      const ok = candidates.find((c) => matches(s, c))
      if (ok !== undefined) return ok
      return 'a'.repeat(Math.max(1, s.minLength ?? 1)).slice(0, s.maxLength ?? Infinity)
    }
    default:
      return 'fuzz'
  }
}

/** A deep copy of `root` with `value` at `path` (objects created on the way), or the key removed. */
export function setAt(root: Val, path: string[], value: Val | typeof REMOVE): Val {
  if (path.length === 0) return value === REMOVE ? null : value
  const [head, ...rest] = path as [string, ...string[]]
  if (Array.isArray(root)) {
    const copy = [...root]
    const i = Number(head)
    if (rest.length === 0 && value === REMOVE) copy.splice(i, 1)
    else copy[i] = setAt(copy[i] ?? {}, rest, value)
    return copy
  }
  const obj: Record<string, Val> =
    root !== null && typeof root === 'object' && !(root instanceof RawJson) ? { ...root } : {}
  if (rest.length === 0 && value === REMOVE) delete obj[head]
  else obj[head] = setAt(obj[head] ?? (/^\d+$/.test(rest[0] ?? '') ? [] : {}), rest, value)
  return obj
}
export const REMOVE = Symbol('remove')

/** JSON text of a value; RawJson tokens go in verbatim (JSON.stringify would refuse or alter them). */
export function serialize(v: Val): string {
  if (v instanceof RawJson) return v.text
  if (Array.isArray(v)) return `[${v.map(serialize).join(',')}]`
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${serialize(x)}`)
      .join(',')}}`
  return JSON.stringify(v) ?? 'null'
}

/** A field of a body: its path and, when the document describes it, its schema. */
export interface Target {
  path: string[]
  schema?: Schema
  required: boolean
}

/** Every field reachable in the body schema (4 levels) and every field of the baseline body. */
export function targets(doc: OpenApiDoc, schema: Schema | undefined, baseline: Val | undefined): Target[] {
  const out = new Map<string, Target>()
  const walk = (s: Schema | undefined, path: string[], depth: number) => {
    const r = primary(doc, s)
    if (depth > 4) return
    if (typeOf(r) === 'object')
      for (const [k, p] of Object.entries(r.properties ?? {})) {
        const sub = [...path, k]
        out.set(sub.join('.'), { path: sub, schema: p, required: (r.required ?? []).includes(k) })
        walk(p, sub, depth + 1)
      }
    if (typeOf(r) === 'array' && r.items) {
      const sub = [...path, '0']
      out.set(sub.join('.'), { path: sub, schema: r.items, required: (r.minItems ?? 0) > 0 })
      walk(r.items, sub, depth + 1)
    }
  }
  walk(schema, [], 0)
  const walkVal = (v: Val, path: string[]) => {
    if (v === null || typeof v !== 'object' || v instanceof RawJson) return
    for (const [k, x] of Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v)) {
      const sub = [...path, k]
      if (!out.has(sub.join('.'))) out.set(sub.join('.'), { path: sub, required: false })
      walkVal(x, sub)
    }
  }
  if (baseline !== undefined) walkVal(baseline, [])
  return [...out.values()]
}

/** FNV-1a: a per-operation seed from the run's seed and the operation's name. */
export function seedFor(seed: number, name: string): number {
  let h = 0x811c9dc5 ^ seed
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193)
  return h >>> 0
}

export type Rng = () => number
export function rngFor(seed: number, name: string): Rng {
  return prng(seedFor(seed, name))
}
export function pick<T>(rng: Rng, xs: readonly T[]): T {
  if (xs.length === 0) throw new Error('pick from an empty list')
  return xs[Math.floor(rng() * xs.length)] as T
}
