/**
 * What a rule's `field` may name, and how its operator and value are checked against it (400s
 * naming the field) and compiled into a test of an event view (evaluate.ts).
 */
import { AppError } from '../../../http/errors.js'
import {
  FRAUD_LIMITS,
  THREAT_TYPES,
  type RuleOperator,
  type RuleValue,
  type ThreatType,
} from '../../../../src/contract/fraud.js'

/** The event as the rules see it: its attributes, data, device strings and the detector outputs. */
export interface EventView {
  playerId: string
  /** event_type, player_id, session_id, platform, country, ip, user_agent, device_fingerprint. */
  attributes: Readonly<Record<string, string | null>>
  data: Readonly<Record<string, unknown>> | null
  /** model, manufacturer, hardware, product, fingerprint (from data.device_* keys). */
  device: Readonly<Record<string, string | null>>
  scores: Readonly<Partial<Record<ThreatType, number>>>
  /** The composite risk score, 0-1. */
  risk: number
}

export const ATTRIBUTES = [
  'event_type',
  'player_id',
  'session_id',
  'platform',
  'country',
  'ip',
  'user_agent',
  'device_fingerprint',
] as const
export const DEVICE_KEYS = ['model', 'manufacturer', 'hardware', 'product', 'fingerprint'] as const

type Kind = 'string' | 'number' | 'any'
type Reader = (view: EventView) => unknown

const THREATS: ReadonlySet<string> = new Set(THREAT_TYPES)
const KEY_RE = /^[A-Za-z0-9_-]+$/

const invalid = (field: string, message: string) =>
  new AppError('ValidationError', `${field}: ${message}`, [{ field, message }])

/** The reader and value kind of a field path; 400 naming `field` when it is not one. */
export function resolveField(path: string): { kind: Kind; read: Reader } {
  if ((ATTRIBUTES as readonly string[]).includes(path))
    return { kind: 'string', read: (v) => v.attributes[path] ?? undefined }
  if (path === 'risk') return { kind: 'number', read: (v) => v.risk }
  const dot = path.indexOf('.')
  const head = dot < 0 ? path : path.slice(0, dot)
  const rest = dot < 0 ? '' : path.slice(dot + 1)
  if (head === 'score' && THREATS.has(rest))
    return { kind: 'number', read: (v) => v.scores[rest as ThreatType] }
  if (head === 'device' && (DEVICE_KEYS as readonly string[]).includes(rest))
    return { kind: 'string', read: (v) => v.device[rest] ?? undefined }
  if (head === 'data' && rest) {
    const keys = rest.split('.')
    if (keys.every((k) => KEY_RE.test(k))) return { kind: 'any', read: (v) => dig(v.data, keys) }
  }
  throw invalid(
    'field',
    `unknown field "${path}": use ${ATTRIBUTES.join(', ')}, data.<key>, device.<${DEVICE_KEYS.join('|')}>, score.<${THREAT_TYPES.join('|')}> or risk`,
  )
}

function dig(data: Readonly<Record<string, unknown>> | null, keys: string[]): unknown {
  let at: unknown = data
  for (const k of keys) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined
    if (!Object.prototype.hasOwnProperty.call(at, k)) return undefined
    at = (at as Record<string, unknown>)[k]
  }
  return at
}

type Scalar = string | number | boolean
const isScalar = (x: unknown): x is Scalar =>
  typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)) || typeof x === 'boolean'
const { valueBytesMax, inValuesMax } = FRAUD_LIMITS

/**
 * A string, finite number or boolean, or an array of at most 100 of them; at most 1 KB as JSON
 * (every event of the game is tested against it, and it is kept in memory).
 */
function checkShape(value: unknown): void {
  if (Array.isArray(value) ? !value.every(isScalar) : !isScalar(value))
    throw invalid('value', 'must be a string, a number, a boolean, or an array of them')
  if (Array.isArray(value) && value.length > inValuesMax)
    throw invalid('value', `at most ${inValuesMax} values (an in list holds ${value.length})`)
  const bytes = Buffer.byteLength(JSON.stringify(value))
  if (bytes > valueBytesMax)
    throw invalid('value', `at most ${valueBytesMax} bytes as JSON (this one is ${bytes})`)
}

const ORDERING: ReadonlySet<RuleOperator> = new Set(['gt', 'lt', 'gte', 'lte'])

/** 400 (naming `value` or `operator`) when the operator cannot apply to the value or the field. */
export function checkRule(field: string, operator: RuleOperator, value: RuleValue): void {
  checkShape(value)
  const { kind } = resolveField(field)
  if (ORDERING.has(operator)) {
    if (kind === 'string') throw invalid('operator', `${operator} does not apply to the text field ${field}`)
    if (typeof value !== 'number') throw invalid('value', `${operator} needs a number`)
    return
  }
  if (operator === 'in') {
    if (!Array.isArray(value) || value.length === 0)
      throw invalid('value', 'in needs a non-empty array of values')
    if (kind === 'number' && value.some((x) => typeof x !== 'number'))
      throw invalid('value', `${field} is a number: every value of in must be a number`)
    if (kind === 'string' && value.some((x) => typeof x !== 'string'))
      throw invalid('value', `${field} is text: every value of in must be a string`)
    return
  }
  if (Array.isArray(value)) throw invalid('value', `${operator} needs a single value (use in for a list)`)
  if (operator === 'contains') {
    if (kind === 'number') throw invalid('operator', `contains does not apply to the number field ${field}`)
    if (kind === 'string' && typeof value !== 'string')
      throw invalid('value', 'contains on a text field needs a string')
    return
  }
  if (kind === 'number' && typeof value !== 'number')
    throw invalid('value', `${field} is a number: ${operator} needs a number`)
  if (kind === 'string' && typeof value !== 'string')
    throw invalid('value', `${field} is text: ${operator} needs a string`)
}

/**
 * The test of one rule on an event view. A field the event lacks (or whose type the operator
 * cannot compare) never matches, `ne` included.
 */
export function compileTest(
  field: string,
  operator: RuleOperator,
  value: RuleValue,
): (view: EventView) => boolean {
  const { read } = resolveField(field)
  switch (operator) {
    case 'eq':
      return (v) => {
        const x = read(v)
        return isScalar(x) && x === value
      }
    case 'ne':
      return (v) => {
        const x = read(v)
        return isScalar(x) && x !== value
      }
    case 'gt':
      return (v) => {
        const x = read(v)
        return typeof x === 'number' && x > (value as number)
      }
    case 'lt':
      return (v) => {
        const x = read(v)
        return typeof x === 'number' && x < (value as number)
      }
    case 'gte':
      return (v) => {
        const x = read(v)
        return typeof x === 'number' && x >= (value as number)
      }
    case 'lte':
      return (v) => {
        const x = read(v)
        return typeof x === 'number' && x <= (value as number)
      }
    case 'contains':
      return (v) => {
        const x = read(v)
        if (typeof x === 'string') return typeof value === 'string' && x.includes(value)
        return Array.isArray(x) && x.includes(value)
      }
    case 'in': {
      const set: ReadonlySet<unknown> = new Set(value as Scalar[])
      return (v) => {
        const x = read(v)
        return isScalar(x) && set.has(x)
      }
    }
  }
}
