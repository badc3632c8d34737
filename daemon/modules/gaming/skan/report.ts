import {
  COARSE_BANDS,
  SKAN_WINDOWS,
  type CampaignReport,
  type ConversionSchema,
} from '../../../../src/contract/skan.js'
import { revenueOf } from './conversion-schema.js'
import { round } from '../../../../src/contract/numbers.js'
import type { PostbackGroup } from './store.js'

const zeroBands = () => ({ low: 0, medium: 0, high: 0 })

/**
 * A campaign's report from its postbacks counted by figure. Only verified postbacks count, except
 * in the totals that say otherwise (`postbacks`, each window's `postbacks`). Installs, events and
 * estimated revenue read the first postbacks (sequence index 0, days 0-2): each install once.
 * Revenue comes from the schema's current `decodedRevenue` (0 for values it does not name).
 */
export function buildReport(groups: readonly PostbackGroup[], schema: ConversionSchema): CampaignReport {
  const byWindow = SKAN_WINDOWS.map((window) => ({ window, postbacks: 0, verified: 0, coarse: zeroBands() }))
  const coarse = zeroBands()
  const events: Record<string, number> = Object.fromEntries(
    Object.keys(schema.events).map((name) => [name, 0]),
  )
  let postbacks = 0
  let verified = 0
  let installs = 0
  let redownloads = 0
  let revenue = 0
  for (const g of groups) {
    const w = byWindow[g.sequenceIndex] ?? byWindow[0]!
    postbacks += g.count
    w.postbacks += g.count
    if (!g.verified) continue
    verified += g.count
    w.verified += g.count
    if (g.coarseValue !== null && (COARSE_BANDS as readonly string[]).includes(g.coarseValue)) {
      coarse[g.coarseValue] += g.count
      w.coarse[g.coarseValue] += g.count
    }
    if (g.sequenceIndex !== 0) continue
    if (g.didWin) {
      installs += g.count
      if (g.redownload) redownloads += g.count
    }
    for (const name of g.events) events[name] = (events[name] ?? 0) + g.count
    revenue += revenueOf(schema, g.fineValue, g.coarseValue) * g.count
  }
  return {
    postbacks,
    verified,
    verifiedShare: postbacks ? round(verified / postbacks, 4) : 0,
    byWindow,
    installs,
    redownloads,
    events,
    coarse,
    estimatedRevenue: round(revenue, 6),
  }
}
