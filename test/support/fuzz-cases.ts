/**
 * Hostile requests for one OpenAPI operation: wrong types, boundaries ±1, huge and deeply nested
 * values, hostile unicode, missing and unknown fields, junk bodies and content types, junk path
 * and query parameters and headers, missing or junk credentials. Every case names its generator
 * (`kind`) and the field it changed (`target`), which is what a failure report and the known-issue
 * list refer to.
 */
import {
  REMOVE,
  pick,
  primary,
  resolve,
  rngFor,
  sample,
  serialize,
  setAt,
  targets,
  typeOf,
  type Hints,
  type OpenApiDoc,
  type Operation,
  type Schema,
  type Target,
  type Val,
} from './openapi-fuzz.js'
import {
  AUTH_JUNK,
  CONTENT_TYPES,
  HEADER_JUNK,
  HOSTILE_STRINGS,
  HUGE,
  HUGE_NUMBERS,
  JUNK_BODIES,
  KB,
  MISC_HEADERS,
  PATH_JUNK,
  QUERY_JUNK,
  WRONG_TYPES,
  boundaries,
  deep,
  queryBoundaries,
  semanticValues,
} from './fuzz-values.js'

export interface FuzzRequest {
  method: string
  url: string
  headers: Record<string, string>
  payload?: string
}
export interface Case {
  index: number
  kind: string
  /** The field, parameter or header the case changed ('' when the whole request). */
  target: string
  request: FuzzRequest
}

/** What the fuzz test knows about the world: real ids, credentials, fixtures. */
export interface FuzzContext {
  /** Value of a path parameter that names a real resource of the caller. */
  pathParam(name: string, path: string): string
  /** Value of a path parameter naming another organization's (or another type's) resource. */
  foreignParam(name: string, path: string): string
  /** Credentials the operation needs (API key or SDK key headers). */
  auth(op: Operation): Record<string, string>
  hints: Hints
  /** Credentials of a key whose rate limit is used up (every request 429), when the route takes one. */
  limitedAuth?(op: Operation): Record<string, string> | undefined
  /** Request headers the route reads that the document does not list yet (attacked like those). */
  extraHeaders?(op: Operation): string[]
  /** A baseline body the schema alone cannot give (unique ids, current timestamps). */
  baselineBody?(op: Operation): Val | undefined
}

interface Built {
  path: Record<string, string>
  query: Array<[string, string]>
  rawQuery: string
  headers: Record<string, string>
  body: Val | undefined
  /** A body text that replaces the serialized body (junk JSON). */
  payload?: string | null
}

function url(op: Operation, b: Built): string {
  const p = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => b.path[name] ?? 'missing')
  const q = b.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
  if (b.rawQuery) q.push(b.rawQuery)
  return q.length ? `${p}?${q.join('&')}` : p
}

/** Dates, URLs, host names or IP ranges when a body field is one of those (else undefined). */
function semanticOf(doc: OpenApiDoc, t: Target): readonly string[] | undefined {
  const s = primary(doc, t.schema)
  if (typeOf(s) !== 'string') return undefined
  const name = [...t.path].reverse().find((seg) => !/^\d+$/.test(seg)) ?? ''
  return semanticValues(name, s)
}

