/**
 * Split destinations: which variant of a link a visitor gets. The visitor's daily hash (the one
 * uniqueVisitors counts) and the link's id give a bucket 0-99, the same for every visit of that
 * visitor that UTC day; the variants own consecutive ranges of buckets, as wide as their weights.
 * Other links bucket the same visitor independently (the link id is hashed in).
 */
import { hash } from 'node:crypto'
import type { LinkVariant } from '../../../src/contract/variants.js'

/** The visit's bucket, 0-99: the first 32 bits of SHA-256(visitor hash, link id), modulo 100. */
export function bucketOf(visitorHash: string, linkId: string): number {
  return Number.parseInt(hash('sha256', `${visitorHash}\n${linkId}`, 'hex').slice(0, 8), 16) % 100
}

/** The variant owning `bucket` (the weights add up to 100; the last one takes any rest). */
export function variantAt(variants: readonly LinkVariant[], bucket: number): LinkVariant {
  let end = 0
  for (const v of variants) {
    end += v.weight
    if (bucket < end) return v
  }
  return variants[variants.length - 1]!
}
