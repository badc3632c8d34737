/** Split (A/B) destinations of links and of smart links' fallback. */
import Type, { type Static } from 'typebox'
import { HTTP_URL_PATTERN } from './text.js'
import { LINK_LIMITS, LINK_VARIANT_LIMITS } from './limits.js'

const VariantUrl = Type.String({
  minLength: 1,
  maxLength: LINK_LIMITS.destinationUrlMax,
  pattern: HTTP_URL_PATTERN,
  description: 'http:// or https:// URL, up to 2,048 characters',
})
export const LinkVariant = Type.Object(
  {
    destinationUrl: VariantUrl,
    weight: Type.Integer({
      minimum: LINK_VARIANT_LIMITS.weightMin,
      maximum: LINK_VARIANT_LIMITS.weightMax,
      description: 'Percent of the visitors this variant gets (the weights add up to 100)',
    }),
  },
  { additionalProperties: false },
)
export type LinkVariant = Static<typeof LinkVariant>
/**
 * Split destinations, written (2-10 variants, weights adding up to 100, no URL twice; [] is none,
 * as a link without them reads, so checkVariants counts them).
 */
export const Variants = Type.Array(LinkVariant, {
  maxItems: LINK_VARIANT_LIMITS.variantsMax,
  description:
    'Split (A/B) destinations: when no rule matches, a visitor gets one by weight and keeps it for the UTC day (the same daily visitor hash as uniqueVisitors). 2-10 variants, integer weights adding up to 100, each URL once; null or [] clears',
})
