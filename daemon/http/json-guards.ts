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
 * walks it. Encapsulated plugins with their own parser (ingestion) check their bodies themselves.
 */
export function installBodyNestingLimit(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined)
      const field = tooDeepField(value)
      if (field === undefined) return done(null, value)
      const message = nestingMessage(BODY_NESTING_MAX)
      done(new AppError('ValidationError', `${field} ${message}`, [{ field, message }]), undefined)
    })
  })
}

/**
 * The JSON pointer of the first number in `value` that is not finite, or undefined. JSON has no
 * Infinity, but `1e400` parses to it, and ajv's type coercion turns a query or body string such
 * as "1e400" into Infinity and then skips minimum/maximum for it.
 */
export function nonFinitePointer(value: unknown): string | undefined {
  interface Node {
    v: unknown
    key: string
    parent: Node | undefined
  }
  const pointer = (n: Node): string => {
    const parts: string[] = []
    for (let at: Node | undefined = n; at?.parent; at = at.parent)
      parts.push(`/${at.key.replaceAll('~', '~0').replaceAll('/', '~1')}`)
    return parts.reverse().join('')
  }
  const root: Node = { v: value, key: '', parent: undefined }
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : ''
  const stack: Node[] = [root]
  /** Checks one child: a bad number ends the walk, an object or array is walked later. */
  const visit = (c: unknown, key: string, parent: Node): string | undefined => {
    if (typeof c === 'number') return Number.isFinite(c) ? undefined : pointer({ v: c, key, parent })
    if (c !== null && typeof c === 'object') stack.push({ v: c, key, parent })
    return undefined
  }
  for (let top = stack.pop(); top; top = stack.pop()) {
    const v = top.v
    if (v === null || typeof v !== 'object') continue
    let found: string | undefined
    if (Array.isArray(v))
      for (let i = 0; i < v.length && found === undefined; i++) found = visit(v[i], String(i), top)
    else
      for (const k in v) {
        if (Object.hasOwn(v, k)) found = visit((v as Record<string, unknown>)[k], k, top)
        if (found !== undefined) break
      }
    if (found !== undefined) return found
  }
  return undefined
}
