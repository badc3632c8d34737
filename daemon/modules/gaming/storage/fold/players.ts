/**
 * Player profiles (game_players): created on a player's first event with first-touch fields,
 * first and last seen, the event count; an older first event moves the install day back, and
 * the new players, cohorts, conversions and stored player-days of the player follow.
 */
import { NO_DAY } from '../types.js'
import type { GameEvent, ProfileRow, ProfileWrite } from '../types.js'
import { moveConversion, moveLinkConversion } from './acquisition.js'
import { dayCounters, dimCounters, profileDims } from './daily.js'
import { cohort, moveCohortValue } from './gaps.js'
import { strip, type FoldState, type LiveProfile } from './state.js'

/** The event's player, read from the snapshot or new (a new player counted on its day). */
export function foldPlayer(st: FoldState, event: GameEvent): LiveProfile {
  const playerId = event.playerId
  let profile = st.profiles.get(playerId)
  // The player's first event of the batch takes the first-touch values of all its events in the
  // batch (a source on a later event than a purchase counts the purchase under it too).
  let touches: readonly GameEvent[] = [event]
  if (!profile) {
    touches = st.playerEvents.get(playerId) ?? touches
    const row = st.snapshot.profiles.get(playerId)
    profile = row
      ? { ...row, known: true, loadedLastDay: row.last_active_day, dirty: false }
      : newProfile(event)
    st.profiles.set(playerId, profile)
    if (!row) {
      fillTouches(profile, touches)
      dayCounters(st, event.day).new_players++
      profileDims(st, profile, event.day, (c) => c.new_players++)
    }
  }
  const hadLink = profile.link_id !== null
  const { country, source, campaign } = profile
  if (fillTouches(profile, touches)) {
    profile.dirty = true
    // Values known only now: the days counted in '' groups of the retention breakdowns follow.
    if (country !== profile.country)
      moveCohortValue(st, playerId, profile.install_day, 'country', profile.country!)
    if (source !== profile.source)
      moveCohortValue(st, playerId, profile.install_day, 'source', profile.source!)
    if (campaign !== profile.campaign)
      moveCohortValue(st, playerId, profile.install_day, 'campaign', profile.campaign!)
    if (!hadLink && profile.link_id !== null)
      moveCohortValue(st, playerId, profile.install_day, 'link', profile.link_id)
  }
  if (!hadLink && profile.link_id !== null) linkCredited(st, profile)
  if (event.ts < profile.first_seen_at) {
    profile.dirty = true
    if (event.day < profile.install_day) moveInstall(st, profile, event.day)
    profile.first_seen_at = event.ts
  }
  if (event.ts > profile.last_active_at) profile.last_active_at = event.ts
  if (event.day > profile.last_active_day) profile.last_active_day = event.day
  profile.event_count++
  return profile
}

const newProfile = (event: GameEvent): LiveProfile => ({
  player_id: event.playerId,
  first_seen_at: event.ts,
  install_day: event.day,
  last_active_at: event.ts,
  last_active_day: event.day,
  platform: event.platform,
  country: null,
  device_fingerprint: null,
  affiliate: null,
  campaign: null,
  source: null,
  medium: null,
  link_id: null,
  click_id: null,
  session_count: 0,
  event_count: 0,
  transactions: 0,
  revenue_iap_micros: 0,
  revenue_ad_micros: 0,
  revenue_subscription_micros: 0,
  revenue_total_micros: 0,
  first_purchase_at: null,
  current_session_id: null,
  known: false,
  loadedLastDay: NO_DAY,
  dirty: false,
})

/**
 * A player seen before its credited install (its profile already counted as a new player without
 * a link, under ''): the install and, if it paid already, its conversion move to the link.
 */
function linkCredited(st: FoldState, profile: LiveProfile): void {
  dimCounters(st, profile.install_day, 'link', '').new_players--
  dimCounters(st, profile.install_day, 'link', profile.link_id!).new_players++
  if (profile.first_purchase_at !== null) moveLinkConversion(st, profile)
}

/** An older event (up to 24 h) moves the install date back: cohorts and new players follow. */
function moveInstall(st: FoldState, profile: LiveProfile, newInstall: number): void {
  const playerId = profile.player_id
  const oldInstall = profile.install_day
  dayCounters(st, oldInstall).new_players--
  dayCounters(st, newInstall).new_players++
  profileDims(st, profile, oldInstall, (c) => c.new_players--)
  profileDims(st, profile, newInstall, (c) => c.new_players++)
  const known = new Set<number>([
    ...(st.snapshot.allDays.get(playerId) ?? []),
    ...(st.batchDays.get(playerId) ?? []),
  ])
  for (const d of known) {
    cohort(st, profile, oldInstall, d - oldInstall, -1)
    cohort(st, profile, newInstall, d - newInstall, 1)
  }
  moveConversion(st, profile, oldInstall, newInstall)
  st.installMoves.set(playerId, newInstall)
  for (const row of st.days.values()) if (row.player_id === playerId) row.install_day = newInstall
  profile.install_day = newInstall
}

type FirstTouch = 'country' | 'device_fingerprint' | 'affiliate' | 'campaign' | 'source' | 'medium'

/** Sets a first-touch field still unknown; a module function, not a closure per event (hot path). */
function fill(p: ProfileRow, k: FirstTouch, v: string | null): boolean {
  if (p[k] !== null || v === null) return false
  p[k] = v
  return true
}

/** First-touch profile fields: set when first known, never overwritten. True if one was set. */
export function fillProfile(p: ProfileRow, e: GameEvent): boolean {
  let changed = fill(p, 'country', e.country)
  if (fill(p, 'device_fingerprint', e.deviceFingerprint)) changed = true
  if (fill(p, 'affiliate', e.attribution.affiliate)) changed = true
  const credit = e.credit
  if (credit && p.link_id === null) {
    // A credited install: its link and click; the event's UTM fields win over the link's.
    p.link_id = credit.linkId
    p.click_id = credit.clickId
    changed = true
    if (fill(p, 'campaign', e.attribution.campaign ?? credit.campaign)) changed = true
    if (fill(p, 'source', e.attribution.source ?? credit.source)) changed = true
    if (fill(p, 'medium', e.attribution.medium ?? credit.medium)) changed = true
    return changed
  }
  if (fill(p, 'campaign', e.attribution.campaign)) changed = true
  if (fill(p, 'source', e.attribution.source)) changed = true
  if (fill(p, 'medium', e.attribution.medium)) changed = true
  return changed
}

/** fillProfile over events in order: the first known value of each field wins. */
function fillTouches(p: ProfileRow, events: readonly GameEvent[]): boolean {
  let changed = false
  for (const e of events) if (fillProfile(p, e)) changed = true
  return changed
}

/**
 * The game_day_gaps kind of a player's country (geography: distinct players per country over any
 * range). It shares the 'active' kind's neighbours, so it is exact while a player's profile country
 * stays the same; first-touch, it only changes once, from unknown ('country:') to known.
 */
export const countryKind = (profile: Pick<ProfileRow, 'country'>): `country:${string}` =>
  `country:${profile.country ?? ''}`

/** insert: a new player; all: first-touch, first-seen or revenue fields changed; activity: the rest. */
export function profileWrites(st: FoldState): ProfileWrite[] {
  return [...st.profiles.values()].map((p) => ({
    row: strip<ProfileRow>(p, 'known', 'loadedLastDay', 'dirty'),
    write: !p.known ? 'insert' : p.dirty ? 'all' : 'activity',
  }))
}