/** The kinds of case an operation gets, in the order they rotate. */
export function kindsFor(
  doc: OpenApiDoc,
  op: Operation,
  hasBody: boolean,
  fields: Target[],
  headers: string[],
  limited: boolean,
): string[] {
  const k = ['baseline']
  const params = (where: string) => op.params.filter((p) => p.in === where)
  if (hasBody)
    k.push(
      'body.wrongType',
      'body.boundary',
      'body.hugeString',
      'body.hugeNumber',
      'body.deepNested',
      'body.unicode',
      'body.missingRequired',
      'body.unknownField',
      'body.null',
      'body.junk',
      'body.empty',
      'body.contentType',
    )
  else if (op.method !== 'GET') k.push('body.unexpected')
  if (fields.some((f) => semanticOf(doc, f))) k.push('body.semantic')
  if (params('query').length)
    k.push(
      'query.wrongType',
      'query.boundary',
      'query.hugeNumber',
      'query.huge',
      'query.unicode',
      'query.repeated',
      'query.unknown',
      'query.raw',
    )
  if (params('query').some((p) => semanticValues(p.name, primary(doc, p.schema)))) k.push('query.semantic')
  if (params('path').length) k.push('path.junk', 'path.foreign')
  if (headers.length) k.push('header.junk')
  k.push('auth.none', 'auth.junk', 'header.misc', 'method.other')
  if (limited) k.push('auth.limited')
  if (op.method !== 'GET') k.push('header.idempotency', 'idempotency.deepBody')
  return k
}

