import { collectProblems } from '../../../http/errors.js'
import {
  COARSE_BANDS,
  DEFAULT_COARSE_VALUES,
  SKAN_LIMITS,
  type CoarseBand,
  type ConversionSchema,
  type ConversionSchemaInput,
} from '../../../../src/contract/skan.js'

const F = 'conversionSchema'
const isPowerOfTwo = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0

/**
 * The schema as stored: the defaults filled in (coarse bands, lockWindow = the campaign's) and
 * every rule in docs/reference/skan.md checked; one 400 naming each field and the rule it breaks
 * otherwise.
 */
export function checkedSchema(input: ConversionSchemaInput, lockWindowHours: number): ConversionSchema {
  const problems = collectProblems()
  const bitOwner = new Map<number, string>()
  for (const [name, value] of Object.entries(input.events)) {
    const field = `${F}.events.${name}`
    if (!isPowerOfTwo(value) || value > SKAN_LIMITS.valueMax) {
      problems.add(field, 'must be a power of two within the 6 bits (1, 2, 4, 8, 16 or 32)')
      continue
    }
    const other = bitOwner.get(value)
    if (other !== undefined) problems.add(field, `shares its bit (${value}) with event ${other}`)
    else bitOwner.set(value, name)
  }

  const coarseValues = input.coarseValues ?? DEFAULT_COARSE_VALUES
  // Where the next band must start; null after an inverted band (its end says nothing).
  let next: number | null = 0
  for (const band of COARSE_BANDS) {
    const { min, max } = coarseValues[band]
    const field = `${F}.coarseValues.${band}`
    if (min > max) {
      problems.add(field, `min (${min}) must not be above max (${max})`)
      next = null
      continue
    }
    if (next !== null && min < next)
      problems.add(`${field}.min`, `must be above the band before it (ends at ${next - 1})`)
    else if (next !== null && min > next)
      problems.add(`${field}.min`, `must be ${next}: the bands cover 0-63 without a gap`)
    next = max + 1
  }
  if (next !== null && next !== SKAN_LIMITS.valueMax + 1)
    problems.add(`${F}.coarseValues.high.max`, 'must be 63: the bands cover 0-63')

  const lockWindow = input.lockWindow ?? lockWindowHours
  if (lockWindow !== lockWindowHours)
    problems.add(`${F}.lockWindow`, `must equal the campaign's lockWindowHours (${lockWindowHours})`)
  problems.done()

  return {
    events: { ...input.events },
    coarseValues: {
      low: { ...coarseValues.low },
      medium: { ...coarseValues.medium },
      high: { ...coarseValues.high },
    },
    lockWindow,
    ...(input.decodedRevenue ? { decodedRevenue: input.decodedRevenue } : {}),
  }
}

/** The coarse band a fine value falls in. */
export function bandOf(schema: ConversionSchema, fine: number): CoarseBand | null {
  for (const band of COARSE_BANDS) {
    const r = schema.coarseValues[band]
    if (fine >= r.min && fine <= r.max) return band
  }
  return null
}

/** The event names whose bits are set in a fine value, in the schema's order. */
export function eventsOf(schema: ConversionSchema, fine: number): string[] {
  return Object.entries(schema.events)
    .filter(([, bit]) => (fine & bit) !== 0)
    .map(([name]) => name)
}

/**
 * The revenue a postback decodes to: its fine value's, else its coarse band's, else 0 (values the
 * schema's `decodedRevenue` does not name).
 */
export function revenueOf(schema: ConversionSchema, fine: number | null, coarse: CoarseBand | null): number {
  const decoded = schema.decodedRevenue
  if (fine !== null && decoded?.fine?.[String(fine)] !== undefined) return decoded.fine[String(fine)]!
  if (coarse !== null && decoded?.coarse?.[coarse] !== undefined) return decoded.coarse[coarse]!
  return 0
}
