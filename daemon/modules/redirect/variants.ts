/**
 * Split destinations: which variant of a link a visitor gets. The visitor's daily hash (the one
 * uniqueVisitors counts) and the link's id give a bucket 0-99, the same for every visit of that
 * visitor that UTC day; the variants own consecutive ranges of buckets, as wide as their weights.
 * Other links bucket the same visitor independently (the link id is mixed in).
 */
import type { LinkVariant } from '../../../src/contract/variants.js'

/** FNV-1a of a string, 32 bits. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/**
 * The visit's bucket, 0-99: the visitor hash's first 32 bits (uniform: SHA-256 output) xor the
 * link id's FNV-1a, through MurmurHash3's finalizer (every input bit moves every output bit, so
 * two links' buckets of one visitor are unrelated), modulo 100. No second SHA-256 on the hot path.
 */
export function bucketOf(visitorHash: string, linkId: string): number {
  let h = (Number.parseInt(visitorHash.slice(0, 8), 16) ^ fnv1a(linkId)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return ((h ^ (h >>> 16)) >>> 0) % 100
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
