/**
 * Install attribution, the storage's part: which of a batch's app_installs carrying a click
 * (found within the window by the ingestion) are credited with it. Per player, the earliest such
 * install of a player without a link yet; per click, the earliest of those; then the click id is
 * claimed in the batch's transaction (install_click_claims), and only a claimed one is credited.
 */
import type { StorageStore } from './store.js'
import type { AcceptedBatch, AcceptedEvent, Snapshot } from './types.js'
import type { UnitOfWork } from '../../../db/unit-of-work.js'

/** The batch's events, those credited with their click carrying it as `credit` (new objects). */
export async function creditClicks(
  store: Pick<StorageStore, 'claimClicks'>,
  unit: UnitOfWork,
  batch: AcceptedBatch,
  snapshot: Snapshot,
): Promise<readonly AcceptedEvent[]> {
  const organizationId = batch.organizationId
  if (organizationId === undefined || !batch.events.some((a) => a.event.click)) return batch.events
  const seen = new Set<string>()
  const byPlayer = new Map<string, AcceptedEvent>()
  for (const a of batch.events) {
    const e = a.event
    // A repeated event id is stored once (the first): only that one may be credited.
    if (seen.has(e.eventId)) continue
    seen.add(e.eventId)
    if (!e.click || snapshot.storedEventIds.has(e.eventId)) continue
    if ((snapshot.profiles.get(e.playerId)?.link_id ?? null) !== null) continue
    const prev = byPlayer.get(e.playerId)
    if (!prev || e.ts < prev.event.ts) byPlayer.set(e.playerId, a)
  }
  const byClick = new Map<string, AcceptedEvent>()
  for (const a of byPlayer.values()) {
    const id = a.event.click!.clickId
    const prev = byClick.get(id)
    if (!prev || a.event.ts < prev.event.ts) byClick.set(id, a)
  }
  if (byClick.size === 0) return batch.events
  const claimed = await store.claimClicks(unit, {
    organizationId,
    gameId: batch.gameId,
    at: batch.receivedAt,
    claims: [...byClick].map(([clickId, a]) => ({ clickId, playerId: a.event.playerId })),
  })
  const credited = new Set([...byClick].filter(([id]) => claimed.has(id)).map(([, a]) => a))
  return batch.events.map((a) =>
    credited.has(a) ? { ...a, event: { ...a.event, credit: a.event.click! } } : a,
  )
}
