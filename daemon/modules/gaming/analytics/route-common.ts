/** What the analytics routes share: the 409 of a game without analytics, the date range's words, the scope. */
import { errorRef } from '../../../http/openapi.js'

export const off = errorRef('Gaming analytics is off for this game (modules.analytics)')
/** The 404 of a route naming its game in the query (another organization's game too). */
export const noGame = errorRef("No such game in the key's organization")

export const RANGE =
  "startDate and endDate: UTC days, both included; default the last 30 days up to today; at most 366 days. Money in the game's reporting currency (`currency`)."

/** The reports' route options: analytics:read. */
export const read = { config: { auth: 'analytics:read' as const } }