/** `count` cases for one operation; the same seed and context give the same cases. */
export function generateCases(
  doc: OpenApiDoc,
  op: Operation,
  ctx: FuzzContext,
  seed: number,
  count: number,
): Case[] {
  const rng = rngFor(seed, op.name)
  const bodySchema = op.body ? resolve(doc, op.body) : undefined
  const baseBody: Val | undefined =
    ctx.baselineBody?.(op) ?? (bodySchema ? sample(doc, bodySchema, ctx.hints) : undefined)
  const hasBody = baseBody !== undefined
  const fields = hasBody ? targets(doc, bodySchema, baseBody) : []
  const queryParams = op.params.filter((p) => p.in === 'query')
  const headerParams = op.params.filter((p) => p.in === 'header')
  const headerNames = [
    ...new Set([...headerParams.map((h) => h.name.toLowerCase()), ...(ctx.extraHeaders?.(op) ?? [])]),
  ]
  const kinds = kindsFor(doc, op, hasBody, fields, headerNames, !!ctx.limitedAuth?.(op))
  const otherMethods = Object.keys(doc.paths[op.path] ?? {}).map((m) => m.toUpperCase())
  const cases: Case[] = []

  for (let index = 0; index < count; index++) {
    const kind = kinds[index % kinds.length] as string
    const b: Built = {
      path: Object.fromEntries(
        op.params.filter((p) => p.in === 'path').map((p) => [p.name, ctx.pathParam(p.name, op.path)]),
      ),
      query: queryParams
        .filter((p) => p.required)
        .map((p) => [p.name, String(sampleQuery(doc, p.schema, ctx.hints, p.name))]),
      rawQuery: '',
      headers: { ...ctx.auth(op) },
      body: baseBody,
    }
    for (const h of headerParams)
      if (h.required && !(h.name.toLowerCase() in b.headers))
        b.headers[h.name.toLowerCase()] = String(sampleQuery(doc, h.schema, ctx.hints, h.name))
    let target = ''
    const field = (): Target => {
      const t = pick(rng, fields.length ? fields : [{ path: ['fuzz'], required: false }])
      target = t.path.join('.')
      return t
    }
    /** Mostly a field of one of these types (where the value means something), sometimes any. */
    const fieldOf = (...types: string[]): Target => {
      const typed = fields.filter((f) => types.includes(typeOf(primary(doc, f.schema)) ?? ''))
      if (!typed.length || rng() < 0.25) return field()
      const t = pick(rng, typed)
      target = t.path.join('.')
      return t
    }
    const setField = (t: Target, v: Val | typeof REMOVE) => {
      b.body = setAt(b.body ?? {}, t.path, v)
    }
    const qparam = () => {
      const p = pick(rng, queryParams)
      target = p.name
      return p
    }
    const setQuery = (name: string, v: string) => {
      b.query = [...b.query.filter(([k]) => k !== name), [name, v]]
    }
    switch (kind) {
      case 'baseline':
        break
      case 'body.wrongType': {
        const t = field()
        const type = typeOf(primary(doc, t.schema)) ?? 'any'
        setField(t, pick(rng, WRONG_TYPES[type] ?? (WRONG_TYPES.any as Val[])))
        break
      }
      case 'body.boundary': {
        const withBounds = fields.filter(
          (f) => f.schema && boundaries(doc, primary(doc, f.schema), ctx.hints).length,
        )
        const t = withBounds.length ? pick(rng, withBounds) : field()
        target = t.path.join('.')
        const values = t.schema ? boundaries(doc, primary(doc, t.schema), ctx.hints) : []
        setField(t, values.length ? pick(rng, values) : pick(rng, WRONG_TYPES.any as Val[]))
        break
      }
      case 'body.hugeString':
        setField(fieldOf('string'), HUGE)
        break
      case 'body.hugeNumber':
        setField(fieldOf('integer', 'number'), pick(rng, HUGE_NUMBERS))
        break
      case 'body.deepNested':
        setField(field(), deep(rng))
        break
      case 'body.unicode':
        setField(fieldOf('string'), pick(rng, HOSTILE_STRINGS))
        break
      case 'body.missingRequired': {
        const required = fields.filter((f) => f.required)
        const t = required.length ? pick(rng, required) : field()
        target = t.path.join('.')
        setField(t, REMOVE)
        break
      }
      case 'body.unknownField': {
        const objects = [
          [],
          ...fields.filter((f) => typeOf(primary(doc, f.schema)) === 'object').map((f) => f.path),
        ]
        const at = pick(rng, objects)
        const name = pick(rng, ['fuzzExtra', '__proto__', 'constructor', 'id', 'organizationId', ''])
        target = [...at, name].join('.')
        b.body = setAt(b.body ?? {}, [...at, name], pick(rng, ['x', 1, { isAdmin: true }, null]))
        break
      }
      case 'body.semantic': {
        const t = pick(
          rng,
          fields.filter((f) => semanticOf(doc, f)),
        )
        target = t.path.join('.')
        setField(t, pick(rng, semanticOf(doc, t) ?? []))
        break
      }
      case 'body.null':
        setField(field(), null)
        break
      case 'body.junk':
      case 'body.unexpected':
        if (rng() < 0.25) b.payload = serialize(deep(rng))
        else b.payload = pick(rng, JUNK_BODIES)
        break
      case 'body.empty':
        // An empty body declared as JSON, or no body and no content type at all.
        b.payload = rng() < 0.5 ? '' : null
        break
      case 'body.contentType':
        target = pick(rng, CONTENT_TYPES)
        b.headers['content-type'] = target
        break
      case 'query.wrongType': {
        const p = qparam()
        setQuery(p.name, pick(rng, ['abc', '1.5', '', 'true', '[]', '{}', '0x10', ' 1', '１', 'null']))
        break
      }
      case 'query.boundary': {
        const p = qparam()
        const values = queryBoundaries(primary(doc, p.schema))
        setQuery(p.name, values.length ? pick(rng, values) : '0')
        break
      }
      case 'query.hugeNumber':
        setQuery(
          qparam().name,
          pick(rng, ['1e308', '-1e308', '9007199254740993', 'NaN', 'Infinity', `1${'0'.repeat(400)}`, '-0']),
        )
        break
      case 'query.huge':
        setQuery(qparam().name, 'x'.repeat(100 * KB))
        break
      case 'query.unicode': {
        const v = pick(rng, HOSTILE_STRINGS)
        setQuery(qparam().name, typeof v === 'string' ? v : '\u202E')
        break
      }
      case 'query.repeated': {
        const p = qparam()
        const v = String(sampleQuery(doc, p.schema, ctx.hints, p.name))
        b.query.push([p.name, v], [p.name, v], [p.name, 'zz'])
        break
      }
      case 'query.unknown':
        target = pick(rng, ['fuzz', '__proto__', 'constructor', 'organizationId', 'page[]'])
        b.query.push([target, '1'])
        break
      case 'query.semantic': {
        const p = pick(
          rng,
          queryParams.filter((q) => semanticValues(q.name, primary(doc, q.schema))),
        )
        target = p.name
        setQuery(p.name, pick(rng, semanticValues(p.name, primary(doc, p.schema)) ?? []))
        break
      }
      case 'query.raw':
        target = pick(rng, QUERY_JUNK)
        b.rawQuery = target
        break
      case 'path.junk': {
        const p = pick(
          rng,
          op.params.filter((x) => x.in === 'path'),
        )
        target = p.name
        b.path[p.name] = pick(rng, PATH_JUNK)
        break
      }
      case 'path.foreign': {
        const p = pick(
          rng,
          op.params.filter((x) => x.in === 'path'),
        )
        target = p.name
        b.path[p.name] = ctx.foreignParam(p.name, op.path)
        break
      }
      case 'header.junk': {
        target = pick(rng, headerNames)
        b.headers[target] = pick(rng, HEADER_JUNK)
        break
      }
      case 'header.misc': {
        const h = pick(rng, MISC_HEADERS)
        target = Object.keys(h)[0] ?? ''
        Object.assign(b.headers, h)
        break
      }
      case 'method.other':
        // A method the document does not list for this path: 404 or 405, with the error body.
        target = pick(
          rng,
          ['PUT', 'PATCH', 'DELETE', 'POST', 'OPTIONS', 'GET'].filter((m) => !otherMethods.includes(m)),
        )
        break
      case 'auth.none':
        b.headers = Object.fromEntries(
          Object.entries(b.headers).filter(([k]) => k !== 'authorization' && k !== 'x-api-key'),
        )
        break
      case 'auth.junk': {
        const junk = pick(rng, AUTH_JUNK)
        target = Object.keys(junk)[0] ?? ''
        b.headers = Object.fromEntries(
          Object.entries(b.headers).filter(([k]) => k !== 'authorization' && k !== 'x-api-key'),
        )
        Object.assign(b.headers, junk)
        break
      }
      case 'auth.limited':
        b.headers = { ...b.headers, ...ctx.limitedAuth?.(op) }
        break
      case 'header.idempotency': {
        // Half the cases share one key with different bodies (422 or a replay), half send junk keys.
        const value = rng() < 0.5 ? `fuzz-${op.name}` : pick(rng, HEADER_JUNK)
        target = value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : value
        b.headers['x-idempotency-key'] = value
        if (fields.length) setField(pick(rng, fields), pick(rng, HOSTILE_STRINGS))
        break
      }
      case 'idempotency.deepBody':
        // The idempotency key hashes whatever body the route accepted: free-form fields, or the
        // ignored body of a route that takes none.
        b.headers['x-idempotency-key'] = `fuzz-deep-${index}`
        if (hasBody) {
          const free = fields.filter((f) => f.schema && !typeOf(primary(doc, f.schema)))
          const objects = fields.filter((f) => typeOf(primary(doc, f.schema)) === 'object')
          const t = pick(rng, free.length ? free : objects.length ? objects : fields)
          target = t.path.join('.')
          setField(t, deep(rng))
        } else b.payload = serialize(deep(rng))
        break
      default:
        throw new Error(`unknown fuzz kind ${kind}`)
    }
    const method = kind === 'method.other' ? target : op.method
    const request: FuzzRequest = { method, url: url(op, b), headers: b.headers }
    if (b.payload !== undefined) {
      if (b.payload !== null) request.payload = b.payload
    } else if (hasBody && b.body !== undefined) request.payload = serialize(b.body)
    if (request.payload !== undefined && !('content-type' in b.headers))
      b.headers['content-type'] = 'application/json'
    cases.push({ index, kind, target, request })
  }
  return cases
}

function sampleQuery(doc: OpenApiDoc, s: Schema | undefined, hints: Hints, name: string): Val {
  const hinted = hints(name, [name])
  if (hinted !== undefined) return hinted
  return sample(doc, s, () => undefined)
}
