import type { GameService } from '../games/index.js'
import type { OverviewQuery } from '../../../../src/contract/gaming.js'
import { dateOfDay, utcDayNumber } from '../../../clock.js'
import { dayRange } from './days.js'

/** What every analytics read starts from: the game (404 for another organization's), its range, today. */
export interface Scope {
  gameId: string
  start: number
  end: number
  today: number
  range: { startDate: string; endDate: string }
}

/** Resolves the game and the day range (400 on a bad or too long range) before any read. */
export async function scopeOf(
  games: Pick<GameService, 'record'>,
  now: number,
  organizationId: string,
  slug: string,
  q: OverviewQuery,
): Promise<Scope> {
  const game = await games.record(organizationId, slug)
  const { start, end } = dayRange(q, now)
  return {
    gameId: game.id,
    start,
    end,
    today: utcDayNumber(now),
    range: { startDate: dateOfDay(start), endDate: dateOfDay(end) },
  }
}
