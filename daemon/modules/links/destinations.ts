/**
 * Every URL a link or smart link can send a visitor to, with the request field that names it:
 * what the destination guard (the safety lists) checks at create and update, and the re-check
 * reads of stored links. A new kind of destination is added here, and only here.
 */
import type { LinkRule } from '../../../src/contract/links.js'
import type { LinkKind, SmartTargets } from './records.js'

export interface Destination {
  /** The request field naming it (`destinationUrl`, `rules.0.destinationUrl`, `ios.url`, …). */
  field: string
  url: string
}

/** A link's destinations; a field left out (a PATCH that does not change it) has none. */
export function destinationsOf(l: {
  kind: LinkKind
  destinationUrl?: string | undefined
  expiredUrl?: string | null | undefined
  rules?: readonly LinkRule[] | undefined
  targets?: Partial<SmartTargets> | null | undefined
  variants?: readonly { destinationUrl: string }[] | null | undefined
}): Destination[] {
  const out: Destination[] = []
  const smart = l.kind === 'smart'
  if (l.destinationUrl !== undefined)
    out.push({ field: smart ? 'fallbackUrl' : 'destinationUrl', url: l.destinationUrl })
  if (l.expiredUrl) out.push({ field: 'expiredUrl', url: l.expiredUrl })
  l.rules?.forEach((r, i) => out.push({ field: `rules.${i}.destinationUrl`, url: r.destinationUrl }))
  l.variants?.forEach((v, i) => out.push({ field: `variants.${i}.destinationUrl`, url: v.destinationUrl }))
  for (const [platform, target] of Object.entries(l.targets ?? {}))
    if (target) out.push({ field: `${platform}.url`, url: target.url })
  return out
}
