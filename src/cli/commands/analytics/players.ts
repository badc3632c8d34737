/** `linkctl analytics players <game>`: the players explorer (prefix search, filters, sorts, pages). */
import { Option, type Command } from 'commander'
import { GAME_PLATFORMS, PLAYER_SORTS, SEGMENTS } from '../../../contract/limits.js'
import type { PlayerRow, PlayersPage, PlayersQuery } from '../../../contract/gaming-revenue.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, countryName, emit, printRows, when, type Column } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { moneyArg } from '../../parse.js'
import { amount, inCurrency } from './shared.js'

export interface PlayersOpts extends PageFlags {
  game: string
  search?: string
  platform?: PlayersQuery['platform']
  country?: string
  segment?: PlayersQuery['segment']
  minRevenue?: number
  activeFrom?: string
  activeTo?: string
  sort?: PlayersQuery['sort']
  order?: PlayersQuery['order']
}

export const playerColumns = (tty: boolean, currency?: string): Column<PlayerRow>[] => [
  { header: 'PLAYER', value: (x) => x.playerId, fit: 'flex' },
  { header: 'SESSIONS', value: (x) => x.sessions, drop: 3 },
  {
    header: inCurrency('REVENUE', currency, tty),
    name: 'revenue',
    value: (x) => amount(currency, tty)(x.revenue),
  },
  { header: 'SEGMENT', value: (x) => x.segment, drop: 4 },
  { header: 'LAST ACTIVE', value: (x) => when(x.lastActiveAt, tty), drop: 5 },
  { header: 'PLATFORM', value: (x) => x.platform, drop: 2 },
  { header: 'COUNTRY', value: (x) => countryName(x.country), drop: 1 },
]

export async function runAnalyticsPlayers(o: PlayersOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const filters: PlayersQuery = {
    ...(o.search ? { search: o.search } : {}),
    ...(o.platform ? { platform: o.platform } : {}),
    ...(o.country ? { country: o.country } : {}),
    ...(o.segment ? { segment: o.segment } : {}),
    ...(o.minRevenue !== undefined ? { minRevenue: o.minRevenue } : {}),
    ...(o.activeFrom ? { lastActiveFrom: o.activeFrom } : {}),
    ...(o.activeTo ? { lastActiveTo: o.activeTo } : {}),
    ...(o.sort ? { sort: o.sort } : {}),
    ...(o.order ? { order: o.order } : {}),
  }
  const client = await ctx.client()
  const r: PlayersPage = await fetchList(ctx, o, (page) =>
    client.analytics.gamePlayers(o.game, { ...filters, ...page }),
  )
  await emit(ctx, r, async () => {
    await printRows(ctx, r.data, playerColumns(ctx.isTTY, r.currency))
    cutNote(ctx, r, r.data.length)
  })
}

export function register(analytics: Command): void {
  const players = pageOptions(
    analytics
      .command('players')
      .description('players of a game: search by id prefix, filter, sort')
      .argument('<game>', 'game id')
      .option('--search <prefix>', 'player ids starting with')
      .addOption(new Option('--platform <platform>', 'first platform').choices(GAME_PLATFORMS))
      .option('--country <code>', 'first country (ISO 3166-1 alpha-2)')
      .addOption(new Option('--segment <segment>', 'revenue segment').choices(SEGMENTS))
      .option('--min-revenue <amount>', 'lifetime revenue at least', moneyArg(1_000_000_000))
      .option('--active-from <date>', 'last active on or after this UTC day (YYYY-MM-DD)')
      .option('--active-to <date>', 'last active on or before this UTC day (YYYY-MM-DD)')
      .addOption(new Option('--sort <field>', 'sort by (default revenue)').choices(PLAYER_SORTS))
      .addOption(new Option('--order <order>', 'default desc').choices(['asc', 'desc'])),
  )
  jsonOption(columnsOption(players, playerColumns(false))).action(
    action<Omit<PlayersOpts, 'game'>>(([game], o, ctx) =>
      runAnalyticsPlayers({ ...o, game: game ?? '' }, ctx),
    ),
  )
}
