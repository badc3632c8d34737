/**
 * `linkctl analytics ...`: gaming analytics over /api/v1/analytics/games/:gameId/. Each verb is one
 * file beside this one (`analytics overview` → overview.ts) with its flags (`register`) and its
 * work (`runAnalytics<Verb>`). Link analytics are `linkctl links stats`.
 */
import type { Command } from 'commander'
import { register as registerEvents } from './events.js'
import { register as registerExport } from './export.js'
import { register as registerGeography } from './geography.js'
import { register as registerLeaderboard } from './leaderboard.js'
import { register as registerOverview } from './overview.js'
import { register as registerRetention } from './retention.js'
import { register as registerFunnel } from './funnel.js'
import { register as registerAttribution } from './attribution.js'
import { register as registerPlayer } from './player.js'
import { register as registerPlayers } from './players.js'
import { register as registerRevenue } from './revenue.js'
import { register as registerSegments } from './segments.js'

export function register(program: Command): void {
  const analytics = program.command('analytics').description('gaming analytics')
  for (const registerVerb of [
    registerOverview,
    registerRetention,
    registerFunnel,
    registerLeaderboard,
    registerGeography,
    registerEvents,
    registerExport,
    registerRevenue,
    registerAttribution,
    registerSegments,
    registerPlayers,
    registerPlayer,
  ])
    registerVerb(analytics)
}
