/**
 * The text form of split destinations that linkctl's `--variant` and the TUI's variant field
 * share: `<url>=<weight>` (`https://example.com/a=70`); the weight is after the last `=`, so a
 * URL may carry a query.
 */
import { LINK_VARIANT_LIMITS } from '../contract/limits.js'
import type { LinkVariant } from '../contract/variants.js'

/** One variant from its text, appended to `previous`; a plain Error says what is wrong. */
export function parseVariant(value: string, previous: readonly LinkVariant[] = []): LinkVariant[] {
  const at = value.lastIndexOf('=')
  const url = at === -1 ? '' : value.slice(0, at).trim()
  const weight = at === -1 ? '' : value.slice(at + 1).trim()
  if (url === '' || !/^\d+$/.test(weight))
    throw new Error("expected '<url>=<weight>', such as 'https://example.com/a=70' (weights add up to 100)")
  const w = Number(weight)
  if (w < LINK_VARIANT_LIMITS.weightMin || w > LINK_VARIANT_LIMITS.weightMax)
    throw new Error(
      `a weight is ${LINK_VARIANT_LIMITS.weightMin}-${LINK_VARIANT_LIMITS.weightMax} (got ${w})`,
    )
  const variants = [...previous, { destinationUrl: url, weight: w }]
  if (variants.length > LINK_VARIANT_LIMITS.variantsMax)
    throw new Error(`at most ${LINK_VARIANT_LIMITS.variantsMax} variants`)
  return variants
}

/** A variant as `parseVariant` reads it. */
export function variantText(v: LinkVariant): string {
  return `${v.destinationUrl}=${v.weight}`
}
