/**
 * Install attribution, the ingestion's part: an app_install's data.click_id is looked up among
 * the smart-link clicks of the game's organization (through the port the composition gives:
 * clicks and links are other modules) and kept as the event's `click` when the install's time is
 * within the game's window. Whether it is credited (the player's first link, the click's first
 * install) is decided in the batch's transaction by the storage. docs/decisions/install-attribution.md.
 */
import { DAY_MS } from '../../../clock.js'
import type { GameRecord } from '../games/index.js'
import type { GameEvent } from '../storage/index.js'
import { attributionValue } from './validate.js'

/** A smart-link click by its id, with the clicked link's destination (a smart link's fallback). */
export interface ClickOfInstall {
  clickId: string
  linkId: string
  /** Unix ms of the click. */
  ts: number
  destinationUrl: string
}

/** The clicks of an organization among `clickIds` (buffered clicks included); unknown ids left out. */
export type ClickLookup = (organizationId: string, clickIds: readonly string[]) => Promise<ClickOfInstall[]>

/**
 * How much earlier than its click an install may be stamped: the device's clock may lag the
 * server's (the same 5 minutes ingestion allows an event in the future).
 */
export const CLICK_CLOCK_TOLERANCE_MS = 5 * 60_000

/** Whether an install at `ts` falls within `windowDays` of a click at `clickTs`. */
export const withinWindow = (ts: number, clickTs: number, windowDays: number): boolean =>
  ts >= clickTs - CLICK_CLOCK_TOLERANCE_MS && ts <= clickTs + windowDays * DAY_MS

function utmOf(url: string): Pick<NonNullable<GameEvent['click']>, 'source' | 'medium' | 'campaign'> {
  let q: URLSearchParams
  try {
    q = new URL(url).searchParams
  } catch {
    return { source: null, medium: null, campaign: null }
  }
  return {
    source: attributionValue(q.get('utm_source')),
    medium: attributionValue(q.get('utm_medium')),
    campaign: attributionValue(q.get('utm_campaign')),
  }
}

/** Sets `click` on the events whose click id is the organization's and within the game's window. */
export async function attachClicks(
  lookup: ClickLookup | undefined,
  game: GameRecord,
  events: readonly GameEvent[],
): Promise<void> {
  if (!lookup || !events.some((e) => e.installClick)) return
  const ids = [...new Set(events.flatMap((e) => (e.installClick ? [e.installClick] : [])))]
  const clicks = new Map((await lookup(game.organizationId, ids)).map((c) => [c.clickId, c]))
  for (const e of events) {
    const c = e.installClick ? clicks.get(e.installClick) : undefined
    if (c && withinWindow(e.ts, c.ts, game.attributionWindowDays))
      e.click = { clickId: c.clickId, linkId: c.linkId, ...utmOf(c.destinationUrl) }
  }
}
