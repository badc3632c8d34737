/**
 * The money layers of the gaming-analytics bench: what revenue, attribution
 * and the players explorer read beside the profiles (filled in gaming.ts with platform, country
 * and first-touch attribution, see PROFILE_VALUES): the daily dimensions per platform and
 * attribution value, the distinct paying players per platform and source (game_dim_paying_gaps,
 * filled like game_day_gaps) and the acquisition money per attribution value.
 */
import { prng } from '../support/prng.js'
import { PROFILE_VALUES } from './gaming.js'
import type { AggregatesBench } from './gaming.js'

const DAY = 86_400_000
const MONEY_DIMS = ['platform', 'source', 'affiliate', 'campaign', 'medium'] as const
/** The dims game_dim_paying_gaps keeps (distinct paying players per value). */
const PAYING_DIMS = new Set<string>(['platform', 'source'])

/**
 * INSERT of one game_daily_dims row: game, day, dim, value, players, new players, paying players,
 * events, transactions, revenue IAP, ad and subscription (micros) and sessions.
 */
export const dailyDimsInsert = (b: AggregatesBench) =>
  b.sqlite.prepare(
    `INSERT INTO game_daily_dims (game_id, day, dim, value, players, new_players, paying_players, events,
       transactions, revenue_iap_micros, revenue_ad_micros, revenue_subscription_micros, sessions)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )

/**
 * Per day and per value of each money dimension: a day's actives, installs and payers split
 * evenly over the values with the revenue per active player of game_daily (gaming.ts), one row of paying
 * gaps per earlier day (platform, source) and cost, commission and conversions (attribution).
 */
export function fillMoney(b: AggregatesBench, players: number, days: number): void {
  const rand = prng(13)
  const today = Math.floor(b.now / DAY)
  const first = today - days + 1
  const gameId = b.game.internalId
  const dim = dailyDimsInsert(b)
  const payingGap = b.sqlite.prepare(
    'INSERT INTO game_dim_paying_gaps (game_id, dim, value, day, prev_day, players) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const acquisition = b.sqlite.prepare(
    `INSERT INTO game_acquisition_daily (game_id, day, dim, value, cost_micros, commission_micros, conversions)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  )
  const active = Math.floor(players * 0.3)
  const installs = Math.ceil(players / days)
  const paying = Math.floor(active * 0.03)
  b.sqlite.transaction(() => {
    for (let d = 0; d < days; d++) {
      const day = first + d
      for (const dimName of MONEY_DIMS) {
        const values = PROFILE_VALUES[dimName]
        for (const value of values) {
          const share = (n: number) => Math.floor(n / values.length)
          const [actives, newPlayers, payers] = [share(active), share(installs), share(paying)]
          const iap = Math.floor(actives * 500_000 * (0.5 + rand()))
          // prettier-ignore
          dim.run(gameId, day, dimName, value, actives, newPlayers, payers, actives * 40, Math.floor(payers * 1.3),
            iap, actives * 20_000, actives * 100_000, actives * 2)
          if (PAYING_DIMS.has(dimName)) {
            payingGap.run(gameId, dimName, value, day, -1, Math.floor(payers / 10))
            for (let p = Math.max(first, day - 59); p < day; p++)
              payingGap.run(gameId, dimName, value, day, p, Math.floor(rand() * (payers / 20)))
          }
          if (dimName !== 'platform') {
            const paid = value !== 'organic'
            // prettier-ignore
            acquisition.run(gameId, day, dimName, value, paid ? newPlayers * 1_500_000 : 0,
              dimName === 'affiliate' ? Math.floor(iap / 10) : 0, Math.floor(newPlayers * 0.02))
          }
        }
      }
    }
  })()
}
