/** `linkctl analytics player <game> <player>`: one player's profile and newest events. */
import type { Command } from 'commander'
import type { PlayerEvent, PlayerProfile } from '../../../contract/gaming-revenue.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { countryName, emit, printRecord, printRows, when, type Column } from '../../output.js'
import { cutNote, pageOptions, pageQuery, type PageFlags } from '../../paging.js'
import { amount, inCurrency } from './shared.js'

export interface PlayerOpts extends PageFlags {
  game: string
  player: string
}

export async function runAnalyticsPlayer(o: PlayerOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const p: PlayerProfile = await (await ctx.client()).analytics.gamePlayer(o.game, o.player, pageQuery(o))
  const c = p.currency
  const total = amount(c, true)
  const cash = amount(c, ctx.isTTY)
  const attribution = Object.entries(p.attribution)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  const columns: Column<PlayerEvent>[] = [
    { header: 'TIME', value: (e) => when(e.timestamp, ctx.isTTY, 'second') },
    { header: 'TYPE', value: (e) => e.eventType },
    { header: 'SESSION', value: (e) => e.sessionId },
    {
      header: inCurrency('REVENUE', c, ctx.isTTY),
      name: 'revenue',
      value: (e) => (e.revenue === null ? '' : cash(e.revenue)),
    },
    { header: 'VERDICT', value: (e) => e.verdict },
  ]
  await emit(ctx, p, async () => {
    await printRecord(ctx, [
      ['PLAYER', p.playerId],
      ['FIRST SEEN', when(p.firstSeenAt, ctx.isTTY)],
      ['LAST ACTIVE', when(p.lastActiveAt, ctx.isTTY)],
      ['PLATFORM', p.platform],
      ['COUNTRY', countryName(p.country)],
      ['DEVICE', p.device],
      ['ATTRIBUTION', attribution],
      ['SESSIONS', p.sessions],
      ['TRANSACTIONS', p.transactions],
      ['REVENUE', total(p.revenue)],
      ['  IAP', total(p.revenueByType.iap)],
      ['  AD', total(p.revenueByType.ad)],
      ['  SUBSCRIPTION', total(p.revenueByType.subscription)],
      ['SEGMENT', p.segment],
    ])
    await printRows(ctx, p.events.data, columns)
    cutNote(ctx, p.events, p.events.data.length)
  })
}

export function register(analytics: Command): void {
  jsonOption(
    pageOptions(
      analytics
        .command('player')
        .description("a player's profile, revenue by type and newest events (paged)")
        .argument('<game>', 'game id')
        .argument('<player>', 'player id'),
    ),
  ).action(
    action<Omit<PlayerOpts, 'game' | 'player'>>(([game, player], o, ctx) =>
      runAnalyticsPlayer({ ...o, game: game ?? '', player: player ?? '' }, ctx),
    ),
  )
}
